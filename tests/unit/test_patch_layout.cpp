// SoA index math of PatchLayout against the layout written out by hand.
#include <gtest/gtest.h>
#include <set>

#include "patches/patch_layout.hpp"
#include "patches/uniform_patch_grid.hpp"

namespace tessera {
namespace {

TEST(PatchLayout, Index2DMatchesHandWrittenFormula) {
  const PatchLayout<2> layout{/*cellsPerAxis=*/8, /*halo=*/2, /*numVars=*/4};
  const int e = 12; // 8 + 2 * 2
  EXPECT_EQ(layout.extent(), e);
  EXPECT_EQ(layout.cellsWithHalo(), e * e);
  EXPECT_EQ(layout.interiorCells(), 64);
  EXPECT_EQ(layout.patchStride(), std::size_t(4 * e * e));
  EXPECT_EQ(layout.axisStride(0), 1);
  EXPECT_EQ(layout.axisStride(1), e);
  // Q[patch][var][y][x] with halo: x = i + h, y = j + h.
  EXPECT_EQ(layout.index(3, 2, {{-2, -2}}), std::size_t(3 * 4 * e * e + 2 * e * e));
  EXPECT_EQ(layout.index(0, 1, {{5, 7}}), std::size_t(1 * e * e + (7 + 2) * e + (5 + 2)));
  EXPECT_EQ(layout.index(1, 3, {{9, 9}}), std::size_t((4 + 3) * e * e + 11 * e + 11));
}

TEST(PatchLayout, Index3DMatchesHandWrittenFormula) {
  const PatchLayout<3> layout{4, 1, 5};
  const int e = 6;
  EXPECT_EQ(layout.cellsWithHalo(), e * e * e);
  EXPECT_EQ(layout.axisStride(2), e * e);
  EXPECT_EQ(layout.index(2, 4, {{1, 2, 3}}),
            std::size_t(2 * 5 * e * e * e + 4 * e * e * e + (3 + 1) * e * e + (2 + 1) * e + 2));
}

TEST(PatchLayout, EveryCellOfEveryVariableHasItsOwnIndex) {
  const PatchLayout<3> layout{4, 2, 3};
  std::set<std::size_t> seen;
  const int h = layout.halo, n = layout.cellsPerAxis;
  for (int p = 0; p < 2; ++p)
    for (int v = 0; v < layout.numVars; ++v)
      for (int k = -h; k < n + h; ++k)
        for (int j = -h; j < n + h; ++j)
          for (int i = -h; i < n + h; ++i)
            EXPECT_TRUE(seen.insert(layout.index(p, v, {{i, j, k}})).second);
  EXPECT_EQ(seen.size(), 2 * layout.patchStride());
  EXPECT_EQ(*seen.rbegin(), 2 * layout.patchStride() - 1); // dense: no gaps
}

TEST(PatchLayout, InteriorCellNumberingIsXFastest) {
  const PatchLayout<3> layout{4, 1, 1};
  for (int n = 0; n < layout.interiorCells(); ++n) {
    const CellIndex<3> c = layout.interiorCell(n);
    EXPECT_EQ(c[0] + 4 * (c[1] + 4 * c[2]), n);
  }
}

TEST(UniformPatchGrid, PatchCoordinatesAndGeometry) {
  const UniformPatchGrid<2> grid(PatchLayout<2>{8, 1, 4}, {{4, 2}}, {{-1.0, 0.0}}, {{1.0, 0.5}});
  EXPECT_EQ(grid.numPatches(), 8);
  EXPECT_EQ(grid.numCells(), 8 * 64);
  for (int p = 0; p < grid.numPatches(); ++p)
    EXPECT_EQ(grid.patchIndex(grid.patchCoords(p)), p);
  const auto g = grid.geometry(grid.patchIndex({{3, 1}}));
  EXPECT_DOUBLE_EQ(g.dx[0], 2.0 / 32);
  EXPECT_DOUBLE_EQ(g.dx[1], 0.5 / 16);
  EXPECT_DOUBLE_EQ(g.origin[0], -1.0 + 3 * 8 * (2.0 / 32));
  EXPECT_DOUBLE_EQ(g.origin[1], 0.25);
  EXPECT_DOUBLE_EQ(g.cellCenter(0, 7), 1.0 - 0.5 * (2.0 / 32));
}

TEST(UniformPatchGrid, RejectsEmptyOrInvertedDomains) {
  EXPECT_THROW(UniformPatchGrid<2>(PatchLayout<2>{8, 1, 4}, {{0, 2}}, {{0, 0}}, {{1, 1}}),
               std::invalid_argument);
  EXPECT_THROW(UniformPatchGrid<2>(PatchLayout<2>{8, 1, 4}, {{1, 2}}, {{0, 1}}, {{1, 1}}),
               std::invalid_argument);
  EXPECT_THROW(UniformPatchGrid<2>(PatchLayout<2>{1, 2, 4}, {{1, 1}}, {{0, 0}}, {{1, 1}}),
               std::invalid_argument);
}

} // namespace
} // namespace tessera
