#pragma once
// source_device.hpp's functions: the bodies of source_terms.hpp, one block per patch
// (forEachPatchCellDevice). Device code: include it from a .cu file only
// (solvers/patch/patch_kernels.hpp).
#include "engine/parallel_for_device.hpp"
#include "solvers/patch/source_device.hpp"
#include "solvers/patch/source_terms.hpp"

namespace tessera {

template <class PDE>
void addSourceDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                     const PatchGeometry<PDE::kDim>* geometry, int numPatches, const double* in,
                     double* out, double weight, double time, const double* residual) {
  forEachPatchCellDevice(
      numPatches, layout.interiorCells(),
      AddSourceBody<PDE>{pde, layout, geometry, in, out, weight, time, residual});
}

template <class PDE>
void equilibriumResidualDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                               const PatchGeometry<PDE::kDim>* geometry, int numPatches,
                               const double* equilibrium, const double* stepped, double dt,
                               double time, double* residual) {
  forEachPatchCellDevice(numPatches, layout.interiorCells(),
                         EquilibriumResidualBody<PDE>{pde, layout, geometry, equilibrium, stepped,
                                                      dt, time, residual});
}

} // namespace tessera
