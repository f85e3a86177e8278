#pragma once
// Face links: for each face of each patch, the same-level patch across it whose interior a fused
// update reads in place of the face's halo cells. A halo cell of such a face is a copy of a cell
// of that neighbour, one patch width away along the face's axis; reading the neighbour directly
// saves the halo fill writing it and the update reading it back, which on a GPU cost as much as
// the update itself (RESULTS.md, "The whole adaptive run on the device").
//
// linkSameLevelFaces takes those copies out of a halo plan, and the edges and corners with them
// (the fused updates and the refinement criteria read along the axes only), so a fill of what is
// left writes only the halo cells those kernels still read from the halo: coarse-fine faces,
// physical and periodic boundaries. Fills for other readers (a user's criterion, output) run the
// operations taken out as well; prolongation's slopes read through the links too.
//
// Faces across a periodic boundary stay in the plan: a boundary hook (solvers/patch/
// boundary_hook.hpp) may replace those halo cells after the fill.
#include <cstddef>
#include <vector>

#include "engine/backend.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

template <int Dim>
struct FaceLinks {
  static constexpr int kFaces = 2 * Dim; // face 2 * axis + side, side 0 the lower
  // neighbour[patch * kFaces + face]: the stored patch whose interior the face's halo copies, or
  // -1 where the halo plan fills the face.
  std::vector<int> neighbour;
  // The operations taken out of the plan (linked faces, edges, corners), for fills that must write
  // every halo cell.
  HaloPlan<Dim> unreadOps;
};

// FaceLinks for `patches` patches, with no face linked yet.
template <int Dim>
FaceLinks<Dim> unlinkedFaces(int patches) {
  FaceLinks<Dim> links;
  links.neighbour.assign(std::size_t(patches) * FaceLinks<Dim>::kFaces, -1);
  return links;
}

// Moves every operation of `plan` that copies a whole face halo of a patch from its same-level
// neighbour (a translation by one patch width along the face's axis, not across a periodic
// boundary) into `links`, and every operation of an edge or a corner into links.unreadOps; the
// others keep their order. Destination patches must be below the count `links` was made for.
template <int Dim>
void linkSameLevelFaces(HaloPlan<Dim>& plan, const PatchLayout<Dim>& layout, FaceLinks<Dim>& links);

// How far, in doubles, halo cell c of `face` of `patch` lies from the neighbour's cell that it
// copies: the update reads q[layout.index(patch, v, c) + shift] in place of the halo cell. Zero
// where the face is not linked (links null: none is).
template <int Dim>
TESSERA_INLINE std::ptrdiff_t faceLinkShift(const PatchLayout<Dim>& layout, const int* links,
                                            int patch, int face) {
  const int neighbour = links ? links[patch * (2 * Dim) + face] : -1;
  if (neighbour < 0)
    return 0;
  const int towardNeighbour = face % 2 == 0 ? 1 : -1; // the lower face's halo copies cell N - 1
  return (std::ptrdiff_t(neighbour) - patch) * std::ptrdiff_t(layout.patchStride()) +
         std::ptrdiff_t(towardNeighbour) * layout.cellsPerAxis * layout.axisStride(face / 2);
}

} // namespace tessera
