#pragma once
// The patch at each (level, position) of a set of placed patches, for building plans. A hash
// table: the plans look up every neighbour of every patch after each adapt (an ordered map made
// the plans of 3500 patches take milliseconds).
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "patches/halo_plan.hpp"

namespace tessera {

template <int Dim>
class PlacementIndex {
public:
  explicit PlacementIndex(std::span<const PatchPlacement<Dim>> patches) {
    index_.reserve(patches.size());
    for (std::size_t p = 0; p < patches.size(); ++p)
      if (!index_.emplace(key(patches[p].level, patches[p].index), int(p)).second)
        throw std::invalid_argument("halo plan: two patches at one place");
  }
  int at(int level, Vec<int, Dim> position) const {
    for (int a = 0; a < Dim; ++a)
      if (position[a] < 0 || position[a] >= kLimit)
        return -1;
    const auto it = index_.find(key(level, position));
    return it == index_.end() ? -1 : it->second;
  }

private:
  // Level and position packed into one integer: positions below 2^20 per axis in 3D (2^28 in
  // 2D), far beyond any forest that fits in memory.
  static constexpr int kBits = Dim == 2 ? 28 : 20;
  static constexpr int kLimit = 1 << kBits;

  static std::uint64_t key(int level, Vec<int, Dim> position) {
    if (level < 0 || level >= 1 << (64 - Dim * kBits))
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
  std::unordered_map<std::uint64_t, int> index_;
};

} // namespace tessera
