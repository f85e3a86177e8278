#pragma once
// Bounds on the signal speeds of a Riemann problem along an axis, for the HLL family: the slowest
// and fastest characteristic speeds of either state (Davis 1988; Toro 2009, eq. 10.48). A PDE
// that knows its slowest and fastest eigenvalues provides waveSpeeds(q, axis) -> {min, max};
// any other falls back to -+ its largest |eigenvalue|, which makes HLLE as diffusive as Rusanov
// but never wrong.
#include "engine/backend.hpp"
#include "physics/conservation_law.hpp"
#include "physics/optional_members.hpp"
#include "physics/wave_speeds.hpp"

namespace tessera {

template <ConservationLaw PDE>
TESSERA_INLINE WaveSpeeds waveSpeedsOf(const PDE& pde, const typename PDE::State& q, int axis) {
  if constexpr (ProvidesWaveSpeeds<PDE>) {
    return pde.waveSpeeds(q, axis);
  } else {
    const double lambda = pde.maxEigenvalue(q, axis);
    return {-lambda, lambda};
  }
}

// Davis's estimate: S_L = min(slowest of qL, slowest of qR), S_R = max(fastest of either).
template <ConservationLaw PDE>
TESSERA_INLINE WaveSpeeds davisWaveSpeeds(const PDE& pde, const typename PDE::State& qL,
                                          const typename PDE::State& qR, int axis) {
  const WaveSpeeds l = waveSpeedsOf(pde, qL, axis), r = waveSpeedsOf(pde, qR, axis);
  return {l.slowest < r.slowest ? l.slowest : r.slowest,
          l.fastest > r.fastest ? l.fastest : r.fastest};
}

} // namespace tessera
