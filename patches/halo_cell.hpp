#pragma once
// One halo cell under one halo-plan operation, every variable: the pointwise step of a halo fill,
// shared by the host fillHalos and the device DeviceHaloPlan, so the two give bitwise equal halos.
#include "engine/backend.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_layout.hpp"
#include "patches/prolong_restrict.hpp"

namespace tessera {

// Writes every variable of halo cell c (in op's box) of patch op.dstPatch in `data`, from the
// interior cells of op.srcPatch. `parity` holds Dim * numVars signs (ReflectionParity);
// `fixedState` the numVars values of the op's inflow state, for Fixed operations only.
template <int Dim>
TESSERA_INLINE void fillHaloCell(const HaloOp<Dim>& op, const PatchLayout<Dim>& layout,
                                 const double* parity, const double* fixedState, CellIndex<Dim> c,
                                 double* data) {
  const int nv = layout.numVars;
  CellIndex<Dim> u{};
  for (int a = 0; a < Dim; ++a)
    u[a] = op.scale[a] * c[a] + op.shift[a];
  for (int v = 0; v < nv; ++v) {
    const double* src = data + layout.varOffset(op.srcPatch, v);
    double value;
    switch (op.source) {
    case HaloSource::SameLevel:
      value = src[layout.cellOffset(u)];
      break;
    case HaloSource::Coarser: {
      CellIndex<Dim> parent;
      Vec<int, Dim> sub;
      for (int a = 0; a < Dim; ++a) {
        parent[a] = u[a] >> 1;
        sub[a] = u[a] & 1;
      }
      value = limitedLinearValue(layout, src, parent, sub, /*interiorOnly=*/true);
      break;
    }
    case HaloSource::Finer: {
      double values[1 << Dim];
      for (int k = 0; k < (1 << Dim); ++k) {
        CellIndex<Dim> f;
        for (int a = 0; a < Dim; ++a)
          f[a] = 2 * u[a] + ((k >> a) & 1);
        values[k] = src[layout.cellOffset(f)];
      }
      value = symmetricMean<Dim>(values);
      break;
    }
    default:
      value = fixedState[v];
      break;
    }
    double sign = 1.0;
    for (int a = 0; a < Dim; ++a)
      if (op.reflectMask & (1 << a))
        sign *= parity[a * nv + v];
    data[layout.index(op.dstPatch, v, c)] = sign * value;
  }
}

} // namespace tessera
