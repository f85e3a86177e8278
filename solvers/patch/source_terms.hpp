#pragma once
// A stage's source terms and a well-balanced run's equilibrium residual, pointwise over the
// interior cells: the bodies that the host (forEachPatchCell) and the device
// (forEachPatchCellDevice, source_kernels.hpp) run alike.
//
// A stage writes out = keep q0 + advance (in + dt (L_F(in) + S(in))). The fused update writes the
// flux part; the source pass then adds advance dt S(in, x, t), which reads only `in`, so that it
// commutes with refluxing. A run made well balanced about an equilibrium state q_e
// (PatchSolver::setEquilibrium) subtracts the discrete operator's residual on q_e,
//   R_e = L_F(q_e) + S(q_e),
// in the same pass: q_e, which the scheme would move by O(h^p), then stays exactly as it is (to
// round-off), and every other state sees a consistent scheme for any system and spatial scheme.
// This is Berberich, Chandrashekar and Klingenberg's construction (Computers & Fluids 219, 2021,
// "High order well-balanced finite volume methods for multi-dimensional systems of hyperbolic
// balance laws").
#include "engine/backend.hpp"
#include "engine/small_vector.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"
#include "physics/optional_members.hpp"
#include "solvers/patch/cell_state.hpp"

namespace tessera {

// S(q, x, t) of the system, zero where it has none.
template <class PDE>
TESSERA_INLINE typename PDE::State sourceAt(const PDE& pde, const typename PDE::State& q,
                                            const Vec<double, PDE::kDim>& x, double t) {
  if constexpr (ProvidesSource<PDE>)
    return pde.source(q, x, t);
  else
    return PDE::State::filled(0.0);
}

// out += weight (S(in, x, t) - residual), residual optional (null: none); weight is the stage's
// advance dt.
template <class PDE>
struct AddSourceBody {
  PDE pde;
  PatchLayout<PDE::kDim> layout;
  const PatchGeometry<PDE::kDim>* geometry;
  const double* in;
  double* out;
  double weight, time;
  const double* residual;

  TESSERA_INLINE void operator()(int p, int n) const {
    const CellIndex<PDE::kDim> c = layout.interiorCell(n);
    const typename PDE::State s =
        sourceAt(pde, loadState<PDE>(layout, in, p, c), geometry[p].cellCenter(c), time);
    for (int v = 0; v < PDE::kNumVars; ++v) {
      const std::size_t i = layout.index(p, v, c);
      out[i] += weight * (residual ? s[v] - residual[i] : s[v]);
    }
  }
};

// residual = (stepped - equilibrium) / dt + S(equilibrium, x, t), where stepped is the equilibrium
// after the fused update and refluxing of a forward-Euler step of dt.
template <class PDE>
struct EquilibriumResidualBody {
  PDE pde;
  PatchLayout<PDE::kDim> layout;
  const PatchGeometry<PDE::kDim>* geometry;
  const double* equilibrium;
  const double* stepped;
  double dt, time;
  double* residual;

  TESSERA_INLINE void operator()(int p, int n) const {
    const CellIndex<PDE::kDim> c = layout.interiorCell(n);
    const typename PDE::State s =
        sourceAt(pde, loadState<PDE>(layout, equilibrium, p, c), geometry[p].cellCenter(c), time);
    for (int v = 0; v < PDE::kNumVars; ++v) {
      const std::size_t i = layout.index(p, v, c);
      residual[i] = (stepped[i] - equilibrium[i]) / dt + s[v];
    }
  }
};

} // namespace tessera
