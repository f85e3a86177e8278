#pragma once
// The fused first-order Rusanov update on the device (CUDA or HIP), 2D and 3D, N = 8, 16, 32.
// A thread owns one column of cells along the last axis (y in 2D, z in 3D) and marches along it:
// the cell below, the face flux below and the partial update stay in registers; the current plane
// (a row in 2D) with its halo ring sits in shared memory for the faces of the other axes, each
// face computed once, while the next plane arrives there by asynchronous copies. The state with
// its halo is read once, the update written once, and the largest eigenvalue of the new state
// reduced to one value per patch; no temporaries in global memory. The host twin is
// rusanovUpdateHost (rusanov_update_host.hpp).
//
// Each row of the new state also gets its two x halo cells written, with copies of the row's
// first and last cells (the values a zero-gradient boundary would give them). Without them a
// row's 128 bytes (N = 16) fill three of the five 32-byte sectors they touch and part of the
// other two, and the L2 reads each part-written sector from DRAM before writing it back: 1.28
// instead of 1.05 GB read per launch on 4352 patches of 16^3, the update 12% slower on an H100
// (benchmarks/RESULTS.md). Every reader of a halo gets it from a fill or reads the neighbour
// through a face link first, so the copies are never read as halo values.
#include "patches/face_links.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"
#include "patches/x_face_buffer.hpp"
#include "solvers/patch/refinement_flags.hpp"

namespace tessera {

// One fused step over patches 0 .. numPatches - 1, or over the numPatches patches listed in
// `patches` (the others untouched): the interior of qNew and its rows' x halo cells (see above).
// All pointers are device pointers: the state q (halos filled,
// a halo of width >= 1, of which the kernel reads width 1) and qNew laid out as layout says, one
// geometry and one eigenvalue per patch, and optionally a flux register (FluxRegisterLayout, one
// block per patch) that receives the fluxes of the updated patches' boundary faces.
// With faceLinks (FaceLinks::neighbour, on the device) the halo cells of linked faces are read
// from the neighbours instead and need not be filled. With a criterion, the updated patches' flags
// from q as well (UpdateCriterion). With refluxFaces, the eigenvalues leave out the layers of
// the faces refluxing will correct and the register gets only the faces it reads
// (fusedUpdateDevice). With xFaces, the x faces that have a slot there are read from that buffer
// (patches/x_face_buffer.hpp) instead of the halo. Asynchronous.
template <class PDE>
void rusanovUpdateDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                         const PatchGeometry<PDE::kDim>* geometry, int numPatches, const double* q,
                         double* qNew, double dt, double* patchLambda,
                         double* fluxRegister = nullptr, const int* patches = nullptr,
                         const int* faceLinks = nullptr, const UpdateCriterion* criterion = nullptr,
                         const int* refluxFaces = nullptr, XFaceBufferView xFaces = {});

// The largest eigenvalue (over all axes and interior cells) of patches 0 .. count - 1 of q, into
// patchLambda; NaN if any cell gives NaN. Asynchronous. Where keptFrom (device memory, count
// entries) is given, a patch p with keptFrom[p] >= 0 holds the state an old patch had and takes
// its eigenvalue, keptLambda[keptFrom[p]], instead (a remesh's copied patches).
template <class PDE>
void maxEigenvaluesDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout, int count,
                          const double* q, double* patchLambda, const int* keptFrom = nullptr,
                          const double* keptLambda = nullptr);

} // namespace tessera
