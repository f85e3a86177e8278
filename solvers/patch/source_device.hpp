#pragma once
// The source pass and a well-balanced run's equilibrium residual on the device: the twins of
// AddSourceBody and EquilibriumResidualBody over the host's patches (source_terms.hpp), one
// block per patch. Device pointers throughout; asynchronous.
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

// out += weight (S(in, x, t) - residual) on the interiors of patches 0 .. numPatches - 1;
// residual may be null (none).
template <class PDE>
void addSourceDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                     const PatchGeometry<PDE::kDim>* geometry, int numPatches, const double* in,
                     double* out, double weight, double time, const double* residual);

// residual = (stepped - equilibrium) / dt + S(equilibrium, x, t) on the same interiors.
template <class PDE>
void equilibriumResidualDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                               const PatchGeometry<PDE::kDim>* geometry, int numPatches,
                               const double* equilibrium, const double* stepped, double dt,
                               double time, double* residual);

} // namespace tessera
