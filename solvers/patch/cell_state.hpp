#pragma once
// One cell's state read from patch data laid out as PatchLayout says, for the host and the
// device alike.
#include "engine/backend.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

template <class PDE>
TESSERA_INLINE typename PDE::State loadState(const PatchLayout<PDE::kDim>& layout, const double* q,
                                             int patch, CellIndex<PDE::kDim> c) {
  typename PDE::State s;
  for (int v = 0; v < PDE::kNumVars; ++v)
    s[v] = q[layout.index(patch, v, c)];
  return s;
}

} // namespace tessera
