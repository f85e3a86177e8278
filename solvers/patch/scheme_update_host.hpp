#pragma once
// The fused update of any spatial scheme (a reconstruction and a Riemann solver,
// numerics/spatial_scheme.hpp) on the host back end, for one Runge-Kutta stage: per patch and
// axis, each line of cells along the axis is read with its halo, reconstructed to face states
// (cell_faces.hpp: primitive variables and the positivity fallback where the policy asks for
// them), given one Riemann flux per face, and differenced into the patch's update; then
// qOut = keep q0 + advance (q + dt L(q)) and the largest eigenvalue of qOut per patch. The
// boundary faces' fluxes go to the flux register, as in the first-order update.
//
// This is the reference every scheme is checked against (its device twin is
// schemeUpdateDevice). The first-order Rusanov forward-Euler step keeps its own faster sweeps
// (rusanov_update_host.hpp).
#include <atomic>
#include <span>
#include <stdexcept>
#include <vector>

#include "engine/parallel_for.hpp"
#include "numerics/reconstruct/cell_faces.hpp"
#include "patches/flux_register.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"
#include "physics/conservation_law.hpp"
#include "solvers/patch/row_end_copies.hpp"
#include "solvers/patch/rusanov_update_host.hpp"
#include "solvers/patch/stage_weights.hpp"

