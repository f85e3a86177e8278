#pragma once
// One halo cell under one halo-plan operation, every variable: the pointwise step of a halo fill,
// shared by the host fillHalos and the device DeviceHaloPlan, so the two give bitwise equal halos.
#include <cstddef>

#include "engine/backend.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_layout.hpp"
#include "patches/prolong_restrict.hpp"

namespace tessera {

// The value (before any reflection sign) that halo cell u, in the source patch's cell coordinates,
// gets for variable v from `src`, that variable's data of op.srcPatch.
template <int Dim>
TESSERA_INLINE double haloValue(const HaloOp<Dim>& op, const PatchLayout<Dim>& layout,
                                const double* src, const double* fixedState, CellIndex<Dim> u,
                                int v) {
  switch (op.source) {
  case HaloSource::SameLevel:
    return src[layout.cellOffset(u)];
  case HaloSource::Coarser: {
    CellIndex<Dim> parent;
    Vec<int, Dim> sub;
    for (int a = 0; a < Dim; ++a) {
      parent[a] = u[a] >> 1;
      sub[a] = u[a] & 1;
    }
    return limitedLinearValue(layout, src, parent, sub, /*interiorOnly=*/true);
  }
  case HaloSource::Finer: {
    double values[1 << Dim];
    for (int k = 0; k < (1 << Dim); ++k) {
      CellIndex<Dim> f;
      for (int a = 0; a < Dim; ++a)
        f[a] = 2 * u[a] + ((k >> a) & 1);
      values[k] = src[layout.cellOffset(f)];
    }
    return symmetricMean<Dim>(values);
  }
  default:
    return fixedState[v];
  }
}

// The sign variable v takes in op's halo: -1 for each reflection that flips it.
template <int Dim>
TESSERA_INLINE double haloSign(const HaloOp<Dim>& op, const double* parity, int numVars, int v) {
  double sign = 1.0;
  for (int a = 0; a < Dim; ++a)
    if (op.reflectMask & (1 << a))
      sign *= parity[a * numVars + v];
  return sign;
}

// Writes every variable of halo cell c (in op's box) to dst[v * dstVarStride] (the cell in the
// patch's halo, or in an x-face buffer: x_face_buffer.hpp), from the interior cells of op.srcPatch
// in `data`. `parity` holds Dim * numVars signs (ReflectionParity);
// `fixedState` the numVars values of the op's inflow state, for Fixed operations only.
//
// Variables go in chunks: all loads of a chunk, then all its stores. The destination may lie in
// the same array as the source, so a compiler must not move a load above an earlier store; one
// variable at a time would leave a single load in flight per thread (on a GPU, the halo fill
// waited on exactly that).
template <int Dim>
TESSERA_INLINE void fillHaloCell(const HaloOp<Dim>& op, const PatchLayout<Dim>& layout,
                                 const double* parity, const double* fixedState, CellIndex<Dim> c,
                                 const double* data, double* dst, std::size_t dstVarStride) {
  constexpr int kChunk = 8;
  const int nv = layout.numVars;
  CellIndex<Dim> u{};
  for (int a = 0; a < Dim; ++a)
    u[a] = op.scale[a] * c[a] + op.shift[a];
  for (int first = 0; first < nv; first += kChunk) {
    double values[kChunk];
    for (int k = 0; k < kChunk; ++k)
      if (first + k < nv)
        values[k] = haloValue(op, layout, data + layout.varOffset(op.srcPatch, first + k),
                              fixedState, u, first + k);
    for (int k = 0; k < kChunk; ++k) {
      const int v = first + k;
      if (v < nv)
        dst[std::size_t(v) * dstVarStride] = haloSign(op, parity, nv, v) * values[k];
    }
  }
}

} // namespace tessera
