#pragma once
// A made-up x-face buffer (patches/x_face_buffer.hpp) for the tests of the device update: some
// x faces of a filled grid moved from the patches' halos into a buffer, the halo cells they leave
// set to NaN, so that an update that read one there instead of the buffer would spread NaN.
#include <limits>
#include <vector>

#include "patches/patch_layout.hpp"
#include "patches/x_face_buffer.hpp"

namespace tessera::test {

struct MovedXFaces {
  std::vector<int> slots;     // XFaceBufferView::slots, an entry per face of each patch's two
  std::vector<double> values; // XFaceBufferView::values
  int count = 0;              // faces moved
};

// Moves the x faces that `moves(patch, side)` picks into a buffer, their values from `filled`
// (the state of `patches` patches, halos filled), numbering the slots from the last patch's upper
// face down (not the patches' order); sets their halo cells in q (that state, or a copy with
// other halo cells poisoned too) to NaN.
template <int Dim, class Picks>
MovedXFaces moveXFaces(const PatchLayout<Dim>& layout, int patches, const double* filled,
                       std::vector<double>& q, Picks moves) {
  MovedXFaces moved;
  moved.slots.assign(std::size_t(2 * patches), -1);
  for (int face = 2 * patches - 1; face >= 0; --face)
    if (moves(face / 2, face % 2))
      moved.slots[std::size_t(face)] = moved.count++;
  moved.values.resize(std::size_t(moved.count) * std::size_t(layout.numVars) * xFaceCells(layout));
  const int n = layout.cellsPerAxis;
  const int faceCells = int(xFaceCells(layout));
  for (int face = 0; face < 2 * patches; ++face) {
    const int slot = moved.slots[std::size_t(face)];
    if (slot < 0)
      continue;
    for (int m = 0; m < faceCells; ++m) {
      CellIndex<Dim> c{};
      c[0] = face % 2 == 0 ? -1 : n;
      for (int a = 1, r = m; a < Dim; ++a, r /= n)
        c[a] = r % n;
      for (int v = 0; v < layout.numVars; ++v) {
        const std::size_t i = layout.index(face / 2, v, c);
        moved.values[xFaceBufferIndex(layout, slot, v, c)] = filled[i];
        q[i] = std::numeric_limits<double>::quiet_NaN();
      }
    }
  }
  return moved;
}

} // namespace tessera::test
