#pragma once
// The largest |eigenvalue| over every axis of one state, for the time step: written once for the
// host and device updates.
#include "engine/backend.hpp"
#include "physics/conservation_law.hpp"
#include "physics/optional_members.hpp"

namespace tessera::detail {

// The largest eigenvalue over all axes of one state. A PDE may provide maxEigenvalueAllAxes when
// it computes that more cheaply than Dim separate calls (Euler shares one sound speed).
template <ConservationLaw PDE>
TESSERA_INLINE double maxEigenvalueAllAxes(const PDE& pde, const typename PDE::State& s) {
  if constexpr (ProvidesMaxEigenvalueAllAxes<PDE>) {
    return pde.maxEigenvalueAllAxes(s);
  } else {
    double lambda = 0.0;
    for (int a = 0; a < PDE::kDim; ++a) {
      const double l = pde.maxEigenvalue(s, a);
      lambda = l > lambda || l != l ? l : lambda;
    }
    return lambda;
  }
}

} // namespace tessera::detail
