// Every device strategy of the atomic-strategy library against the serial host reference, for the
// residual (K = 5), gradient (15) and Jacobian-block (25) lengths and for 3, 4 and 16 (the prime
// and power-of-two shuffle transpositions), on an RCM-ordered and a randomly ordered mixed mesh.
// fp64 atomics reorder the sums, hence the tolerance relative to the sum of magnitudes.
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

#include "engine/atomics/scatter_host.hpp"
#include "engine/memory.hpp"
#include "tests/gpu/atomics_device_twins.hpp"
#include "tests/support/mixed_box_mesh.hpp"
#include "tests/support/scatter_reference.hpp"

namespace tessera::atomics {
namespace {

// The warp (CUDA) or wavefront (HIP) width the device kernels were built for.
constexpr int kWarpSizeOfBuild = TESSERA_WARP_SIZE;

template <int K>
void expectDeviceMatchesReference(const unstructured::Mesh& mesh) {
  const test::ScatterReference<K> reference(mesh);
  for (Strategy s : kAllStrategies)
    if (s != Strategy::ShuffleTranspose || shuffleTransposable(K, kWarpSizeOfBuild))
      reference.expectMatches(test::scatterSyntheticOnDevice(mesh, s, K), s);
}

void expectAllLengths(bool shuffled) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  const auto mesh = test::mixedBoxMesh(
      {.nx = 12,
       .ny = 10,
       .nz = 8,
       .seed = 11,
       .ordering = shuffled ? test::MeshOrdering::Shuffled : test::MeshOrdering::Rcm});
  expectDeviceMatchesReference<3>(mesh);
  expectDeviceMatchesReference<4>(mesh);
  expectDeviceMatchesReference<5>(mesh);
  expectDeviceMatchesReference<15>(mesh);
  expectDeviceMatchesReference<16>(mesh);
  expectDeviceMatchesReference<25>(mesh);
}

TEST(DeviceStrategies, MatchReferenceOnRcmOrderedMesh) {
  expectAllLengths(false);
}

TEST(DeviceStrategies, MatchReferenceOnShuffledMesh) {
  expectAllLengths(true);
}

} // namespace
} // namespace tessera::atomics
