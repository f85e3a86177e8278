#pragma once
// The HLLE flux (Harten, Lax & van Leer 1983; Einfeldt 1988): one intermediate state between the
// slowest and fastest signals S_L <= S_R (Davis's estimates, numerics/flux/wave_speeds.hpp):
//   F = F_L                                                      if 0 <= S_L,
//       (S_R F_L - S_L F_R + S_L S_R (q_R - q_L)) / (S_R - S_L)  if S_L < 0 < S_R,
//       F_R                                                      if S_R <= 0.
// Any conservation law gets it; it resolves isolated shocks as sharply as HLLC but smears
// contacts and shear layers.
#include "engine/arithmetic.hpp"
#include "engine/backend.hpp"
#include "numerics/flux/wave_speeds.hpp"
#include "physics/conservation_law.hpp"

namespace tessera {

struct Hlle {
  static constexpr const char* kName = "hlle";
  template <ConservationLaw PDE>
  static constexpr bool kAppliesTo = true;

  template <ConservationLaw PDE>
  TESSERA_INLINE static typename PDE::State flux(const PDE& pde, const typename PDE::State& qL,
                                                 const typename PDE::State& qR, int axis) {
    const WaveSpeeds s = davisWaveSpeeds(pde, qL, qR, axis);
    if (s.slowest >= 0.0)
      return pde.flux(qL, axis);
    if (s.fastest <= 0.0)
      return pde.flux(qR, axis);
    const typename PDE::State fL = pde.flux(qL, axis), fR = pde.flux(qR, axis);
    const double inv = reciprocal(s.fastest - s.slowest);
    typename PDE::State F;
    for (int v = 0; v < PDE::kNumVars; ++v)
      F[v] =
          (s.fastest * fL[v] - s.slowest * fR[v] + s.slowest * s.fastest * (qR[v] - qL[v])) * inv;
    return F;
  }
};

} // namespace tessera
