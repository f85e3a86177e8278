#pragma once
// The leaf next to a patch in one of its neighbour directions, on a 2:1 balanced forest: what a
// regrid asks when it spreads refinement to the neighbours and when it decides whether a family
// may coarsen.
#include <optional>

#include "amr/forest.hpp"
#include "patches/placement_index.hpp"

namespace tessera::amr {

// Direction n (of kNeighbourDirections<Dim>, {-1, 0, 1}^Dim with the first axis fastest) from the
// patch at (level, index): the leaf of `placed` on that level there, else the coarser one covering
// it; -1 where leaves one level finer lie there; nullopt outside the domain of treesPerAxis
// level-0 patches (periodic axes wrap).
template <int Dim>
std::optional<int> neighbourLeaf(const PlacementIndex<Dim>& placed, int level, Vec<int, Dim> index,
                                 int n, Vec<int, Dim> treesPerAxis, Vec<bool, Dim> periodic) {
  for (int a = 0, m = n; a < Dim; ++a, m /= 3) {
    const int patchesOnLevel = treesPerAxis[a] << level;
    index[a] += m % 3 - 1;
    if (periodic[a])
      index[a] = (index[a] + patchesOnLevel) % patchesOnLevel;
    if (index[a] < 0 || index[a] >= patchesOnLevel)
      return std::nullopt;
  }
  if (const int same = placed.at(level, index); same >= 0 || level == 0)
    return same;
  for (int a = 0; a < Dim; ++a)
    index[a] >>= 1;
  return placed.at(level - 1, index);
}

} // namespace tessera::amr
