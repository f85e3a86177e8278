#pragma once
// The update of a pseudo-time step, cell by cell, under-relaxed so that no step leaves the gas
// (the local under-relaxation of SU2 and FUN3D): cell c takes q_c += alpha_c dq_c, alpha_c the
// largest of 1, 1/2, 1/4, ..., 2^-kHalvings for which its density and its pressure each change by
// at most kMaxChange of their values, and 0 (the cell keeps its state) where none does. Both
// bounds are relative, so they hold the same for any unit of the state. A converged state has
// dq = 0, so the relaxation leaves the steady state alone; it only shapes the path to it. The
// same code on the host and on the device.
#include "engine/backend.hpp"
#include "physics/euler/euler.hpp"

namespace tessera {

struct RelaxedUpdateLimits {
  static constexpr double kMaxChange = 0.2;
  static constexpr int kHalvings = 10;
};

// The factor alpha of one cell (q its state, dq its update).
template <class T>
TESSERA_INLINE double relaxationFactor(const Euler<3>& pde, const double* q, const T* dq) {
  Euler<3>::State s;
  for (int v = 0; v < 5; ++v)
    s[v] = q[v];
  const double rho = s[Euler<3>::kDensity], p = pde.pressure(s);
  const double bound = RelaxedUpdateLimits::kMaxChange;
  double alpha = 1.0;
  for (int halving = 0; halving <= RelaxedUpdateLimits::kHalvings; ++halving) {
    Euler<3>::State next;
    for (int v = 0; v < 5; ++v)
      next[v] = s[v] + alpha * double(dq[v]);
    const double dRho = next[Euler<3>::kDensity] - rho, dP = pde.pressure(next) - p;
    // Written so that a NaN fails: a non-finite update is never taken.
    if (dRho <= bound * rho && -dRho <= bound * rho && dP <= bound * p && -dP <= bound * p)
      return alpha;
    alpha *= 0.5;
  }
  return 0.0;
}

// q_c += alpha_c dq_c for every cell; alpha_c goes to alpha[c] for the first `recorded` cells (a
// distributed solver's owned ones), whose smallest the step reports.
template <class T>
struct RelaxedCellUpdate {
  Euler<3> pde;
  const T* dq;
  double* q;
  double* alpha;
  int recorded;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    const double a = relaxationFactor(pde, q + 5 * c, dq + 5 * c);
    if (a > 0.0) // not 0 * dq: a dropped update may be one that is not finite
      for (int v = 0; v < 5; ++v)
        q[5 * c + v] += a * double(dq[5 * c + v]);
    if (c < recorded)
      alpha[c] = a;
  }
};

} // namespace tessera
