// The device multicolor sweeps (and the device LU of D) against the host sweeps on a mixed mesh:
// the same system, a few sweeps, equal to 1e-12 relative with fp64 and 1e-6 with mixed precision
// (the lanes sum the products in another order, and fp32 dQ rounds a last bit differently). Every
// lane mapping this build's warp width has is checked. Skipped where no device is visible.
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

template <int NB, class Precision, SweepMapping Mapping>
double deviceAgainstHost() {
  using Update = typename Precision::Update;
  const linalg::BlockPattern pattern =
      linalg::colorContiguousCells(test::mixedBoxMesh({.nx = 12, .ny = 10, .nz = 8})).pattern;
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
  const double fp64Nb5 = deviceAgainstHost<5, DoublePrecision, Mapping>();
  const double fp64Nb3 = deviceAgainstHost<3, DoublePrecision, Mapping>();
  const double mixedNb5 = deviceAgainstHost<5, MixedPrecision, Mapping>();
  const double mixedNb4 = deviceAgainstHost<4, MixedPrecision, Mapping>();
  EXPECT_LE(fp64Nb5, 1e-12);
  EXPECT_LE(fp64Nb3, 1e-12);
  EXPECT_LE(mixedNb5, 1e-6);
  EXPECT_LE(mixedNb4, 1e-6);
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
