// The sizes device allocations take from the pool: small ones as asked; from 1 MiB up one of four
// sizes a doubling, never less than asked and at most a quarter more, the same size for requests a
// few percent apart (a regrid's new state reuses the store the last one freed).
#include <cstddef>
#include <gtest/gtest.h>

#include "engine/memory.hpp"

namespace tessera {
namespace {

TEST(PooledAllocation, LargeRequestsTakeOneOfFourSizesADoubling) {
  constexpr std::size_t kMiB = std::size_t(1) << 20;
  EXPECT_EQ(pooledAllocationBytes(0), 0u);
  EXPECT_EQ(pooledAllocationBytes(1000), 1000u);
  EXPECT_EQ(pooledAllocationBytes(kMiB - 8), kMiB - 8);
  EXPECT_EQ(pooledAllocationBytes(kMiB), kMiB);
  EXPECT_EQ(pooledAllocationBytes(kMiB + 1), kMiB + kMiB / 4);
  EXPECT_EQ(pooledAllocationBytes(1500 * kMiB), 1536 * kMiB); // 1.5 GiB
  EXPECT_EQ(pooledAllocationBytes(1600 * kMiB), 1792 * kMiB); // 1.75 GiB
  for (std::size_t bytes = kMiB; bytes < (std::size_t(64) << 30); bytes = bytes * 21 / 20 + 7) {
    const std::size_t pooled = pooledAllocationBytes(bytes);
    ASSERT_GE(pooled, bytes);
    ASSERT_LE(pooled, bytes + bytes / 4) << bytes;
  }
  // A state 6% larger than the last one, in the lower part of its size: the same pool block.
  EXPECT_EQ(pooledAllocationBytes(1100 * kMiB), pooledAllocationBytes(1166 * kMiB));
}

} // namespace
} // namespace tessera
