#pragma once
// The device's fused updates write each row of the new state together with its x halo cells,
// filled with copies of the row's end cells (the values a zero-gradient boundary gives), so that
// the row's stores cover whole 32-byte sectors (rusanov_update_device.hpp); their host twins write
// the same copies. No reader takes them as halo values: every halo is filled, or read through a
// face link, before it is read.
#include <cstddef>

#include "engine/backend.hpp"
#include "patches/patch_layout.hpp"

namespace tessera::detail {

// The copies of a row's end cell `cell` (holding `value`) into the `copies` halo cells beyond it:
// rowEnd -1 for the row's first cell, 1 for its last, 0 for any other (no copy).
TESSERA_INLINE void copyRowEnd(double* cell, int rowEnd, int copies, double value) {
  if (rowEnd != 0)
    for (int h = 1; h <= copies; ++h)
      cell[h * rowEnd] = value;
}

// Offset of cell (0, j, k) of a patch: the start of an interior x row.
template <int Dim>
int rowStart(const PatchLayout<Dim>& layout, int j, int k) {
  CellIndex<Dim> c{};
  c[1] = j;
  if constexpr (Dim == 3)
    c[2] = k;
  return layout.cellOffset(c);
}

// Each interior row of `patch` (its first variable at `patch`, laid out as layout says): the
// `width` halo cells beyond the row's first cell take its value, those beyond its last cell
// theirs.
template <int Dim>
void copyRowEndsIntoHalo(const PatchLayout<Dim>& layout, int width, double* patch) {
  const int n = layout.cellsPerAxis, planes = Dim == 3 ? n : 1;
  const std::size_t vs = layout.varStride();
  for (int v = 0; v < layout.numVars; ++v)
    for (int k = 0; k < planes; ++k)
      for (int j = 0; j < n; ++j) {
        double* const row = patch + v * vs + rowStart(layout, j, k);
        copyRowEnd(row, -1, width, row[0]);
        copyRowEnd(row + n - 1, 1, width, row[n - 1]);
      }
}

} // namespace tessera::detail
