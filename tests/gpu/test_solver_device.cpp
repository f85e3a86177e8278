// The device refinement flags and time step against their host twins: flags of every built-in
// criterion (on a primitive and on a conserved variable) and dt equal exactly, on 2D and 3D patch
// grids with a blast-like state; the same flags from a fused update that evaluates the criterion
// on its input (UpdateCriterion), whose update is the one without it (at first order also with x
// faces read from an x-face buffer); the eigenvalues of an update
// that leaves the layers of refluxed faces out. Skipped where no device is visible.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "patches/reflux_cell.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/patch/fused_update_device.hpp"
#include "solvers/patch/fused_update_host.hpp"
#include "solvers/patch/max_eigenvalue.hpp"
#include "solvers/patch/refinement_flags.hpp"
#include "solvers/patch/time_step.hpp"
#include "solvers/patch/time_step_device.hpp"
#include "tests/support/filled_grid.hpp"
#include "tests/support/moved_x_faces.hpp"

namespace tessera {
namespace {

// A grid of 4^Dim patches of N cells per axis with the given halo holding a pressure bump of
// varied strength, as many cells wide at every N (the indicators see differences between cells),
// halos filled (reflecting walls).
template <int Dim>
test::FilledGrid<Dim> blastGrid(int N, int halo) {
  const Euler<Dim> pde;
  const double width2 = (8.0 / N) * (8.0 / N);
  return test::FilledGrid<Dim>(
      pde,
      [&](const Vec<double, Dim>& x) {
        double r2 = 0.0;
        for (int a = 0; a < Dim; ++a)
          r2 += std::pow(x[a] - 0.4, 2);
        typename Euler<Dim>::State w = Euler<Dim>::State::filled(0.1);
        w[0] = 1.0 + 0.3 * std::exp(-r2 / (0.02 * width2));
        w[Dim + 1] = 1.0 + 20.0 * std::exp(-r2 / (0.01 * width2));
        return pde.toConserved(w);
      },
      PatchLayout<Dim>{N, halo, Dim + 2}, Vec<int, Dim>::filled(4), Vec<double, Dim>::filled(1.0),
      DomainBoundary<Dim>::all(BoundaryKind::Reflecting));
}

template <int Dim>
const std::vector<amr::IndicatorCriterion> kCriteria = {
    {amr::Indicator::Loehner, Dim + 1, true, 0.5, 0.1},  // pressure
    {amr::Indicator::Gradient, 0, false, 0.02, 0.005},   // density, conserved
    {amr::Indicator::Threshold, Dim + 1, true, 5.0, 1.5} // pressure
};

template <int Dim>
void expectFlagsMatch(int N, int halo) {
  const test::FilledGrid<Dim> blast = blastGrid<Dim>(N, halo);
  const auto& layout = blast.grid.layout();
  const int patches = blast.grid.numPatches();
  DeviceArray<double> dq(blast.q.array().size(), MemorySpace::Device);
  dq.copyFrom(blast.q.array());
  for (const auto& criterion : kCriteria<Dim>) {
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

// The device kernel stages a patch in slabs of planes: one slab (8 cells per axis), slabs of 9
// and 7 planes (3D, 16), one plane at a time (3D, 32); the halo of two of second-order layouts.
// Cells per axis and halo:
constexpr std::pair<int, int> kFlagLayouts[] = {{8, 1}, {16, 2}, {32, 1}};

TEST(SolverDevice, RefinementFlagsMatchTheHostTwin2D) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  for (const auto& [N, halo] : kFlagLayouts) {
    SCOPED_TRACE(N);
    expectFlagsMatch<2>(N, halo);
  }
}
TEST(SolverDevice, RefinementFlagsMatchTheHostTwin3D) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  for (const auto& [N, halo] : kFlagLayouts) {
    SCOPED_TRACE(N);
    expectFlagsMatch<3>(N, halo);
  }
}

// The update with a criterion (UpdateCriterion) on the blast of blastGrid, its same-level faces
// linked and their halo cells poisoned: the flags equal the host criterion's on the update's
// input, and the update, the eigenvalues and the flux register equal those of the update without
// one, bit for bit. First order runs the criterion inside the marching kernel, PLM + HLLC in a
// pass before the scheme kernel.
template <int Dim>
void expectUpdateFlagsMatch(int N, int halo, const SpatialScheme& scheme) {
  const Euler<Dim> pde;
  const test::FilledGrid<Dim> blast = blastGrid<Dim>(N, halo);
  const auto& layout = blast.grid.layout();
  const int patches = blast.grid.numPatches();
  const auto [links, poisoned] = test::linkedWithPoisonedFaces(blast);
  const auto dq = toDevice(poisoned);
  const auto dLinks = toDevice(links);
  const auto dGeometry = toDevice(blast.geometry);
  // At first order, the same with two x faces in three moved into an x-face buffer (their halo
  // cells NaN, their links gone).
  std::vector<double> movedQ = poisoned;
  const auto moved = test::moveXFaces<Dim>(layout, patches, blast.q.data(), movedQ,
                                           [](int p, int side) { return (p + side) % 3 != 0; });
  std::vector<int> movedLinks = links;
  for (std::size_t face = 0; face < moved.slots.size(); ++face)
    if (moved.slots[face] >= 0)
      movedLinks[std::size_t(2 * Dim) * (face / 2) + face % 2] = -1;
  const auto dMovedQ = toDevice(movedQ);
  const auto dMovedLinks = toDevice(movedLinks);
  const auto dSlots = toDevice(moved.slots);
  const auto dValues = toDevice(moved.values);
  const FluxRegisterLayout<Dim> registers{N, Dim + 2};
  const std::size_t size = blast.q.array().size();
  const std::size_t registerSize = std::size_t(patches) * registers.patchStride();
  const double dt = 1e-4;
  // One update: its output, eigenvalues and flux register, and its flags where it has a criterion.
  const auto update = [&](const amr::IndicatorCriterion* criterion, bool movedXFaces) {
    auto out = toDevice(std::vector<double>(size, 0.0));
    auto lambda = toDevice(std::vector<double>(patches, 0.0));
    auto fluxes = toDevice(std::vector<double>(registerSize, 0.0));
    auto flags = toDevice(std::vector<amr::AdaptFlag>(patches, amr::AdaptFlag(7))); // poison
    const UpdateCriterion flagging{criterion ? *criterion : amr::IndicatorCriterion{},
                                   flags.data()};
    fusedUpdateDevice(
        pde, scheme, layout, dGeometry.data(), patches, movedXFaces ? dMovedQ.data() : dq.data(),
        out.data(), StageWeights{dt}, lambda.data(), fluxes.data(), nullptr, nullptr,
        movedXFaces ? dMovedLinks.data() : dLinks.data(), criterion ? &flagging : nullptr, nullptr,
        movedXFaces ? XFaceBufferView{dSlots.data(), dValues.data()} : XFaceBufferView{});
    return std::tuple{toHost(out), toHost(lambda), toHost(fluxes), toHost(flags)};
  };
  const auto [out, lambda, fluxes, unused] = update(nullptr, false);
  for (const bool movedXFaces : {false, true}) {
    if (movedXFaces && !scheme.firstOrderRusanov())
      continue;
    SCOPED_TRACE(movedXFaces ? "x faces moved into a buffer" : "x faces in the halo");
    for (const auto& criterion : kCriteria<Dim>) {
      SCOPED_TRACE(int(criterion.indicator));
      const auto host = refinementFlagsHost(pde, layout, criterion, blast.q.data(), patches);
      const auto [flaggedOut, flaggedLambda, flaggedFluxes, flags] =
          update(&criterion, movedXFaces);
      EXPECT_EQ(flags, host);
      EXPECT_NE(std::count(host.begin(), host.end(), amr::AdaptFlag::Refine), 0);
      EXPECT_NE(std::count(host.begin(), host.end(), amr::AdaptFlag::Coarsen), 0);
      EXPECT_EQ(flaggedLambda, lambda);
      EXPECT_EQ(flaggedFluxes, fluxes);
      for (int p = 0; p < patches; ++p)
        for (int n = 0; n < layout.interiorCells(); ++n)
          for (int v = 0; v < Dim + 2; ++v) {
            const std::size_t i = layout.index(p, v, layout.interiorCell(n));
            ASSERT_EQ(flaggedOut[i], out[i]) << "patch " << p << " cell " << n << " variable " << v;
          }
    }
  }
}

const SpatialScheme kPlmHllc{ReconstructionKind::Plm, LimiterKind::VanLeer,
                             RiemannSolverKind::Hllc};

// Every flag layout, at first order and with PLM + HLLC (a halo of two).
template <int Dim>
void expectUpdateFlagsMatchOnEveryLayout() {
  for (const auto& [N, halo] : kFlagLayouts) {
    SCOPED_TRACE(N);
    expectUpdateFlagsMatch<Dim>(N, halo, SpatialScheme{});
    expectUpdateFlagsMatch<Dim>(N, 2, kPlmHllc);
  }
}

TEST(SolverDevice, UpdateFlagsMatchTheHostTwin2D) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  expectUpdateFlagsMatchOnEveryLayout<2>();
}
TEST(SolverDevice, UpdateFlagsMatchTheHostTwin3D) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  expectUpdateFlagsMatchOnEveryLayout<3>();
}

