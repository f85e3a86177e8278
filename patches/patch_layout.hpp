#pragma once
// PatchLayout<Dim>: the index math of one patch, N^Dim interior cells surrounded by a halo of
// width h, structure-of-arrays: Q[patch][var][z][y][x] with x fastest, halo included. Threads (or
// SIMD lanes) that walk consecutive x of one variable touch consecutive addresses.
#include <cstddef>

#include "engine/backend.hpp"
#include "engine/small_vector.hpp"

namespace tessera {

template <int Dim>
using CellIndex = Vec<int, Dim>; // (i, j[, k]); interior cells are 0..N-1, halo cells lie outside

template <int Dim>
struct PatchLayout {
  static_assert(Dim == 2 || Dim == 3, "patches are 2D or 3D");
  static constexpr int kDim = Dim;

  int cellsPerAxis = 0; // N
  int halo = 0;         // h
  int numVars = 0;

  // Cells per axis including the halo on both sides.
  TESSERA_INLINE int extent() const { return cellsPerAxis + 2 * halo; }

  TESSERA_INLINE int interiorCells() const { return power(cellsPerAxis); }
  TESSERA_INLINE int cellsWithHalo() const { return power(extent()); }

  // Distance between consecutive cells along an axis, within one variable.
  TESSERA_INLINE int axisStride(int axis) const {
    int s = 1;
    for (int a = 0; a < axis; ++a)
      s *= extent();
    return s;
  }
  // Distance between variables of one patch, and between patches.
  TESSERA_INLINE std::size_t varStride() const { return std::size_t(cellsWithHalo()); }
  TESSERA_INLINE std::size_t patchStride() const { return varStride() * std::size_t(numVars); }

  // Offset of cell `c` within one variable of one patch (halo cells have negative or >= N
  // components).
  TESSERA_INLINE int cellOffset(CellIndex<Dim> c) const {
    int offset = 0;
    for (int a = Dim - 1; a >= 0; --a)
      offset = offset * extent() + (c[a] + halo);
    return offset;
  }

  // Start of one variable of one patch (halo included): add cellOffset to reach a cell.
  TESSERA_INLINE std::size_t varOffset(int patch, int var) const {
    return std::size_t(patch) * patchStride() + std::size_t(var) * varStride();
  }

  TESSERA_INLINE std::size_t index(int patch, int var, CellIndex<Dim> c) const {
    return varOffset(patch, var) + std::size_t(cellOffset(c));
  }

  // The interior cell with number n in [0, N^Dim), x fastest.
  TESSERA_INLINE CellIndex<Dim> interiorCell(int n) const {
    CellIndex<Dim> c{};
    for (int a = 0; a < Dim; ++a) {
      c[a] = n % cellsPerAxis;
      n /= cellsPerAxis;
    }
    return c;
  }

private:
  TESSERA_INLINE static int power(int base) {
    int r = 1;
    for (int a = 0; a < Dim; ++a)
      r *= base;
    return r;
  }
};

} // namespace tessera
