#pragma once
// Piecewise linear reconstruction (MUSCL, van Leer 1979) on the primitive variables, with a slope
// limiter (numerics/reconstruct/limiters.hpp): cell i's value at its lower and upper faces is
// w_i -+ slope / 2, slope = Limiter(w_i - w_i-1, w_i+1 - w_i) per variable. A face reads two
// cells on each side: a halo of two. Primitive rather than conserved variables, because limiting
// them keeps pressure and velocity free of the oscillations that limiting energy and momentum
// leaves at contacts.
#include "engine/backend.hpp"

namespace tessera {

template <class Limiter>
struct Plm {
  static constexpr const char* kName = "plm";
  static constexpr int kHalo = 2;
  static constexpr bool kPrimitive = true;

  template <class State>
  TESSERA_INLINE static void faces(const State& below, const State& w, const State& above,
                                   State& lower, State& upper) {
    for (int v = 0; v < State::size(); ++v) {
      const double half = 0.5 * Limiter::slope(w[v] - below[v], above[v] - w[v]);
      lower[v] = w[v] - half;
      upper[v] = w[v] + half;
    }
  }
};

} // namespace tessera
