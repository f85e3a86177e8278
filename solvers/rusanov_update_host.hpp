#pragma once
// The fused first-order Rusanov update of every patch on the host back end: per patch, the face
// fluxes of each axis (line by line, held in small per-thread buffers the way the device kernel
// holds them in shared memory), the update Q_new = Q - dt/dx sum_a (F_a(i+1/2) - F_a(i-1/2)), and
// the largest eigenvalue of the new state reduced to one value per patch for the next dt.
// Reads the state with its halo once and writes the interior once; no temporaries in main memory.
#include <algorithm>
#include <cstring>
#include <span>
#include <stdexcept>

#include "engine/parallel_for.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"
#include "solvers/pde.hpp"
#include "solvers/rusanov.hpp"

namespace tessera {

// Longest line of cells (interior plus one halo cell per side) the per-thread buffers hold.
inline constexpr int kMaxCellsPerAxis = 128;

namespace detail {

template <ConservationLaw PDE>
TESSERA_INLINE typename PDE::State loadState(const double* q, std::size_t varStride, int offset) {
  typename PDE::State s;
  for (int v = 0; v < PDE::kNumVars; ++v)
    s[v] = q[v * varStride + offset];
  return s;
}

// Largest eigenvalue over all axes and all interior cells of one patch.
template <ConservationLaw PDE>
double patchMaxEigenvalue(const PDE& pde, const PatchLayout<PDE::kDim>& layout, const double* q) {
  double lambda = 0.0;
  for (int n = 0; n < layout.interiorCells(); ++n) {
    const auto s = loadState<PDE>(q, layout.varStride(), layout.cellOffset(layout.interiorCell(n)));
    for (int a = 0; a < PDE::kDim; ++a) {
      const double l = pde.maxEigenvalue(s, a);
      if (l != l) // NaN (negative pressure or density) poisons the patch so dt reports it
        return l;
      lambda = l > lambda ? l : lambda;
    }
  }
  return lambda;
}

// First cell (offset, halo cell at index -1 along `axis`) of line number `line` along `axis`.
template <int Dim>
int lineStart(const PatchLayout<Dim>& layout, int axis, int line) {
  CellIndex<Dim> c{};
  for (int a = 0; a < Dim; ++a) {
    if (a == axis)
      continue;
    c[a] = line % layout.cellsPerAxis;
    line /= layout.cellsPerAxis;
  }
  c[axis] = -1;
  return layout.cellOffset(c);
}

template <ConservationLaw PDE>
void updatePatch(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                 const PatchGeometry<PDE::kDim>& geometry, const double* q, double* qNew,
                 double dt) {
  using State = typename PDE::State;
  constexpr int Dim = PDE::kDim;
  const int n = layout.cellsPerAxis;
  const std::size_t vs = layout.varStride();

  // Q_new starts as Q on the interior, row by row (x rows are contiguous).
  const int rows = layout.interiorCells() / n;
  for (int v = 0; v < PDE::kNumVars; ++v)
    for (int r = 0; r < rows; ++r) {
      const int off = lineStart(layout, 0, r) + 1;
      std::memcpy(qNew + v * vs + off, q + v * vs + off, sizeof(double) * n);
    }

  State qLine[kMaxCellsPerAxis + 2], fLine[kMaxCellsPerAxis + 2];
  double lambdaLine[kMaxCellsPerAxis + 2];
  State faceFlux[kMaxCellsPerAxis + 1];
  for (int axis = 0; axis < Dim; ++axis) {
    const int stride = layout.axisStride(axis);
    const double ratio = dt / geometry.dx[axis];
    const int lines = layout.interiorCells() / n;
    for (int line = 0; line < lines; ++line) {
      const int start = lineStart(layout, axis, line);
      for (int i = 0; i < n + 2; ++i) {
        qLine[i] = loadState<PDE>(q, vs, start + i * stride);
        fLine[i] = pde.flux(qLine[i], axis);
        lambdaLine[i] = pde.maxEigenvalue(qLine[i], axis);
      }
      for (int i = 0; i < n + 1; ++i)
        faceFlux[i] = rusanovFaceFlux(qLine[i], qLine[i + 1], fLine[i], fLine[i + 1],
                                      lambdaLine[i], lambdaLine[i + 1]);
      for (int i = 0; i < n; ++i) {
        const int off = start + (i + 1) * stride;
        for (int v = 0; v < PDE::kNumVars; ++v)
          qNew[v * vs + off] -= ratio * (faceFlux[i + 1][v] - faceFlux[i][v]);
      }
    }
  }
}

} // namespace detail

// One fused step over all patches: q (with filled halos) -> qNew (interior), and patchLambda[p],
// the largest eigenvalue of patch p's new state.
template <ConservationLaw PDE>
void rusanovUpdateHost(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                       std::span<const PatchGeometry<PDE::kDim>> geometry, const double* q,
                       double* qNew, double dt, double* patchLambda) {
  if (layout.cellsPerAxis > kMaxCellsPerAxis)
    throw std::invalid_argument("rusanovUpdateHost: at most 128 cells per patch axis");
  const std::size_t ps = layout.patchStride();
  forEachPatch(int(geometry.size()), [&](int p) {
    detail::updatePatch(pde, layout, geometry[p], q + p * ps, qNew + p * ps, dt);
    patchLambda[p] = detail::patchMaxEigenvalue(pde, layout, qNew + p * ps);
  });
}

// The per-patch largest eigenvalue of a state, for the first dt of a run.
template <ConservationLaw PDE>
void maxEigenvaluesHost(const PDE& pde, const PatchLayout<PDE::kDim>& layout, int numPatches,
                        const double* q, double* patchLambda) {
  const std::size_t ps = layout.patchStride();
  forEachPatch(numPatches, [&](int p) {
    patchLambda[p] = detail::patchMaxEigenvalue(pde, layout, q + p * ps);
  });
}

} // namespace tessera
