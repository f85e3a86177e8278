// The device fused Rusanov update against its host twin, on 2D patch grids of N = 8, 16 and 32:
// every interior cell of the new state (poisoned before the run) and every patch's eigenvalue
// agree to 1e-12 relative. Skipped where no device is visible.
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

#include "engine/device_array.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_store.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "solvers/initial_conditions.hpp"
#include "solvers/rusanov_update_device.hpp"
#include "solvers/rusanov_update_host.hpp"

namespace tessera {
namespace {

template <class PDE, class Initial>
void expectDeviceMatchesHost(const PDE& pde, const Initial& ic, int n) {
  const UniformPatchGrid<2> grid(PatchLayout<2>{n, 1, PDE::kNumVars}, {{7, 5}}, {{0, 0}},
                                 {{1.4, 1.0}});
  const auto& layout = grid.layout();
  const auto geometry = grid.geometries();
  PatchStore<2> q(layout, grid.numPatches(), MemorySpace::Host);
  for (int p = 0; p < grid.numPatches(); ++p)
    for (int c = 0; c < layout.interiorCells(); ++c) {
      const CellIndex<2> cell = layout.interiorCell(c);
      const auto state =
          ic({{geometry[p].cellCenter(0, cell[0]), geometry[p].cellCenter(1, cell[1])}});
      for (int v = 0; v < PDE::kNumVars; ++v)
        q.at(p, v, cell) = state[v];
    }
  ReflectionParity parity(2 * PDE::kNumVars);
  for (int a = 0; a < 2; ++a)
    for (int v = 0; v < PDE::kNumVars; ++v)
      parity[a * PDE::kNumVars + v] = PDE::reflectionParity(v, a);
  DomainBoundary<2> boundary = DomainBoundary<2>::all(BoundaryKind::Reflecting);
  boundary.kind[1] = {BoundaryKind::Periodic, BoundaryKind::Periodic};
  fillHalos(buildUniformHaloPlan(grid, boundary), layout, parity, q.data());

  const double dt = 0.2 * geometry[0].dx[0];
  std::vector<double> hostNew(q.array().size(), 0.0), hostLambda(grid.numPatches());
  rusanovUpdateHost(pde, layout, std::span<const PatchGeometry<2>>(geometry), q.data(),
                    hostNew.data(), dt, hostLambda.data());

  DeviceArray<double> dq(q.array().size(), MemorySpace::Device);
  DeviceArray<double> dNew(q.array().size(), MemorySpace::Device);
  DeviceArray<double> dLambda(grid.numPatches(), MemorySpace::Device);
  DeviceArray<PatchGeometry<2>> dGeometry(geometry.size(), MemorySpace::Device);
  dq.copyFrom(q.array());
  dNew.copyFromHost(std::vector<double>(q.array().size(), std::nan(""))); // poison
  dGeometry.copyFromHost(geometry);
  rusanovUpdateDevice(pde, layout, dGeometry.data(), grid.numPatches(), dq.data(), dNew.data(), dt,
                      dLambda.data());
  std::vector<double> deviceNew(q.array().size()), deviceLambda(grid.numPatches());
  dNew.copyToHost(deviceNew);
  dLambda.copyToHost(deviceLambda);

  for (int p = 0; p < grid.numPatches(); ++p) {
    EXPECT_NEAR(deviceLambda[p], hostLambda[p], 1e-12 * hostLambda[p]) << "patch " << p;
    for (int v = 0; v < PDE::kNumVars; ++v)
      for (int c = 0; c < layout.interiorCells(); ++c) {
        const std::size_t i = layout.index(p, v, layout.interiorCell(c));
        ASSERT_NEAR(deviceNew[i], hostNew[i], 1e-12 * (std::fabs(hostNew[i]) + 1e-300))
            << "N " << n << " patch " << p << " var " << v << " cell " << c;
      }
  }
}

class FusedUpdateDevice : public ::testing::TestWithParam<int> {
protected:
  void SetUp() override {
    if (!deviceAvailable())
      GTEST_SKIP() << "no GPU visible";
  }
};

TEST_P(FusedUpdateDevice, EulerMatchesTheHostTwin) {
  EulerPulse<2> ic;
  ic.pulse.centre = {{0.6, 0.4}};
  ic.pulse.width = 0.2;
  ic.velocity = {{0.8, -0.3}};
  expectDeviceMatchesHost(ic.pde, ic, GetParam());
}

TEST_P(FusedUpdateDevice, AdvectionMatchesTheHostTwin) {
  Advection<2> pde;
  pde.velocity = {{1.0, -0.5}};
  expectDeviceMatchesHost(pde, ScalarPulse<2>{{{{0.6, 0.4}}, 0.2, 1.0, 0.5}}, GetParam());
}

INSTANTIATE_TEST_SUITE_P(PatchSizes, FusedUpdateDevice, ::testing::Values(8, 16, 32));

} // namespace
} // namespace tessera
