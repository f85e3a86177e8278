// The device halo packing against its host twins (engine/mpi/halo_pack.hpp), on a random
// cell list with repeats and 5 values per cell, item-major and in variable blocks (a patch's
// layout): pack and unpack are copies, so the device results equal the host's bitwise. Skipped
// where no device is visible.
#include <cstddef>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "engine/mpi/halo_pack.hpp"
#include "engine/mpi/halo_pack_device.hpp"

namespace tessera::mpi {
namespace {

constexpr int kWidth = 5;
constexpr int kCells = 300;
constexpr std::size_t kListed = 1000; // from kCells cells: many are listed more than once

std::vector<int> randomCells(std::mt19937& random) {
  std::uniform_int_distribution<int> cell(0, kCells - 1);
  std::vector<int> cells(kListed);
  for (int& c : cells)
    c = cell(random);
  return cells;
}

std::vector<double> randomValues(std::mt19937& random, std::size_t count) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> values(count);
  for (double& v : values)
    v = value(random);
  return values;
}

// Each cell's values side by side, and each variable's block of kCells values.
const ItemLayout kLayouts[] = {ItemLayout::itemMajor(kWidth), ItemLayout{kWidth, 1, kCells}};

class HaloPackDevice : public testing::TestWithParam<ItemLayout> {};

TEST_P(HaloPackDevice, PackEqualsTheHostPack) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  const ItemLayout layout = GetParam();
  std::mt19937 random(11);
  const std::vector<int> cells = randomCells(random);
  const std::vector<double> values = randomValues(random, std::size_t(kCells) * kWidth);

  std::vector<double> expected(cells.size() * kWidth);
  packHaloValues(values.data(), cells, layout, expected.data());

  const DeviceArray<int> deviceCells = toDevice(cells);
  const DeviceArray<double> deviceValues = toDevice(values);
  DeviceArray<double> devicePacked(expected.size(), MemorySpace::Device);
  packHaloValuesDevice(deviceValues.data(), deviceCells.data(), int(cells.size()), layout,
                       devicePacked.data());
  std::vector<double> actual(expected.size());
  devicePacked.copyToHost(actual);
  EXPECT_EQ(actual, expected);
}

// The message is packed from other values, so that a repeated cell carries the same values each
// time (unpack's condition); the cells not listed keep theirs.
TEST_P(HaloPackDevice, UnpackEqualsTheHostUnpack) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  const ItemLayout layout = GetParam();
  std::mt19937 random(12);
  const std::vector<int> cells = randomCells(random);
  const std::vector<double> before = randomValues(random, std::size_t(kCells) * kWidth);
  std::vector<double> packed(cells.size() * kWidth);
  packHaloValues(randomValues(random, before.size()).data(), cells, layout, packed.data());

  std::vector<double> expected = before;
  unpackHaloValues(packed.data(), cells, layout, expected.data());

  const DeviceArray<int> deviceCells = toDevice(cells);
  const DeviceArray<double> devicePacked = toDevice(packed);
  DeviceArray<double> deviceValues = toDevice(before);
  unpackHaloValuesDevice(devicePacked.data(), deviceCells.data(), int(cells.size()), layout,
                         deviceValues.data());
  std::vector<double> actual(expected.size());
  deviceValues.copyToHost(actual);
  EXPECT_EQ(actual, expected);
}

INSTANTIATE_TEST_SUITE_P(Layouts, HaloPackDevice, testing::ValuesIn(kLayouts),
                         [](const testing::TestParamInfo<ItemLayout>& layout) {
                           return std::string(layout.param.valueStride == 1 ? "ItemMajor"
                                                                            : "VariableBlocks");
                         });

} // namespace
} // namespace tessera::mpi
