// The device refinement flags and time step against their host twins: flags of every built-in
// criterion (on a primitive and on a conserved variable) and dt equal exactly, on 2D and 3D patch
// grids with a blast-like state. Skipped where no device is visible.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_store.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/patch/refinement_flags.hpp"
#include "solvers/patch/time_step.hpp"
#include "solvers/patch/time_step_device.hpp"

namespace tessera {
namespace {

// A grid of patches holding a pressure bump of varied strength, halos filled.
template <int Dim>
struct BlastGrid {
  UniformPatchGrid<Dim> grid{PatchLayout<Dim>{8, 1, Dim + 2}, Vec<int, Dim>::filled(4),
                             Vec<double, Dim>::filled(0.0), Vec<double, Dim>::filled(1.0)};
  PatchStore<Dim> q{grid.layout(), grid.numPatches(), MemorySpace::Host};

  BlastGrid() {
    const Euler<Dim> pde;
    const auto& layout = grid.layout();
    const auto geometry = grid.geometries();
    for (int p = 0; p < grid.numPatches(); ++p)
      for (int n = 0; n < layout.interiorCells(); ++n) {
        const CellIndex<Dim> c = layout.interiorCell(n);
        double r2 = 0.0;
        for (int a = 0; a < Dim; ++a)
          r2 += std::pow(geometry[p].cellCenter(a, c[a]) - 0.4, 2);
        typename Euler<Dim>::State w = Euler<Dim>::State::filled(0.1);
        w[0] = 1.0 + 0.3 * std::exp(-r2 / 0.02);
        w[Dim + 1] = 1.0 + 20.0 * std::exp(-r2 / 0.01);
        const auto u = pde.toConserved(w);
        for (int v = 0; v < Dim + 2; ++v)
          q.at(p, v, c) = u[v];
      }
    ReflectionParity parity(Dim * (Dim + 2));
    for (int a = 0; a < Dim; ++a)
      for (int v = 0; v < Dim + 2; ++v)
        parity[a * (Dim + 2) + v] = Euler<Dim>::reflectionParity(v, a);
    fillHalos(buildUniformHaloPlan(grid, DomainBoundary<Dim>::all(BoundaryKind::Reflecting)),
              layout, parity, q.data());
  }
};

template <int Dim>
void expectFlagsMatch() {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  const BlastGrid<Dim> blast;
  const auto& layout = blast.grid.layout();
  const int patches = blast.grid.numPatches();
  DeviceArray<double> dq(blast.q.array().size(), MemorySpace::Device);
  dq.copyFrom(blast.q.array());
  const std::vector<amr::IndicatorCriterion> criteria = {
      {amr::Indicator::Loehner, Dim + 1, true, 0.5, 0.1},  // pressure
      {amr::Indicator::Gradient, 0, false, 0.02, 0.005},   // density, conserved
      {amr::Indicator::Threshold, Dim + 1, true, 5.0, 1.5} // pressure
  };
  for (const auto& criterion : criteria) {
    const auto host = refinementFlagsHost(Euler<Dim>{}, layout, criterion, blast.q.data(), patches);
    DeviceArray<amr::AdaptFlag> flags(patches, MemorySpace::Device);
    flags.copyFromHost(std::vector<amr::AdaptFlag>(patches, amr::AdaptFlag(7))); // poison
    refinementFlagsDevice(Euler<Dim>{}, layout, criterion, dq.data(), patches, flags.data());
    std::vector<amr::AdaptFlag> device(patches);
    flags.copyToHost(device);
    EXPECT_EQ(device, host) << "indicator " << int(criterion.indicator);
    EXPECT_NE(std::count(host.begin(), host.end(), amr::AdaptFlag::Refine), 0)
        << "the case should refine somewhere";
    EXPECT_NE(std::count(host.begin(), host.end(), amr::AdaptFlag::Coarsen), 0)
        << "and coarsen somewhere";
  }
}

TEST(SolverDevice, RefinementFlagsMatchTheHostTwin2D) {
  expectFlagsMatch<2>();
}
TEST(SolverDevice, RefinementFlagsMatchTheHostTwin3D) {
  expectFlagsMatch<3>();
}

TEST(SolverDevice, TimeStepMatchesTheHostTwin) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  const UniformPatchGrid<3> grid(PatchLayout<3>{8, 1, 5}, {{5, 3, 4}}, {{0, 0, 0}}, {{1, 2, 1}});
  const auto geometry = grid.geometries();
  std::vector<double> lambda(grid.numPatches());
  for (std::size_t p = 0; p < lambda.size(); ++p)
    lambda[p] = p % 7 == 3 ? 0.0 : 1.0 + std::sin(0.37 * double(p)) * 0.8;
  DeviceArray<double> dLambda(lambda.size(), MemorySpace::Device);
  DeviceArray<PatchGeometry<3>> dGeometry(geometry.size(), MemorySpace::Device);
  dLambda.copyFromHost(lambda);
  dGeometry.copyFromHost(geometry);
  DeviceTimeStep<3> timeStep;
  EXPECT_EQ(timeStep(0.3, dLambda.data(), dGeometry.data(), grid.numPatches()),
            stableTimeStep<3>(0.3, lambda, std::span<const PatchGeometry<3>>(geometry)));
}

} // namespace
} // namespace tessera