// The update of a grid whose patches each name a different set of faces refluxing will correct
// (every set of the 2 Dim faces occurs) and another set whose fluxes it reads: each patch's
// eigenvalue is the largest of the host twin's updated cells outside the corrected faces' layers,
// which refluxDevice then completes; the update itself is the one without the sets, and so are
// the registered faces' fluxes, while the others are not written. First order and PLM + HLLC.
template <int Dim>
void expectEigenvaluesLeaveRefluxedLayersOut(int N, int halo, const SpatialScheme& scheme) {
  const Euler<Dim> pde;
  const test::FilledGrid<Dim> blast = blastGrid<Dim>(N, halo);
  const auto& layout = blast.grid.layout();
  const int patches = blast.grid.numPatches();
  const std::size_t size = blast.q.array().size(), count = std::size_t(patches);
  const double dt = 1e-4;
  std::vector<int> refluxFaces(count);
  for (int p = 0; p < patches; ++p)
    refluxFaces[std::size_t(p)] = p % (1 << 2 * Dim) | (p / 3 % (1 << 2 * Dim))
                                                           << kRegisteredFaceBit;
  const FluxRegisterLayout<Dim> registers{N, Dim + 2};

  std::vector<double> hostOut(size, 0.0), hostLambda(count);
  long long fallbacks = 0;
  fusedUpdateHost(pde, scheme, layout, std::span<const PatchGeometry<Dim>>(blast.geometry),
                  blast.q.data(), hostOut.data(), StageWeights{dt}, hostLambda.data(), nullptr, {},
                  &fallbacks);
  const auto dq = toDevice(std::vector<double>(blast.q.data(), blast.q.data() + size));
  const auto dGeometry = toDevice(blast.geometry);
  const auto dFaces = toDevice(refluxFaces);
  const auto update = [&](const int* faces) {
    auto out = toDevice(std::vector<double>(size, 0.0));
    auto lambda = toDevice(std::vector<double>(count, 0.0));
    auto fluxes = toDevice(std::vector<double>(count * registers.patchStride(), std::nan("")));
    fusedUpdateDevice(pde, scheme, layout, dGeometry.data(), patches, dq.data(), out.data(),
                      StageWeights{dt}, lambda.data(), fluxes.data(), nullptr, nullptr, nullptr,
                      nullptr, faces);
    return std::tuple{toHost(out), toHost(lambda), toHost(fluxes)};
  };
  const auto [out, lambda, fluxes] = update(nullptr);
  const auto [leftOut, leftLambda, leftFluxes] = update(dFaces.data());
  EXPECT_EQ(leftOut, out);
  for (int p = 0; p < patches; ++p)
    for (int face = 0; face < 2 * Dim; ++face) {
      const bool registered = registersFace(refluxFaces[std::size_t(p)], face);
      for (int v = 0; v < Dim + 2; ++v)
        for (int t = 0; t < registers.faceCells(); ++t) {
          const std::size_t at = registers.index(p, face / 2, face % 2, v, t);
          ASSERT_FALSE(std::isnan(fluxes[at])) << "every face without a plan";
          if (registered)
            ASSERT_EQ(leftFluxes[at], fluxes[at]) << "patch " << p << " face " << face;
          else
            ASSERT_TRUE(std::isnan(leftFluxes[at])) << "patch " << p << " face " << face;
        }
    }
  int smaller = 0;
  for (int p = 0; p < patches; ++p) {
    double expected = 0.0;
    for (int n = 0; n < layout.interiorCells(); ++n) {
      const CellIndex<Dim> c = layout.interiorCell(n);
      if (refluxFaces[std::size_t(p)] & faceLayersOf(c, N))
        continue;
      typename Euler<Dim>::State s;
      for (int v = 0; v < Dim + 2; ++v)
        s[v] = hostOut[layout.index(p, v, c)];
      expected = std::max(expected, detail::maxEigenvalueAllAxes(pde, s));
    }
    EXPECT_NEAR(leftLambda[std::size_t(p)], expected, 1e-12 * expected) << "patch " << p;
    EXPECT_NEAR(lambda[std::size_t(p)], hostLambda[std::size_t(p)],
                1e-12 * hostLambda[std::size_t(p)]);
    smaller += leftLambda[std::size_t(p)] < lambda[std::size_t(p)];
  }
  EXPECT_GT(smaller, 0) << "some patch's fastest cell must lie in a layer left out";
}

TEST(SolverDevice, UpdateEigenvaluesLeaveRefluxedLayersOut) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  for (const auto& [N, halo] : kFlagLayouts) {
    SCOPED_TRACE(N);
    expectEigenvaluesLeaveRefluxedLayersOut<2>(N, halo, SpatialScheme{});
    expectEigenvaluesLeaveRefluxedLayersOut<2>(N, 2, kPlmHllc);
    expectEigenvaluesLeaveRefluxedLayersOut<3>(N, halo, SpatialScheme{});
    expectEigenvaluesLeaveRefluxedLayersOut<3>(N, 2, kPlmHllc);
  }
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
  // Work given to run beside the reduction runs before dt comes back; device work it launches may
  // write what the reduction read (it follows the reduction on the stream).
  bool ranBeside = false;
  const double dt = timeStep(0.3, dLambda.data(), dGeometry.data(), grid.numPatches(), [&] {
    ranBeside = true;
    dLambda.copyFromHost(std::vector<double>(lambda.size(), 1e-30));
  });
  EXPECT_TRUE(ranBeside);
  EXPECT_EQ(dt, stableTimeStep<3>(0.3, lambda, std::span<const PatchGeometry<3>>(geometry)));
}

} // namespace
} // namespace tessera
