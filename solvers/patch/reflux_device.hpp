#pragma once
// Refluxing on the device in one launch: the twin of reflux (patches/flux_register.hpp) followed
// by maxEigenvaluesHost over the corrected patches.
#include "patches/flux_register_device.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

// Adds to qNew what refluxing adds to each coarse cell of the plan (device pointers: one geometry
// per patch, the flux register as FluxRegisterLayout says, qNew as the layout says) and completes
// the corrected patches' eigenvalues: the update left the cells of the refluxed faces' layers out
// of patchLambda (fusedUpdateDevice's refluxFaces), and the largest eigenvalue of those cells,
// corrected, is taken into it, NaN winning. A cell two or three operations correct (along an edge
// or at a corner of a coarse patch) gets their corrections in the order of their axes, x first,
// so that a run repeats bit for bit; the host twin adds them in the plan's order: equal up to
// round-off. Asynchronous; no launch for an empty plan.
template <class PDE>
void refluxDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                  const RefluxPlanView<PDE::kDim>& plan, const PatchGeometry<PDE::kDim>* geometry,
                  const double* fluxRegister, double dt, double* qNew, double* patchLambda);

} // namespace tessera
