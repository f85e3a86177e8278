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
#include "tests/support/synthetic_contribution.hpp"

namespace tessera::atomics {
namespace {

// The warp (CUDA) or wavefront (HIP) width the device kernels were built for.
constexpr int kWarpSizeOfBuild = TESSERA_WARP_SIZE;

template <int K>
void expectDeviceMatchesReference(const unstructured::Mesh& mesh) {
  const FaceScatterPlan plan(mesh, MemorySpace::Host);
  const std::size_t n = std::size_t(mesh.numCells()) * K;
  std::vector<double> reference(n, 0.0), scale(n, 0.0);
  scatterFacesReference<K>(plan.topology(), test::SyntheticContribution<K>{}, reference.data());
  scatterFacesReference<K>(plan.topology(), test::SyntheticContribution<K>{true}, scale.data());
  for (Strategy s : kAllStrategies) {
    if (s == Strategy::ShuffleTranspose && !shuffleTransposable(K, kWarpSizeOfBuild))
      continue;
    const std::vector<double> result = test::scatterSyntheticOnDevice(mesh, s, K);
    ASSERT_EQ(result.size(), n);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_LE(std::fabs(result[i] - reference[i]), 1e-12 * scale[i])
          << strategyName(s) << " K " << K << " entry " << i;
  }
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
