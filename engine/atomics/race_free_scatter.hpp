#pragma once
// The race-free pieces of the face scatter, one item each, the same code on the host and on the
// device: a face adding plainly to its two cells (the serial reference, and the coloring strategy
// where no two faces of a launch share a cell) and a cell gathering over its faces (the gather
// strategy, which evaluates every interior face once per side).
#include "engine/atomics/face_scatter_plan.hpp"
#include "engine/backend.hpp"

namespace tessera::atomics {

template <int K, class Contribution>
TESSERA_INLINE void addFacePlainly(const FaceTopology& t, const Contribution& f, int face,
                                   double* target) {
  double toOwner[K], toNeighbour[K];
  f(face, toOwner, toNeighbour);
  const int owner = t.owner[face], neighbour = t.neighbour[face];
  for (int k = 0; k < K; ++k)
    target[owner * K + k] += toOwner[k];
  if (neighbour >= 0)
    for (int k = 0; k < K; ++k)
      target[neighbour * K + k] += toNeighbour[k];
}

template <int K, class Contribution>
TESSERA_INLINE void gatherCell(const FaceTopology& t, const Contribution& f, int cell,
                               double* target) {
  double sum[K] = {}, toOwner[K], toNeighbour[K];
  for (int i = t.cellFaceOffsets[cell]; i < t.cellFaceOffsets[cell + 1]; ++i) {
    const int face = t.cellFaces[i];
    f(face, toOwner, toNeighbour);
    const bool owned = t.owner[face] == cell;
    for (int k = 0; k < K; ++k)
      sum[k] += owned ? toOwner[k] : toNeighbour[k];
  }
  for (int k = 0; k < K; ++k)
    target[cell * K + k] += sum[k];
}

} // namespace tessera::atomics