namespace tessera {
namespace detail {

// One line of cells along an axis: entry m + 2 holds cell m, m = -2 .. N + 1.
template <ConservationLaw PDE>
struct LineScratch {
  using State = typename PDE::State;
  static constexpr int kEntries = kMaxCellsPerAxis + 4;
  State q[kEntries], v[kEntries], lower[kEntries], upper[kEntries];
  State flux[kEntries];       // flux[f]: face f - 1/2, f = 0 .. N
  std::vector<double> update; // the patch's q + dt L(q), [var][interior cell], x fastest
};

// The interior cell at position m along `axis` of line t (the other axes' cells, x fastest).
template <int Dim>
CellIndex<Dim> lineCell(int n, int axis, int t, int m) {
  CellIndex<Dim> c{};
  for (int a = 0; a < Dim; ++a) {
    if (a == axis)
      continue;
    c[a] = t % n;
    t /= n;
  }
  c[axis] = m;
  return c;
}

template <int Dim>
int interiorNumber(int n, const CellIndex<Dim>& c) {
  int k = 0;
  for (int a = Dim - 1; a >= 0; --a)
    k = k * n + c[a];
  return k;
}

// Adds -dt/dx_axis (F(m + 1/2) - F(m - 1/2)) of every line along `axis` to the patch's update;
// returns the cells that fell back to first order.
template <class Recon, class Flux, ConservationLaw PDE>
long long sweepAxis(const PDE& pde, const PatchLayout<PDE::kDim>& layout, int axis, const double* q,
                    double ratio, LineScratch<PDE>& s, double* fluxRegister) {
  using State = typename PDE::State;
  constexpr int kDim = PDE::kDim, kVars = PDE::kNumVars, h = Recon::kHalo;
  const int n = layout.cellsPerAxis;
  const std::size_t vs = layout.varStride();
  const int stride = layout.axisStride(axis);
  const int interior = layout.interiorCells();
  const int lines = interior / n;
  long long fallbacks = 0;
  for (int t = 0; t < lines; ++t) {
    const int first = layout.cellOffset(lineCell<kDim>(n, axis, t, 0));
    for (int m = -h; m < n + h; ++m) {
      State c;
      for (int v = 0; v < kVars; ++v)
        c[v] = q[v * vs + first + m * stride];
      s.q[m + 2] = c;
      s.v[m + 2] = reconstructedVariables<Recon>(pde, c);
    }
    // Cells -1 .. N give the faces -1/2 .. N + 1/2; a donor cell reads no neighbour.
    for (int m = -1; m <= n; ++m) {
      const int below = m - 1 < -h ? m : m - 1, above = m + 1 >= n + h ? m : m + 1;
      const CellFaces<PDE> f =
          cellFaces<Recon, Flux>(pde, s.v[below + 2], s.v[m + 2], s.v[above + 2], s.q[m + 2]);
      s.lower[m + 2] = f.lower;
      s.upper[m + 2] = f.upper;
      fallbacks += f.firstOrder && m >= 0 && m < n;
    }
    for (int f = 0; f <= n; ++f)
      s.flux[f] = faceFlux<Recon, Flux>(pde, s.upper[f + 1], s.lower[f + 2], axis);
    for (int m = 0; m < n; ++m) {
      const int k = interiorNumber<kDim>(n, lineCell<kDim>(n, axis, t, m));
      for (int v = 0; v < kVars; ++v)
        s.update[std::size_t(v) * interior + k] -= ratio * (s.flux[m + 1][v] - s.flux[m][v]);
    }
    if (fluxRegister) {
      const FluxRegisterLayout<kDim> reg{n, kVars};
      for (int v = 0; v < kVars; ++v) {
        fluxRegister[reg.index(0, axis, 0, v, t)] = s.flux[0][v];
        fluxRegister[reg.index(0, axis, 1, v, t)] = s.flux[n][v];
      }
    }
  }
  return fallbacks;
}

// One patch: returns the cells (times axes) that fell back to first order.
template <class Recon, class Flux, ConservationLaw PDE>
long long schemeUpdatePatch(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                            const PatchGeometry<PDE::kDim>& geometry, const double* q, double* qOut,
                            const StageWeights& stage, const double* q0, LineScratch<PDE>& s,
                            double* fluxRegister) {
  constexpr int kDim = PDE::kDim, kVars = PDE::kNumVars;
  const int interior = layout.interiorCells();
  const std::size_t vs = layout.varStride();
  s.update.resize(std::size_t(kVars) * interior);
  for (int v = 0; v < kVars; ++v)
    for (int k = 0; k < interior; ++k)
      s.update[std::size_t(v) * interior + k] =
          q[v * vs + layout.cellOffset(layout.interiorCell(k))];
  long long fallbacks = 0;
  for (int a = 0; a < kDim; ++a)
    fallbacks +=
        sweepAxis<Recon, Flux>(pde, layout, a, q, stage.dt / geometry.dx[a], s, fluxRegister);
  for (int v = 0; v < kVars; ++v)
    for (int k = 0; k < interior; ++k) {
      const std::size_t at = v * vs + layout.cellOffset(layout.interiorCell(k));
      const double stepped = s.update[std::size_t(v) * interior + k];
      qOut[at] = stage.keep == 0.0 ? stage.advance * stepped
                                   : stage.keep * q0[at] + stage.advance * stepped;
    }
  copyRowEndsIntoHalo(layout, Recon::kHalo, qOut);
  return fallbacks;
}

} // namespace detail

// One stage over all patches (one per geometry entry) or the listed ones: q (halos filled to the
// scheme's width) -> qOut (interior, and each row's Recon::kHalo x halo cells on each side with
// copies of the row's end cells, as on the device: row_end_copies.hpp), patchLambda[p] the largest
// eigenvalue of qOut on patch p, the boundary faces' fluxes in the register where one is given, and
// the count of cells that fell back to first order added to *fallbacks.
template <class Recon, class Flux, ConservationLaw PDE>
void schemeUpdateHost(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                      std::span<const PatchGeometry<PDE::kDim>> geometry, const double* q,
                      double* qOut, const StageWeights& stage, double* patchLambda,
                      double* fluxRegister, std::span<const int> patches, long long* fallbacks) {
  if (layout.cellsPerAxis > kMaxCellsPerAxis)
    throw std::invalid_argument("schemeUpdateHost: at most 128 cells per patch axis");
  if (layout.halo < Recon::kHalo)
    throw std::invalid_argument("schemeUpdateHost: " + std::string(Recon::kName) +
                                " needs a halo of " + std::to_string(Recon::kHalo) +
                                ", the patches have " + std::to_string(layout.halo));
  const std::size_t ps = layout.patchStride();
  const bool listed = !patches.empty();
  const int count = listed ? int(patches.size()) : int(geometry.size());
  const FluxRegisterLayout<PDE::kDim> registers{layout.cellsPerAxis, PDE::kNumVars};
  std::atomic<long long> total{0};
  forEachPatch(count, [&](int k) {
    thread_local detail::LineScratch<PDE> scratch;
    thread_local detail::RowBuffer<PDE::kNumVars> row;
    const int p = listed ? patches[std::size_t(k)] : k;
    const std::size_t at = std::size_t(p) * ps;
    const long long fell = detail::schemeUpdatePatch<Recon, Flux>(
        pde, layout, geometry[p], q + at, qOut + at, stage, stage.q0 ? stage.q0 + at : nullptr,
        scratch, fluxRegister ? fluxRegister + p * registers.patchStride() : nullptr);
    if (fell)
      total += fell;
    patchLambda[p] = detail::patchMaxEigenvalue(pde, layout, qOut + at, row);
  });
  if (fallbacks)
    *fallbacks += total.load();
}

} // namespace tessera
