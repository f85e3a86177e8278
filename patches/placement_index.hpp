#pragma once
// The patch at each (level, position) of a set of placed patches, for building plans.
#include <array>
#include <map>
#include <span>
#include <stdexcept>

#include "patches/halo_plan.hpp"

namespace tessera {

template <int Dim>
class PlacementIndex {
public:
  explicit PlacementIndex(std::span<const PatchPlacement<Dim>> patches) {
    for (std::size_t p = 0; p < patches.size(); ++p)
      if (!index_.emplace(key(patches[p].level, patches[p].index), int(p)).second)
        throw std::invalid_argument("halo plan: two patches at one place");
  }
  int at(int level, Vec<int, Dim> position) const {
    const auto it = index_.find(key(level, position));
    return it == index_.end() ? -1 : it->second;
  }

private:
  static std::array<int, Dim + 1> key(int level, Vec<int, Dim> position) {
    std::array<int, Dim + 1> k{};
    k[0] = level;
    for (int a = 0; a < Dim; ++a)
      k[a + 1] = position[a];
    return k;
  }
  std::map<std::array<int, Dim + 1>, int> index_;
};

} // namespace tessera
