// A system of a user's own with a source on the device: examples/user_system's shallow water over
// LeVeque's bump (b = 0.8 exp(-5 (x - 0.9)^2 - 50 (y - 0.5)^2) on [0, 2] x [0, 1], surface flat at
// 1, walls), its kernels from its own .cu (shallow_water_kernels.cu), well balanced about the
// lake: after 1,000 steps every velocity and the surface stay within 1e-12, on a uniform grid and
// on three levels regridding every 4 steps; and the same run on the host agrees to 1e-12.
// Skipped where no device is visible.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

#include "drivers/amr_solver.hpp"
#include "examples/user_system/shallow_water.hpp"

namespace tessera {
namespace {

using Water = ShallowWater<2>;

Water bumpyBed() {
  Water water;
  water.bumpHeight = 0.8;
  water.bumpCentre = {{0.9, 0.5}};
  water.bumpWidth = {{1.0 / std::sqrt(5.0), 1.0 / std::sqrt(50.0)}};
  return water;
}

// The largest |velocity| and |h + b - 1| of a state, and the state itself on the host.
struct LakeAfter {
  double speed = 0.0, surface = 0.0;
  PatchStore<2> state{PatchLayout<2>{8, 2, 3}, 0, MemorySpace::Host};
};

LakeAfter lakeAfter1000Steps(int maxLevel, MemorySpace space) {
  const Water water = bumpyBed();
  const auto lake = [water](const Vec<double, 2>& x) {
    return water.toConserved({{1.0 - water.bed(x), 0.0, 0.0}});
  };
  AmrSettings settings;
  settings.maxLevel = maxLevel;
  amr::IndicatorCriterion criterion{amr::Indicator::Gradient, 0, true, 0.02, 0.01};
  const PatchScheme scheme{{ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hlle},
                           kSspRk2};
  AmrSolver<Water> amr(MPI_COMM_WORLD, water, PatchLayout<2>{8, 2, 3}, {{8, 4}}, {{0.0, 0.0}},
                       {{2.0, 1.0}}, DomainBoundary<2>::all(BoundaryKind::Reflecting), settings,
                       criterion, 0.4, space, scheme);
  amr.initialise([&](const auto&, const auto&) { return lake; });
  amr.solver().setEquilibrium(lake);
  for (int s = 0; s < 1000; ++s)
    amr.advance(amr.solver().stableDt());
  EXPECT_EQ(amr.finestLevel(), maxLevel);
  LakeAfter after;
  const PatchStore<2>& state = amr.solver().hostState();
  after.state = PatchStore<2>(state.layout(), amr.solver().numPatches(), MemorySpace::Host);
  after.state.copyPatchesFrom(state, amr.solver().numPatches());
  const PatchLayout<2>& layout = after.state.layout();
  for (int p = 0; p < after.state.numPatches(); ++p)
    for (int n = 0; n < layout.interiorCells(); ++n) {
      const CellIndex<2> c = layout.interiorCell(n);
      const auto& g = amr.solver().geometry()[std::size_t(p)];
      const Vec<double, 2> x{{g.cellCenter(0, c[0]), g.cellCenter(1, c[1])}};
      const double h = after.state.at(p, 0, c);
      after.speed = std::max({after.speed, std::fabs(after.state.at(p, 1, c) / h),
                              std::fabs(after.state.at(p, 2, c) / h)});
      after.surface = std::max(after.surface, std::fabs(h + water.bed(x) - 1.0));
    }
  return after;
}

void expectLakeAtRestOnDevice(int maxLevel) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  const LakeAfter device = lakeAfter1000Steps(maxLevel, MemorySpace::Device);
  EXPECT_LE(device.speed, 1e-12);
  EXPECT_LE(device.surface, 1e-12);
  const LakeAfter host = lakeAfter1000Steps(maxLevel, MemorySpace::Host);
  ASSERT_EQ(host.state.numPatches(), device.state.numPatches());
  double worst = 0.0;
  const PatchLayout<2>& layout = host.state.layout();
  for (int p = 0; p < host.state.numPatches(); ++p)
    for (int n = 0; n < layout.interiorCells(); ++n)
      for (int v = 0; v < 3; ++v) {
        const CellIndex<2> c = layout.interiorCell(n);
        worst = std::max(worst, std::fabs(host.state.at(p, v, c) - device.state.at(p, v, c)));
      }
  EXPECT_LE(worst, 1e-12); // depths are at most 1
}

TEST(LakeAtRestOnDevice, UniformGridFor1000Steps) {
  expectLakeAtRestOnDevice(0);
}
TEST(LakeAtRestOnDevice, ThreeLevelsFor1000Steps) {
  expectLakeAtRestOnDevice(2);
}

} // namespace
} // namespace tessera
