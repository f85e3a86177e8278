#pragma once
// Where a patch lies: the lower corner of its interior and its cell size per axis.
#include "engine/backend.hpp"
#include "engine/small_vector.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

template <int Dim>
struct PatchGeometry {
  Vec<double, Dim> origin; // lower corner of cell (0, ..., 0)
  Vec<double, Dim> dx;

  TESSERA_INLINE double cellCenter(int axis, int i) const {
    return origin[axis] + (i + 0.5) * dx[axis];
  }
  // The centre of cell c (interior or halo).
  TESSERA_INLINE Vec<double, Dim> cellCenter(const CellIndex<Dim>& c) const {
    Vec<double, Dim> x;
    for (int a = 0; a < Dim; ++a)
      x[a] = cellCenter(a, c[a]);
    return x;
  }
  TESSERA_INLINE double cellVolume() const {
    double v = 1.0;
    for (int a = 0; a < Dim; ++a)
      v *= dx[a];
    return v;
  }
  TESSERA_INLINE double minSpacing() const {
    double m = dx[0];
    for (int a = 1; a < Dim; ++a)
      m = dx[a] < m ? dx[a] : m;
    return m;
  }
};

} // namespace tessera
