// The values of ghost patches that a rank's plans read (patches/ghost_reads.hpp), against reads
// worked out by hand on two patches side by side along x, patch 0 owned and patch 1 the ghost:
// - same level, halo 1: patch 0's upper-x halo column reads the ghost's first column of cells;
// - the ghost one level finer (two ghosts, the children along y of patch 0's neighbour): each
//   ghost gives the mean of its first two columns;
// - refluxing from a finer ghost reads the ghost's lower-x face, every variable and face cell.
#include <algorithm>
#include <gtest/gtest.h>
#include <set>
#include <vector>

#include "patches/ghost_reads.hpp"

namespace tessera {
namespace {

constexpr int kN = 4;
const PatchLayout<2> kLayout{kN, 1, 2};

// Offsets of the cells (x, y) for x in xs and every y.
std::vector<int> columns(std::set<int> xs) {
  std::vector<int> offsets;
  for (int y = 0; y < kN; ++y)
    for (int x : xs)
      offsets.push_back(kLayout.cellOffset({{x, y}}));
  std::sort(offsets.begin(), offsets.end());
  return offsets;
}

TEST(GhostReads, SameLevelNeighbourGivesItsFirstColumn) {
  const std::vector<PatchPlacement<2>> patches{{0, {{0, 0}}}, {0, {{1, 0}}}};
  const auto plan = buildHaloPlan<2>(kLayout, patches, {{2, 1}},
                                     DomainBoundary<2>::all(BoundaryKind::Outflow), 1);
  const auto reads = haloPlanReads(plan, kLayout, 1, 1);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0], columns({0}));
}

TEST(GhostReads, FinerNeighboursGiveTheirFirstTwoColumns) {
  // Patch 0 on level 0 at x = 0; its x neighbour refined: the two level-1 children at x = 2 that
  // touch it, then the two at x = 3 (not touching patch 0) to tile the domain.
  const std::vector<PatchPlacement<2>> patches{
      {0, {{0, 0}}}, {1, {{2, 0}}}, {1, {{2, 1}}}, {1, {{3, 0}}}, {1, {{3, 1}}}};
  const auto plan = buildHaloPlan<2>(kLayout, patches, {{2, 1}},
                                     DomainBoundary<2>::all(BoundaryKind::Outflow), 1);
  const auto reads = haloPlanReads(plan, kLayout, 1, 4);
  ASSERT_EQ(reads.size(), 4u);
  EXPECT_EQ(reads[0], columns({0, 1}));
  EXPECT_EQ(reads[1], columns({0, 1}));
  EXPECT_TRUE(reads[2].empty());
  EXPECT_TRUE(reads[3].empty());

  const auto reflux =
      buildRefluxPlan<2>(patches, {{2, 1}}, DomainBoundary<2>::all(BoundaryKind::Outflow), 1);
  const auto fluxReads = refluxPlanReads<2>(reflux, kLayout, 1, 4);
  const FluxRegisterLayout<2> registers{kN, kLayout.numVars};
  std::vector<int> lowerXFace;
  for (int v = 0; v < kLayout.numVars; ++v)
    for (int t = 0; t < kN; ++t)
      lowerXFace.push_back(int(registers.index(0, 0, 0, v, t)));
  EXPECT_EQ(fluxReads[0], lowerXFace);
  EXPECT_EQ(fluxReads[1], lowerXFace);
  EXPECT_TRUE(fluxReads[2].empty());
  EXPECT_TRUE(fluxReads[3].empty());
}

} // namespace
} // namespace tessera
