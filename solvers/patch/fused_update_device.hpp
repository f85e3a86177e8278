#pragma once
// The fused update on the device for any spatial scheme and Runge-Kutta stage: the one entry the
// PatchSolver calls, the twin of fusedUpdateHost (fused_update_host.hpp). The first-order
// Rusanov forward-Euler step takes its column-marching kernel (rusanov_update_device.hpp), every
// other combination the scheme kernel (scheme_update_kernels.hpp). Instantiated per PDE by
// TESSERA_INSTANTIATE_PATCH_KERNELS (patch_kernels.hpp).
#include "numerics/spatial_scheme.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"
#include "patches/x_face_buffer.hpp"
#include "solvers/patch/refinement_flags.hpp"
#include "solvers/patch/stage_weights.hpp"

namespace tessera {

// Writes the interior of qOut and each updated row's x halo cells, the latter with copies of the
// row's end cells, one a side or the scheme's halo width (row_end_copies.hpp); q and qOut must
// differ. All pointers are device pointers (stage.q0 too); `patches` lists the numPatches patches
// to update, or is null for patches 0 .. numPatches - 1; cells that fell back to first order are
// added to *fallbacks where it is given; with faceLinks (FaceLinks::neighbour) the linked faces'
// halo cells are read from the neighbours, not the halo; with a criterion, the updated patches'
// flags from q as well (UpdateCriterion: inside the first-order kernel, a pass of its own before
// the scheme kernel); with refluxFaces (per patch, the faces refluxing will correct and those whose
// fluxes it reads: RefluxPlanView::refluxFaces) the cells of the corrected faces' layers are left
// out of the patch's eigenvalue, which refluxDevice completes, and only the registered faces'
// fluxes are written to the flux register (every face's without refluxFaces). With xFaces, the
// first-order forward-Euler step reads the x faces that have a slot there from that buffer
// (patches/x_face_buffer.hpp); other schemes and stages take none (std::invalid_argument).
// Asynchronous.
template <class PDE>
void fusedUpdateDevice(const PDE& pde, const SpatialScheme& scheme,
                       const PatchLayout<PDE::kDim>& layout,
                       const PatchGeometry<PDE::kDim>* geometry, int numPatches, const double* q,
                       double* qOut, const StageWeights& stage, double* patchLambda,
                       double* fluxRegister, const int* patches, unsigned long long* fallbacks,
                       const int* faceLinks = nullptr, const UpdateCriterion* criterion = nullptr,
                       const int* refluxFaces = nullptr, XFaceBufferView xFaces = {});

} // namespace tessera
