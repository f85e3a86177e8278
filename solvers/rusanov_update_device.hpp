#pragma once
// The fused first-order Rusanov update on the device (CUDA or HIP): one patch per thread block;
// the patch with its halo is loaded into shared memory variable by variable (coalesced along x),
// the face fluxes of both axes are computed there, the update is written once, and the largest
// eigenvalue of the new state is reduced in shared memory to one value per patch. No temporaries
// in global memory. The host twin is rusanovUpdateHost.
//
// So far for 2D patches, N up to 32; the 3D kernel that marches z planes comes next.
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

// All pointers are device pointers: the state (with halos filled) and qNew laid out as layout
// says, one geometry and one eigenvalue per patch.
template <class PDE>
void rusanovUpdateDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                         const PatchGeometry<PDE::kDim>* geometry, int numPatches, const double* q,
                         double* qNew, double dt, double* patchLambda);

} // namespace tessera
