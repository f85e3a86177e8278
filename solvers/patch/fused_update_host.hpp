#pragma once
// The fused update on the host for any spatial scheme and Runge-Kutta stage: the one entry the
// PatchSolver calls. The first-order Rusanov forward-Euler step takes its own vectorised sweeps
// (rusanov_update_host.hpp); every other combination the scheme kernel (scheme_update_host.hpp),
// instantiated per (reconstruction, Riemann solver) through numerics/spatial_scheme.hpp.
#include <span>

#include "numerics/spatial_scheme.hpp"
#include "solvers/patch/rusanov_update_host.hpp"
#include "solvers/patch/scheme_update_host.hpp"
#include "solvers/patch/stage_weights.hpp"

namespace tessera {

template <ConservationLaw PDE>
void fusedUpdateHost(const PDE& pde, const SpatialScheme& scheme,
                     const PatchLayout<PDE::kDim>& layout,
                     std::span<const PatchGeometry<PDE::kDim>> geometry, const double* q,
                     double* qOut, const StageWeights& stage, double* patchLambda,
                     double* fluxRegister, std::span<const int> patches, long long* fallbacks) {
  if (scheme.firstOrderRusanov() && stage.forwardEuler()) {
    rusanovUpdateHost(pde, layout, geometry, q, qOut, stage.dt, patchLambda, fluxRegister, patches);
    return;
  }
  withSpatialScheme<PDE>(scheme, [&]<class Recon, class Flux>() {
    schemeUpdateHost<Recon, Flux>(pde, layout, geometry, q, qOut, stage, patchLambda, fluxRegister,
                                  patches, fallbacks);
  });
}

} // namespace tessera
