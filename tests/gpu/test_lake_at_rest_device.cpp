// A system of a user's own with a source on the device: examples/user_system's shallow water over
// LeVeque's bump (b = 0.8 exp(-5 (x - 0.9)^2 - 50 (y - 0.5)^2) on [0, 2] x [0, 1], surface flat at
// 1, walls), its kernels from its own .cu (shallow_water_kernels.cu), well balanced about the
// lake: after 1,000 steps every velocity and the surface stay within 1e-12, on a uniform grid and
// on three levels regridding every 4 steps; and the same run on the host agrees to 1e-12.
// Skipped where no device is visible.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

#include "examples/user_system/lake_over_bump.hpp"

namespace tessera {
namespace {

// The lake's departure after 1,000 steps, and the state on the host.
struct LakeAfter {
  lake_over_bump::Departure moved;
  PatchStore<2> state{PatchLayout<2>{8, 2, 3}, 0, MemorySpace::Host};
};

LakeAfter lakeAfter1000Steps(int maxLevel, MemorySpace space) {
  auto amr = lake_over_bump::solver(maxLevel, space, true);
  for (int s = 0; s < 1000; ++s)
    amr.advance(amr.solver().stableDt());
  EXPECT_EQ(amr.finestLevel(), maxLevel);
  LakeAfter after;
  after.moved = lake_over_bump::departure(amr);
  const PatchStore<2>& state = amr.solver().hostState();
  after.state = PatchStore<2>(state.layout(), amr.solver().numPatches(), MemorySpace::Host);
  after.state.copyPatchesFrom(state, amr.solver().numPatches());
  return after;
}

void expectLakeAtRestOnDevice(int maxLevel) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  const LakeAfter device = lakeAfter1000Steps(maxLevel, MemorySpace::Device);
  EXPECT_LE(device.moved.speed, 1e-12);
  EXPECT_LE(device.moved.surface, 1e-12);
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
