#pragma once
// The strategies of the atomic-strategy library for "add K values per face to each of its two
// cells" (seed 000). All of them compute the same sums; they differ in how the additions reach
// memory, and which one is fastest depends on K, the mesh ordering and the device.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::atomics {

enum class Strategy : std::uint8_t {
  GlobalAtomic,          // each face's thread adds its 2K values with global atomics
  SmemTranspose,         // AoS -> SoA through shared memory, then unit-stride atomics (Listing 2)
  WarpAggregateSorted,   // owner side: contiguous equal keys summed by shuffles, leader adds
  WarpAggregateUnsorted, // both sides: partitions from match_any, leader adds
  ShuffleTranspose,      // AoS -> SoA by register shuffles (Listings 3 and 4), unit-stride atomics
  Hybrid,   // owner side sorted aggregation, neighbour side shared-memory transposition
  Coloring, // one launch per face color, plain additions (race-free)
  Gather,   // one thread per cell summing over its faces, plain stores (race-free)
};

// Whether a strategy evaluates each face's contribution exactly once: all but the gather, which
// evaluates every interior face from both of its cells. A contribution that also writes results
// of its own per face (solvers/unstructured/unstructured_face_jacobian.hpp) needs one.
constexpr bool evaluatesEachFaceOnce(Strategy s) {
  return s != Strategy::Gather;
}

inline constexpr std::array kAllStrategies = {Strategy::GlobalAtomic,
                                              Strategy::SmemTranspose,
                                              Strategy::WarpAggregateSorted,
                                              Strategy::WarpAggregateUnsorted,
                                              Strategy::ShuffleTranspose,
                                              Strategy::Hybrid,
                                              Strategy::Coloring,
                                              Strategy::Gather};

// Names as written in input files and logs: "global_atomic", "smem_transpose", ...
std::string_view strategyName(Strategy s);
std::optional<Strategy> parseStrategy(std::string_view name);
// "global_atomic, smem_transpose, ..." for error messages.
std::string_view strategyNameList();

// Register shuffles transpose K values per lane when K is a power of two no larger than the tile
// (Listing 3) or K is odd (Listing 4 with S the inverse of K modulo the tile width; seed 000 calls
// these lengths prime, the algebra needs only gcd(K, L) = 1).
constexpr bool shuffleTransposable(int k, int lanes) {
  const bool powerOfTwo = k > 0 && (k & (k - 1)) == 0;
  return (powerOfTwo && k <= lanes) || (k % 2 == 1);
}
// The error for a K that shuffleTransposable refuses.
std::string unsupportedShuffleMessage(int k);

} // namespace tessera::atomics
