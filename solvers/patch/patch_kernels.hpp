#pragma once
// Every device kernel a PatchSolver runs for a PDE, and TESSERA_INSTANTIATE_PATCH_KERNELS(PDE),
// which instantiates them for one system. Tessera's own systems are instantiated in
// patch_kernels_2d_device.cu and patch_kernels_3d_device.cu; a system of a user's own takes one
// .cu file of its own:
//
//   #include "solvers/patch/patch_kernels.hpp"
//   #include "my_system.hpp"
//   TESSERA_INSTANTIATE_PATCH_KERNELS(MySystem<3>)
//
// Device code: include it from a .cu file only.
#include "solvers/patch/fused_update_device.hpp"
#include "solvers/patch/refinement_flags_kernels.hpp"
#include "solvers/patch/reflux_kernels.hpp"
#include "solvers/patch/rusanov_update_kernels.hpp"
#include "solvers/patch/scheme_update_kernels.hpp"
#include "solvers/patch/source_kernels.hpp"

namespace tessera {

template <class PDE>
void fusedUpdateDevice(const PDE& pde, const SpatialScheme& scheme,
                       const PatchLayout<PDE::kDim>& layout,
                       const PatchGeometry<PDE::kDim>* geometry, int numPatches, const double* q,
                       double* qOut, const StageWeights& stage, double* patchLambda,
                       double* fluxRegister, const int* patches, unsigned long long* fallbacks,
                       const int* faceLinks, const UpdateCriterion* criterion,
                       const int* refluxFaces, XFaceBufferView xFaces) {
  if (scheme.firstOrderRusanov() && stage.forwardEuler()) {
    rusanovUpdateDevice(pde, layout, geometry, numPatches, q, qOut, stage.dt, patchLambda,
                        fluxRegister, patches, faceLinks, criterion, refluxFaces, xFaces);
    return;
  }
  if (xFaces.slots)
    throw std::invalid_argument("fusedUpdateDevice: only the first-order forward-Euler step reads "
                                "an x-face buffer");
  if (criterion)
    refinementFlagsDevice(pde, layout, criterion->criterion, q, numPatches, criterion->flags,
                          faceLinks, patches);
  withSpatialScheme<PDE>(scheme, [&]<class Recon, class Flux>() {
    schemeUpdateDevice<Recon, Flux>(pde, layout, geometry, numPatches, q, qOut, stage, patchLambda,
                                    fluxRegister, patches, fallbacks, faceLinks, refluxFaces);
  });
}

} // namespace tessera

#define TESSERA_INSTANTIATE_PATCH_KERNELS(PDE)                                                     \
  template void tessera::fusedUpdateDevice(                                                        \
      const PDE&, const tessera::SpatialScheme&, const tessera::PatchLayout<PDE::kDim>&,           \
      const tessera::PatchGeometry<PDE::kDim>*, int, const double*, double*,                       \
      const tessera::StageWeights&, double*, double*, const int*, unsigned long long*, const int*, \
      const tessera::UpdateCriterion*, const int*, tessera::XFaceBufferView);                      \
  template void tessera::rusanovUpdateDevice(                                                      \
      const PDE&, const tessera::PatchLayout<PDE::kDim>&,                                          \
      const tessera::PatchGeometry<PDE::kDim>*, int, const double*, double*, double, double*,      \
      double*, const int*, const int*, const tessera::UpdateCriterion*, const int*,                \
      tessera::XFaceBufferView);                                                                   \
  template void tessera::refluxDevice(const PDE&, const tessera::PatchLayout<PDE::kDim>&,          \
                                      const tessera::RefluxPlanView<PDE::kDim>&,                   \
                                      const tessera::PatchGeometry<PDE::kDim>*, const double*,     \
                                      double, double*, double*);                                   \
  template void tessera::maxEigenvaluesDevice(const PDE&, const tessera::PatchLayout<PDE::kDim>&,  \
                                              int, const double*, double*, const int*,             \
                                              const double*);                                      \
  template void tessera::addSourceDevice(const PDE&, const tessera::PatchLayout<PDE::kDim>&,       \
                                         const tessera::PatchGeometry<PDE::kDim>*, int,            \
                                         const double*, double*, double, double, const double*);   \
  template void tessera::equilibriumResidualDevice(                                                \
      const PDE&, const tessera::PatchLayout<PDE::kDim>&,                                          \
      const tessera::PatchGeometry<PDE::kDim>*, int, const double*, const double*, double, double, \
      double*);                                                                                    \
  template void tessera::refinementFlagsDevice(                                                    \
      const PDE&, const tessera::PatchLayout<PDE::kDim>&, const tessera::amr::IndicatorCriterion&, \
      const double*, int, tessera::amr::AdaptFlag*, const int*, const int*);
