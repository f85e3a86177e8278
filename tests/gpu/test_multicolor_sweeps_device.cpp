// The device multicolor sweeps (and the device LU of D) against the host sweeps on a mixed mesh
// (with partition-boundary rows) and on rows longer than a warp: the same system, a few sweeps,
// equal to 1e-12 relative with fp64 and 1e-6 with mixed precision (the lanes sum the products in
// another order, and fp32 dQ rounds a last bit differently). Every lane mapping this build's warp
// width has is checked. Skipped where no device is visible.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <gtest/gtest.h>
#include <vector>

#include "engine/linalg/multicolor_sweeps.hpp"
#include "engine/linalg/multicolor_sweeps_device.hpp"
#include "engine/linalg/precision.hpp"
#include "engine/memory.hpp"
#include "tests/support/mixed_box_mesh.hpp"
#include "tests/support/random_block_system.hpp"

namespace tessera {
namespace {

using linalg::DoublePrecision;
using linalg::MixedPrecision;
using linalg::SweepMapping;

constexpr int kSweeps = 4;

// The mixed mesh's face adjacency, every third cell marked as a partition-boundary cell so that
// each color runs as two launches.
linalg::BlockPattern mixedMeshPattern() {
  const unstructured::Mesh mesh = test::mixedBoxMesh({.nx = 12, .ny = 10, .nz = 8});
  std::vector<bool> boundary(std::size_t(mesh.numCells()), false);
  for (std::size_t cell = 0; cell < boundary.size(); cell += 3)
    boundary[cell] = true;
  return linalg::colorContiguousCells(mesh, boundary).pattern;
}

// Rows longer than a warp's lanes: color 0 holds row 0, adjacent to all 40 rows of color 1 (2 to
// 41), and row 1, adjacent to rows 2 to 4; so the columns of row 0 come in two loads of lanes, and
// a wavefront of two rows has rows of 40 and 3 blocks.
linalg::BlockPattern twoHubsPattern() {
  constexpr int kSpokes = 40;
  linalg::BlockPattern p;
  auto addRow = [&p](std::vector<int> columns) {
    p.columns.insert(p.columns.end(), columns.begin(), columns.end());
    p.rowOffsets.push_back(int(p.columns.size()));
  };
  std::vector<int> spokes(kSpokes);
  for (int i = 0; i < kSpokes; ++i)
    spokes[std::size_t(i)] = 2 + i;
  addRow(spokes);
  addRow({2, 3, 4});
  for (int row = 2; row < 2 + kSpokes; ++row)
    addRow(row <= 4 ? std::vector<int>{0, 1} : std::vector<int>{0});
  p.colorOffsets = {0, 2, 2 + kSpokes};
  p.boundaryRowsPerColor = {0, 0};
  return p;
}

template <int NB, class Precision, SweepMapping Mapping>
double deviceAgainstHost(const linalg::BlockPattern& pattern) {
  using Update = typename Precision::Update;
  const auto system = test::randomBlockSystem<NB>(pattern, 0.5, 3 + NB);

  auto host = system.template matrix<Precision>(MemorySpace::Host);
  host.factorizeDiagonal();
  std::vector<Update> expected(system.rhs.size());
  linalg::multicolorSweeps(host, system.rhs.data(), expected.data(), kSweeps);

  auto device = system.template matrix<Precision>(MemorySpace::Device);
  device.factorizeDiagonal();
  const DeviceArray<double> rhs = toDevice(system.rhs);
  DeviceArray<Update> dq(system.rhs.size(), MemorySpace::Device);
  // The default mapping through the public entry point, which must take the device path.
  if constexpr (Mapping == linalg::kDefaultSweepMapping)
    linalg::multicolorSweeps(device, rhs.data(), dq.data(), kSweeps);
  else
    linalg::multicolorSweepsDevice<NB, Precision, Mapping>(device, rhs.data(), dq.data(), kSweeps);
  std::vector<Update> actual(expected.size());
  dq.copyToHost(actual);

  double difference = 0.0, largest = 0.0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    difference = std::max(difference, std::abs(double(actual[i]) - double(expected[i])));
    largest = std::max(largest, std::abs(double(expected[i])));
  }
  return difference / largest;
}

template <SweepMapping Mapping>
void expectDeviceMatchesHost() {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  for (const linalg::BlockPattern& pattern : {mixedMeshPattern(), twoHubsPattern()}) {
    SCOPED_TRACE(pattern.numRows() == 42 ? "two hubs" : "mixed mesh");
    EXPECT_LE((deviceAgainstHost<5, DoublePrecision, Mapping>(pattern)), 1e-12);
    EXPECT_LE((deviceAgainstHost<3, DoublePrecision, Mapping>(pattern)), 1e-12);
    EXPECT_LE((deviceAgainstHost<5, MixedPrecision, Mapping>(pattern)), 1e-6);
    EXPECT_LE((deviceAgainstHost<4, MixedPrecision, Mapping>(pattern)), 1e-6);
  }
}

#if TESSERA_WARP_SIZE == 32
TEST(MulticolorSweepsDevice, OneRowPerWarpMatchesHost) {
  expectDeviceMatchesHost<SweepMapping::OneRowOneBlock>();
}
#else
TEST(MulticolorSweepsDevice, OneRowTwoBlocksPerWavefrontMatchesHost) {
  expectDeviceMatchesHost<SweepMapping::OneRowTwoBlocks>();
}
TEST(MulticolorSweepsDevice, TwoRowsPerWavefrontMatchesHost) {
  expectDeviceMatchesHost<SweepMapping::TwoRowsOneBlock>();
}
#endif

} // namespace
} // namespace tessera
