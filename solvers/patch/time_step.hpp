#pragma once
// The time step dt = CFL * min over patches of (smallest dx / largest eigenvalue), of one rank's
// patches: infinite where no patch limits it (none moves, or the rank has no patches), which the
// caller judges once over every rank. For the unsplit update in d dimensions this is stable for
// CFL <= 1/d.
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>

#include "patches/patch_geometry.hpp"
#include "solvers/unphysical_state.hpp"

namespace tessera {

template <int Dim>
double stableTimeStep(double cfl, std::span<const double> patchLambda,
                      std::span<const PatchGeometry<Dim>> geometry) {
  double dtMin = INFINITY;
  for (std::size_t p = 0; p < patchLambda.size(); ++p) {
    const double lambda = patchLambda[p];
    if (!std::isfinite(lambda) || lambda < 0.0)
      throw UnphysicalStateError("patch " + std::to_string(p) + ": largest eigenvalue is " +
                                 std::to_string(lambda) + " (of its cells or its halo's)");
    if (lambda > 0.0)
      dtMin = std::fmin(dtMin, geometry[p].minSpacing() / lambda);
  }
  return cfl * dtMin;
}

} // namespace tessera
