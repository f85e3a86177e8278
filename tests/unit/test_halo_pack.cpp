// The host halo packing (engine/mpi/halo_pack.hpp) against messages and states written
// out by hand: two values per cell, a cell listed twice, and cells left out of the list; and a
// patch's layout, each variable in a block of its own.
#include <gtest/gtest.h>
#include <vector>

#include "engine/mpi/halo_pack.hpp"

namespace tessera::mpi {
namespace {

constexpr int kWidth = 2;

// Cell c holds (10 c, 10 c + 1).
const std::vector<double> kValues = {0, 1, 10, 11, 20, 21, 30, 31};

TEST(HaloPack, PackCopiesTheListedCellsInListOrder) {
  const std::vector<int> cells = {3, 1, 3};
  std::vector<double> packed(cells.size() * kWidth, -1.0);
  packHaloValues(kValues.data(), cells, ItemLayout::itemMajor(kWidth), packed.data());
  EXPECT_EQ(packed, (std::vector<double>{30, 31, 10, 11, 30, 31}));
}

TEST(HaloPack, UnpackOverwritesOnlyTheListedCells) {
  const std::vector<int> cells = {2, 0};
  const std::vector<double> packed = {-1, -2, -3, -4};
  std::vector<double> values = kValues;
  unpackHaloValues(packed.data(), cells, ItemLayout::itemMajor(kWidth), values.data());
  EXPECT_EQ(values, (std::vector<double>{-3, -4, 10, 11, -1, -2, 30, 31}));
}

TEST(HaloPack, UnpackUndoesPack) {
  const std::vector<int> cells = {1, 3};
  std::vector<double> packed(cells.size() * kWidth);
  packHaloValues(kValues.data(), cells, ItemLayout::itemMajor(kWidth), packed.data());
  std::vector<double> values(kValues.size(), 0.0);
  unpackHaloValues(packed.data(), cells, ItemLayout::itemMajor(kWidth), values.data());
  EXPECT_EQ(values, (std::vector<double>{0, 0, 10, 11, 0, 0, 30, 31}));
}

TEST(HaloPack, VariableBlocksGiveEachCellsValuesFromEveryBlock) {
  // Four cells, the first variable's block then the second's: cell c holds (c, 10 + c).
  const std::vector<double> blocks = {0, 1, 2, 3, 10, 11, 12, 13};
  const ItemLayout layout{2, 1, 4};
  const std::vector<int> cells = {3, 1};
  std::vector<double> packed(cells.size() * 2);
  packHaloValues(blocks.data(), cells, layout, packed.data());
  EXPECT_EQ(packed, (std::vector<double>{3, 13, 1, 11}));
  std::vector<double> values(blocks.size(), 0.0);
  unpackHaloValues(packed.data(), cells, layout, values.data());
  EXPECT_EQ(values, (std::vector<double>{0, 1, 0, 3, 0, 11, 0, 13}));
}

TEST(HaloPack, AnEmptyListMovesNothing) {
  std::vector<double> values = kValues;
  double untouched = -1.0;
  packHaloValues(values.data(), {}, ItemLayout::itemMajor(kWidth), &untouched);
  unpackHaloValues(&untouched, {}, ItemLayout::itemMajor(kWidth), values.data());
  EXPECT_EQ(untouched, -1.0);
  EXPECT_EQ(values, kValues);
}

} // namespace
} // namespace tessera::mpi
