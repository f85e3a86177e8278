// The unfused device Rusanov pipeline (seed 004's separate kernels) against the host twin
// rusanovUpdateHost, on 2D and 3D patch grids of N = 8 and 16, Euler and advection: every interior
// cell of the new state (to 1e-12 of its variable's largest magnitude) and every patch's eigenvalue
// (1e-12 relative; both poisoned with NaN before the run) agree. Skipped where no device is
// visible.
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

#include "engine/device_array.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_store.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "solvers/initial_conditions.hpp"
#include "solvers/patch/rusanov_unfused_device.hpp"
#include "solvers/patch/rusanov_update_host.hpp"
#include "tests/support/filled_grid.hpp"
#include "tests/support/scale_agreement.hpp"

namespace tessera {
namespace {

// Patches per axis: not a power of two and different per axis, so that index mix-ups between
// axes or patches show.
template <int Dim>
Vec<int, Dim> patchesPerAxis() {
  if constexpr (Dim == 2)
    return {{7, 5}};
  else
    return {{3, 2, 4}};
}

template <int Dim>
Vec<double, Dim> domainUpper() {
  if constexpr (Dim == 2)
    return {{1.4, 1.0}};
  else
    return {{1.2, 0.8, 1.0}};
}

template <class PDE, class Initial>
void expectUnfusedMatchesHost(const PDE& pde, const Initial& ic, int n) {
  constexpr int Dim = PDE::kDim;
  // Walls on x (mirrored halos), periodic on the other axes: both kinds of halo reach the faces.
  DomainBoundary<Dim> boundary = DomainBoundary<Dim>::all(BoundaryKind::Periodic);
  boundary.kind[0] = {BoundaryKind::Reflecting, BoundaryKind::Reflecting};
  const test::FilledGrid<Dim> filled(pde, ic, PatchLayout<Dim>{n, 1, PDE::kNumVars},
                                     patchesPerAxis<Dim>(), domainUpper<Dim>(), boundary);
  const auto& grid = filled.grid;
  const auto& layout = grid.layout();
  const auto& geometry = filled.geometry;
  const PatchStore<Dim>& q = filled.q;

  const double dt = 0.2 * geometry[0].minSpacing();
  std::vector<double> hostNew(q.array().size(), 0.0), hostLambda(grid.numPatches());
  rusanovUpdateHost(pde, layout, std::span<const PatchGeometry<Dim>>(geometry), q.data(),
                    hostNew.data(), dt, hostLambda.data());

  DeviceArray<double> dq(q.array().size(), MemorySpace::Device);
  DeviceArray<double> dNew(q.array().size(), MemorySpace::Device);
  DeviceArray<double> dLambda(grid.numPatches(), MemorySpace::Device);
  DeviceArray<PatchGeometry<Dim>> dGeometry(geometry.size(), MemorySpace::Device);
  dq.copyFrom(q.array());
  dNew.copyFromHost(std::vector<double>(q.array().size(), std::nan(""))); // poison
  dLambda.copyFromHost(std::vector<double>(grid.numPatches(), std::nan("")));
  dGeometry.copyFromHost(geometry);
  UnfusedRusanovDevice<PDE> unfused(layout, grid.numPatches());
  unfused.update(pde, dGeometry.data(), dq.data(), dNew.data(), dt, dLambda.data());
  std::vector<double> deviceNew(q.array().size()), deviceLambda(grid.numPatches());
  dNew.copyToHost(deviceNew);
  dLambda.copyToHost(deviceLambda);

  const auto scale = test::variableScales(hostNew, layout, grid.numPatches());
  for (int p = 0; p < grid.numPatches(); ++p) {
    EXPECT_NEAR(deviceLambda[p], hostLambda[p], 1e-12 * hostLambda[p]) << "patch " << p;
    for (int v = 0; v < PDE::kNumVars; ++v)
      for (int c = 0; c < layout.interiorCells(); ++c) {
        const std::size_t i = layout.index(p, v, layout.interiorCell(c));
        ASSERT_TRUE(test::agreeToScale(deviceNew[i], hostNew[i], scale[std::size_t(v)]))
            << "N " << n << " patch " << p << " var " << v << " cell " << c;
      }
  }
}

class UnfusedDevice : public ::testing::TestWithParam<int> {
protected:
  void SetUp() override {
    if (!deviceAvailable())
      GTEST_SKIP() << "no GPU visible";
  }
};

TEST_P(UnfusedDevice, Euler2DMatchesTheHostTwin) {
  EulerPulse<2> ic;
  ic.pulse.centre = {{0.6, 0.4}};
  ic.pulse.width = 0.2;
  ic.velocity = {{0.8, -0.3}};
  expectUnfusedMatchesHost(ic.pde, ic, GetParam());
}

TEST_P(UnfusedDevice, Euler3DMatchesTheHostTwin) {
  EulerPulse<3> ic;
  ic.pulse.centre = {{0.6, 0.4, 0.3}};
  ic.pulse.width = 0.2;
  ic.velocity = {{0.8, -0.3, 0.5}};
  expectUnfusedMatchesHost(ic.pde, ic, GetParam());
}

TEST_P(UnfusedDevice, Advection2DMatchesTheHostTwin) {
  Advection<2> pde;
  pde.velocity = {{1.0, -0.5}};
  expectUnfusedMatchesHost(pde, ScalarPulse<2>{{{{0.6, 0.4}}, 0.2, 1.0, 0.5}}, GetParam());
}

TEST_P(UnfusedDevice, Advection3DMatchesTheHostTwin) {
  Advection<3> pde;
  pde.velocity = {{1.0, -0.5, 0.25}};
  expectUnfusedMatchesHost(pde, ScalarPulse<3>{{{{0.6, 0.4, 0.3}}, 0.2, 1.0, 0.5}}, GetParam());
}

INSTANTIATE_TEST_SUITE_P(PatchSizes, UnfusedDevice, ::testing::Values(8, 16));

} // namespace
} // namespace tessera
