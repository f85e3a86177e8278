#pragma once
// Quantities of an ideal gas that follow from one primitive state (rho, u, p) of Euler<Dim>: for
// output and diagnostics. Tessera's variables are nondimensional unless the case's data are not;
// a gas constant R (physics.gas_constant, 1 by default) gives temperature and entropy their units.
#include <cmath>

#include "engine/backend.hpp"
#include "physics/euler/euler.hpp"

namespace tessera::euler {

template <int Dim>
TESSERA_INLINE double speed(const typename Euler<Dim>::State& w) {
  double squared = 0.0;
  for (int a = 0; a < Dim; ++a)
    squared += w[Euler<Dim>::kMomentum + a] * w[Euler<Dim>::kMomentum + a];
  return std::sqrt(squared);
}

// c = sqrt(gamma p / rho).
template <int Dim>
TESSERA_INLINE double soundSpeed(const Euler<Dim>& pde, const typename Euler<Dim>::State& w) {
  return std::sqrt(pde.gamma * w[Euler<Dim>::kEnergy] / w[Euler<Dim>::kDensity]);
}

// |u| / c.
template <int Dim>
TESSERA_INLINE double machNumber(const Euler<Dim>& pde, const typename Euler<Dim>::State& w) {
  return speed<Dim>(w) / soundSpeed(pde, w);
}

// T = p / (rho R), from the ideal-gas law.
template <int Dim>
TESSERA_INLINE double temperature(const typename Euler<Dim>::State& w, double gasConstant) {
  return w[Euler<Dim>::kEnergy] / (w[Euler<Dim>::kDensity] * gasConstant);
}

// The specific entropy above that of the state rho = 1, p = 1:
// s = c_v ln(p / rho^gamma), with c_v = R / (gamma - 1). Constant along a particle path in smooth
// flow; it rises across a shock.
template <int Dim>
TESSERA_INLINE double specificEntropy(const Euler<Dim>& pde, const typename Euler<Dim>::State& w,
                                      double gasConstant) {
  const double cv = gasConstant / (pde.gamma - 1.0);
  return cv * (std::log(w[Euler<Dim>::kEnergy]) - pde.gamma * std::log(w[Euler<Dim>::kDensity]));
}

} // namespace tessera::euler
