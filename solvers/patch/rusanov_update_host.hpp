#pragma once
// The fused first-order Rusanov update of every patch on the host back end: per patch, the face
// fluxes of each axis, the update Q_new = Q - dt/dx sum_a (F_a(i+1/2) - F_a(i-1/2)), and the
// largest eigenvalue of the new state reduced to one value per patch for the next dt.
// Reads the state with its halo once and writes the interior once; fluxes live in a few rows of
// per-thread scratch (the device kernel's shared memory), never in main memory.
#include <algorithm>
#include <cstring>
#include <span>
#include <stdexcept>

#include "engine/parallel_for.hpp"
#include "numerics/flux/rusanov.hpp"
#include "patches/flux_register.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"
#include "physics/conservation_law.hpp"
#include "solvers/patch/max_eigenvalue.hpp"
#include "solvers/patch/row_end_copies.hpp"

namespace tessera {

// Longest row of cells (interior plus one halo cell per side) the per-thread buffers hold.
inline constexpr int kMaxCellsPerAxis = 128;

namespace detail {

// Structure-of-arrays buffers of one row of cells along x: states, physical fluxes along the
// sweep axis, eigenvalues, and face fluxes. Loops over a row run over contiguous x, so the
// compiler vectorises them whatever the sweep axis is.
template <int NumVars>
struct RowBuffer {
  alignas(64) double q[NumVars][kMaxCellsPerAxis + 2];
  alignas(64) double f[NumVars][kMaxCellsPerAxis + 2];
  alignas(64) double lambda[kMaxCellsPerAxis + 2];
  alignas(64) double face[NumVars][kMaxCellsPerAxis + 2];
};

// Per-thread scratch for one patch: two rows and two rows of face fluxes.
template <int NumVars>
struct PatchScratch {
  RowBuffer<NumVars> rows[2], faces[2];
};

// Fills row buffer entries [0, count) from `count` consecutive x cells starting at offset `at`:
// states, physical fluxes and eigenvalues along Axis.
template <int Axis, ConservationLaw PDE>
inline void evaluateRow(const PDE& pde, const double* q, std::size_t vs, int at, int count,
                        RowBuffer<PDE::kNumVars>& row) {
  using State = typename PDE::State;
  for (int i = 0; i < count; ++i) {
    State s;
    for (int v = 0; v < PDE::kNumVars; ++v)
      s[v] = q[v * vs + at + i];
    const State f = pde.flux(s, Axis);
    for (int v = 0; v < PDE::kNumVars; ++v) {
      row.q[v][i] = s[v];
      row.f[v][i] = f[v];
    }
    row.lambda[i] = pde.maxEigenvalue(s, Axis);
  }
}

// out.face[v][i] = Rusanov flux between entry i + leftShift of `left` and entry i + rightShift
// of `right`.
template <int NumVars>
inline void faceFluxes(const RowBuffer<NumVars>& left, int leftShift,
                       const RowBuffer<NumVars>& right, int rightShift, int count,
                       RowBuffer<NumVars>& out) {
  using State = Vec<double, NumVars>;
  for (int i = 0; i < count; ++i) {
    State qL, qR, fL, fR;
    for (int v = 0; v < NumVars; ++v) {
      qL[v] = left.q[v][i + leftShift];
      qR[v] = right.q[v][i + rightShift];
      fL[v] = left.f[v][i + leftShift];
      fR[v] = right.f[v][i + rightShift];
    }
    const State F =
        rusanovFaceFlux(qL, qR, fL, fR, left.lambda[i + leftShift], right.lambda[i + rightShift]);
    for (int v = 0; v < NumVars; ++v)
      out.face[v][i] = F[v];
  }
}

// The x sweep: along each row, fluxes at the N + 1 faces, then the update of the N cells.
template <ConservationLaw PDE>
void sweepX(const PDE& pde, const PatchLayout<PDE::kDim>& layout, const double* q, double* qNew,
            double ratio, RowBuffer<PDE::kNumVars>& row, RowBuffer<PDE::kNumVars>& faces,
            const double* nextQ, double* nextQNew, double* fluxRegister) {
  const int n = layout.cellsPerAxis;
  const std::size_t vs = layout.varStride();
  const int planes = PDE::kDim == 3 ? n : 1;
  // While this patch computes, the next one streams in: a slice of it per row of this sweep.
  constexpr std::size_t kLine = 64 / sizeof(double);
  const std::size_t slice = (layout.patchStride() / (planes * n) + kLine - 1) / kLine * kLine;
  for (int k = 0; k < planes; ++k)
    for (int j = 0; j < n; ++j) {
      if (nextQ) {
        const std::size_t from = std::size_t(k * n + j) * slice;
        const std::size_t to = std::min(from + slice, layout.patchStride());
        for (std::size_t i = from; i < to; i += kLine) {
          __builtin_prefetch(nextQ + i, 0);
          __builtin_prefetch(nextQNew + i, 1);
        }
      }
      const int start = rowStart(layout, j, k);
      evaluateRow<0>(pde, q, vs, start - 1, n + 2, row);
      faceFluxes(row, 0, row, 1, n + 1, faces);
      for (int v = 0; v < PDE::kNumVars; ++v)
        for (int i = 0; i < n; ++i)
          qNew[v * vs + start + i] -= ratio * (faces.face[v][i + 1] - faces.face[v][i]);
      if (fluxRegister) {
        const FluxRegisterLayout<PDE::kDim> reg{n, PDE::kNumVars};
        for (int v = 0; v < PDE::kNumVars; ++v) {
          fluxRegister[reg.index(0, 0, 0, v, j + n * k)] = faces.face[v][0];
          fluxRegister[reg.index(0, 0, 1, v, j + n * k)] = faces.face[v][n];
        }
      }
    }
}

// The largest eigenvalue of n consecutive x cells from offset `at` (NaN if any is NaN).
template <ConservationLaw PDE>
double rowMaxEigenvalue(const PDE& pde, const double* q, std::size_t vs, int at, int n,
                        RowBuffer<PDE::kNumVars>& scratch) {
  using State = typename PDE::State;
  for (int i = 0; i < n; ++i) { // vectorised: the expensive part
    State s;
    for (int v = 0; v < PDE::kNumVars; ++v)
      s[v] = q[v * vs + at + i];
    scratch.lambda[i] = maxEigenvalueAllAxes(pde, s);
  }
  double lambda = 0.0;
  for (int i = 0; i < n; ++i) {
    const double l = scratch.lambda[i];
    if (l != l)
      return l;
    lambda = l > lambda ? l : lambda;
  }
  return lambda;
}

// A y or z sweep: whole x rows march along Axis; the row below and the face below are kept, so
// each row's physical flux and each face's Rusanov flux are evaluated once. The last sweep also
// reduces the eigenvalues of each finished row while it is still in L1; it returns their maximum
// (NaN if any is NaN), the other sweeps return 0.
template <int Axis, ConservationLaw PDE>
double sweepRows(const PDE& pde, const PatchLayout<PDE::kDim>& layout, const double* q,
                 double* qNew, double ratio, PatchScratch<PDE::kNumVars>& scratch,
                 double* fluxRegister) {
  constexpr bool kLastSweep = Axis == PDE::kDim - 1;
  double lambda = 0.0;
  const int n = layout.cellsPerAxis;
  const std::size_t vs = layout.varStride();
  const int stride = layout.axisStride(Axis);
  const int across = PDE::kDim == 3 ? n : 1; // rows of the other transverse axis
  for (int o = 0; o < across; ++o) {
    // Row m along Axis starts at base + m * stride; m = -1 is the halo row.
    const int base = Axis == 1 ? rowStart(layout, 0, o) : rowStart(layout, o, 0);
    evaluateRow<Axis>(pde, q, vs, base - stride, n, scratch.rows[0]);
    for (int m = 0; m <= n; ++m) {
      const auto& below = scratch.rows[m % 2]; // row m - 1
      auto& above = scratch.rows[(m + 1) % 2]; // row m
      evaluateRow<Axis>(pde, q, vs, base + m * stride, n, above);
      auto& face = scratch.faces[m % 2]; // the face between rows m - 1 and m
      faceFluxes(below, 0, above, 0, n, face);
      if (fluxRegister && (m == 0 || m == n)) { // the patch's lower or upper face on Axis
        const FluxRegisterLayout<PDE::kDim> reg{n, PDE::kNumVars};
        for (int v = 0; v < PDE::kNumVars; ++v)
          for (int i = 0; i < n; ++i)
            fluxRegister[reg.index(0, Axis, m == n, v, i + n * o)] = face.face[v][i];
      }
      if (m == 0)
        continue;
      const auto& faceBelow = scratch.faces[(m + 1) % 2];
      const int at = base + (m - 1) * stride;
      for (int v = 0; v < PDE::kNumVars; ++v)
        for (int i = 0; i < n; ++i)
          qNew[v * vs + at + i] -= ratio * (face.face[v][i] - faceBelow.face[v][i]);
      if constexpr (kLastSweep) {
        const double l = rowMaxEigenvalue(pde, qNew, vs, at, n, scratch.faces[m % 2]);
        if (l != l)
          return l;
        lambda = l > lambda ? l : lambda;
      }
    }
  }
  return lambda;
}

// Largest eigenvalue over all interior cells of one patch; NaN if any cell gives NaN (negative
// pressure or density), so that the time step reports it.
template <ConservationLaw PDE>
double patchMaxEigenvalue(const PDE& pde, const PatchLayout<PDE::kDim>& layout, const double* q,
                          RowBuffer<PDE::kNumVars>& scratch) {
  const int n = layout.cellsPerAxis;
  const int planes = PDE::kDim == 3 ? n : 1;
  double lambda = 0.0;
  for (int k = 0; k < planes; ++k)
    for (int j = 0; j < n; ++j) {
      const double l =
          rowMaxEigenvalue(pde, q, layout.varStride(), rowStart(layout, j, k), n, scratch);
      if (l != l)
        return l;
      lambda = l > lambda ? l : lambda;
    }
  return lambda;
}

// Updates one patch and returns the largest eigenvalue of its new state.
template <ConservationLaw PDE>
double updatePatch(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                   const PatchGeometry<PDE::kDim>& geometry, const double* q, double* qNew,
                   double dt, PatchScratch<PDE::kNumVars>& scratch, const double* nextQ,
                   double* nextQNew, double* fluxRegister) {
  const int n = layout.cellsPerAxis;
  const std::size_t vs = layout.varStride();
  const int planes = PDE::kDim == 3 ? n : 1;
  // Q_new starts as Q on the interior, copied in one burst while the memory system streams it;
  // each sweep then subtracts its flux differences from cached data.
  for (int v = 0; v < PDE::kNumVars; ++v)
    for (int k = 0; k < planes; ++k)
      for (int j = 0; j < n; ++j) {
        const int start = rowStart(layout, j, k);
        std::memcpy(qNew + v * vs + start, q + v * vs + start, sizeof(double) * n);
      }
  sweepX(pde, layout, q, qNew, dt / geometry.dx[0], scratch.rows[0], scratch.faces[0], nextQ,
         nextQNew, fluxRegister);
  double lambda = sweepRows<1>(pde, layout, q, qNew, dt / geometry.dx[1], scratch, fluxRegister);
  if constexpr (PDE::kDim == 3)
    lambda = sweepRows<2>(pde, layout, q, qNew, dt / geometry.dx[2], scratch, fluxRegister);
  copyRowEndsIntoHalo(layout, 1, qNew);
  return lambda;
}

} // namespace detail

// One fused step over all patches (one per geometry entry), or over the patches listed in
// `patches` (the others untouched): q (with filled halos) -> qNew (interior, and each row's x halo
// cells with copies of its first and last cells, as on the device), and patchLambda[p],
// the largest eigenvalue of patch p's new state. With a flux register (FluxRegisterLayout, one
// block per patch), the fluxes of every updated patch's boundary faces are left there for
// refluxing.
template <ConservationLaw PDE>
void rusanovUpdateHost(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                       std::span<const PatchGeometry<PDE::kDim>> geometry, const double* q,
                       double* qNew, double dt, double* patchLambda, double* fluxRegister = nullptr,
                       std::span<const int> patches = {}) {
  if (layout.cellsPerAxis > kMaxCellsPerAxis)
    throw std::invalid_argument("rusanovUpdateHost: at most 128 cells per patch axis");
  const std::size_t ps = layout.patchStride();
  const bool listed = !patches.empty();
  const int count = listed ? int(patches.size()) : int(geometry.size());
  const auto patchAt = [&](int k) { return listed ? patches[std::size_t(k)] : k; };
  forEachPatch(count, [&](int k) {
    thread_local detail::PatchScratch<PDE::kNumVars> scratch;
    const int p = patchAt(k);
    const bool last = k + 1 == count;
    const std::size_t next = last ? 0 : std::size_t(patchAt(k + 1)) * ps;
    const FluxRegisterLayout<PDE::kDim> registers{layout.cellsPerAxis, PDE::kNumVars};
    patchLambda[p] =
        detail::updatePatch(pde, layout, geometry[p], q + p * ps, qNew + p * ps, dt, scratch,
                            last ? nullptr : q + next, last ? nullptr : qNew + next,
                            fluxRegister ? fluxRegister + p * registers.patchStride() : nullptr);
  });
}

// The per-patch largest eigenvalue of a state, for the first dt of a run. Where keptFrom is given
// (numPatches entries), a patch p with keptFrom[p] >= 0 holds the state an old patch had and
// takes its eigenvalue, keptLambda[keptFrom[p]], instead (a remesh's copied patches).
template <ConservationLaw PDE>
void maxEigenvaluesHost(const PDE& pde, const PatchLayout<PDE::kDim>& layout, int numPatches,
                        const double* q, double* patchLambda, std::span<const int> keptFrom = {},
                        const double* keptLambda = nullptr) {
  const std::size_t ps = layout.patchStride();
  forEachPatch(numPatches, [&](int p) {
    if (!keptFrom.empty() && keptFrom[std::size_t(p)] >= 0) {
      patchLambda[p] = keptLambda[keptFrom[std::size_t(p)]];
      return;
    }
    thread_local detail::RowBuffer<PDE::kNumVars> row;
    patchLambda[p] = detail::patchMaxEigenvalue(pde, layout, q + p * ps, row);
  });
}

// The same for the listed patches only (those refluxing changed).
template <ConservationLaw PDE>
void maxEigenvaluesHost(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                        std::span<const int> patches, const double* q, double* patchLambda) {
  const std::size_t ps = layout.patchStride();
  forEachPatch(int(patches.size()), [&](int i) {
    thread_local detail::RowBuffer<PDE::kNumVars> row;
    const int p = patches[i];
    patchLambda[p] = detail::patchMaxEigenvalue(pde, layout, q + p * ps, row);
  });
}

} // namespace tessera
