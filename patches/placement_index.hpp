#pragma once
// The patch at each (level, position) of a set of placed patches, for building plans: the plans
// look up every neighbour of every patch after each adapt. An open-addressing table of
// (key, patch) pairs, at most half full: a lookup is a probe or two in one contiguous array (an
// ordered map made the plans of 3500 patches take milliseconds; a node-based hash table cost a
// cache miss a lookup, 10% of the halo plan of 8000 patches).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "patches/halo_plan.hpp"

namespace tessera {

template <int Dim>
class PlacementIndex {
public:
  explicit PlacementIndex(std::span<const PatchPlacement<Dim>> patches)
      : slots_(std::bit_ceil(2 * patches.size() + 2)), mask_(slots_.size() - 1) {
    for (std::size_t p = 0; p < patches.size(); ++p) {
      const std::uint64_t k = key(patches[p].level, patches[p].index);
      std::size_t s = home(k);
      while (slots_[s].key != kEmpty && slots_[s].key != k)
        s = (s + 1) & mask_;
      if (slots_[s].key == k)
        throw std::invalid_argument("halo plan: two patches at one place");
      slots_[s] = {k, int(p)};
    }
  }
  int at(int level, Vec<int, Dim> position) const {
    for (int a = 0; a < Dim; ++a)
      if (position[a] < 0 || position[a] >= kLimit)
        return -1;
    const std::uint64_t k = key(level, position);
    for (std::size_t s = home(k);; s = (s + 1) & mask_) {
      if (slots_[s].key == k)
        return slots_[s].patch;
      if (slots_[s].key == kEmpty)
        return -1;
    }
  }

private:
  // Level and position packed into one integer: positions below 2^20 per axis in 3D (2^28 in
  // 2D), far beyond any forest that fits in memory. No level reaches the top bits' all-ones.
  static constexpr int kBits = Dim == 2 ? 28 : 20;
  static constexpr int kLimit = 1 << kBits;
  static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);

  static std::uint64_t key(int level, Vec<int, Dim> position) {
    if (level < 0 || level >= (1 << (64 - Dim * kBits)) - 1)
      throw std::invalid_argument("placement index: level " + std::to_string(level) +
                                  " out of range");
    std::uint64_t k = std::uint64_t(level);
    for (int a = 0; a < Dim; ++a) {
      if (position[a] < 0 || position[a] >= kLimit)
        throw std::invalid_argument("placement index: position out of range");
      k = (k << kBits) | std::uint64_t(position[a]);
    }
    return k;
  }
  // Fibonacci hashing: the packed keys of neighbours differ in a few low bits of each field, and
  // the multiply spreads them over the table's top bits.
  std::size_t home(std::uint64_t k) const {
    return std::size_t((k * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
  }

  struct Slot {
    std::uint64_t key = kEmpty;
    int patch = -1;
  };
  std::vector<Slot> slots_;
  std::size_t mask_;
};

} // namespace tessera
