#pragma once
// The refinement buffer of a regrid: every leaf that touches (face, edge or corner, periodic images
// included) a leaf asked to refine is asked to refine too, so that what the criterion found cannot
// leave the fine region before the next regrid.
#include <atomic>
#include <optional>
#include <span>
#include <vector>

#include "amr/neighbour_leaf.hpp"
#include "patches/adapt_flag.hpp"

namespace tessera::amr {

// For each of the first `owned` leaves of `placed` (the owned leaves, then any ghosts), whether it
// touches a leaf whose flag in `asked` (one per placement) is Refine, or is one. The lookups (27 a
// refining leaf in 3D, which miss the cache) split over the host's threads; a leaf found by
// several is marked by each, the same mark.
template <int Dim>
std::vector<unsigned char>
leavesTouchingRefinement(std::span<const PatchPlacement<Dim>> placed,
                         const PlacementIndex<Dim>& index, std::span<const AdaptFlag> asked,
                         int owned, Vec<int, Dim> treesPerAxis, Vec<bool, Dim> periodic) {
  std::vector<unsigned char> touching(std::size_t(owned), 0);
  const int count = int(placed.size());
#pragma omp parallel for schedule(static) if (count > 1)
  for (int p = 0; p < count; ++p) {
    if (asked[std::size_t(p)] != AdaptFlag::Refine)
      continue;
    const PatchPlacement<Dim>& at = placed[std::size_t(p)];
    for (int n = 0; n < kNeighbourDirections<Dim>; ++n) {
      const std::optional<int> q =
          neighbourLeaf(index, at.level, at.index, n, treesPerAxis, periodic);
      if (q && *q >= 0 && *q < owned)
        std::atomic_ref<unsigned char>(touching[std::size_t(*q)])
            .store(1, std::memory_order_relaxed);
    }
  }
  return touching;
}

} // namespace tessera::amr
