#pragma once
// The Rusanov (local Lax-Friedrichs) numerical flux, written once for every back end:
//   F(qL, qR) = (f(qL) + f(qR)) / 2 - s (qR - qL) / 2,  s = max(lambda(qL), lambda(qR)).
// rusanovFaceFlux takes the physical fluxes and eigenvalues already evaluated, so that a line
// sweep evaluates them once per cell rather than once per face side.
#include "engine/backend.hpp"
#include "physics/axis_flux.hpp"
#include "physics/conservation_law.hpp"
#include "physics/optional_members.hpp"

namespace tessera {

template <int N>
TESSERA_INLINE Vec<double, N> rusanovFaceFlux(const Vec<double, N>& qL, const Vec<double, N>& qR,
                                              const Vec<double, N>& fL, const Vec<double, N>& fR,
                                              double lambdaL, double lambdaR) {
  const double s = lambdaL > lambdaR ? lambdaL : lambdaR;
  Vec<double, N> F;
  for (int v = 0; v < N; ++v)
    F[v] = 0.5 * (fL[v] + fR[v]) - 0.5 * s * (qR[v] - qL[v]);
  return F;
}

// A state's flux and largest eigenvalue along one axis, and along every axis: the system's
// axisFlux and axisFluxes where it has them (physics/axis_flux.hpp), flux and maxEigenvalue else.
template <ConservationLaw PDE>
TESSERA_INLINE AxisFlux<typename PDE::State> axisFluxOf(const PDE& pde,
                                                        const typename PDE::State& q, int axis) {
  if constexpr (ProvidesAxisFlux<PDE>)
    return pde.axisFlux(q, axis);
  else
    return {pde.flux(q, axis), pde.maxEigenvalue(q, axis)};
}
template <ConservationLaw PDE>
TESSERA_INLINE Vec<AxisFlux<typename PDE::State>, PDE::kDim>
axisFluxesOf(const PDE& pde, const typename PDE::State& q) {
  if constexpr (ProvidesAxisFluxes<PDE>) {
    return pde.axisFluxes(q);
  } else {
    Vec<AxisFlux<typename PDE::State>, PDE::kDim> all;
    for (int a = 0; a < PDE::kDim; ++a)
      all[a] = axisFluxOf(pde, q, a);
    return all;
  }
}

template <ConservationLaw PDE>
TESSERA_INLINE typename PDE::State rusanovFlux(const PDE& pde, const typename PDE::State& qL,
                                               const typename PDE::State& qR, int axis) {
  return rusanovFaceFlux(qL, qR, pde.flux(qL, axis), pde.flux(qR, axis),
                         pde.maxEigenvalue(qL, axis), pde.maxEigenvalue(qR, axis));
}

// The Riemann-solver policy (numerics/flux/riemann_solver.hpp): every conservation law has it.
struct Rusanov {
  static constexpr const char* kName = "rusanov";
  template <ConservationLaw PDE>
  static constexpr bool kAppliesTo = true;

  template <ConservationLaw PDE>
  TESSERA_INLINE static typename PDE::State flux(const PDE& pde, const typename PDE::State& qL,
                                                 const typename PDE::State& qR, int axis) {
    return rusanovFlux(pde, qL, qR, axis);
  }
};

} // namespace tessera
