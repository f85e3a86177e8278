#pragma once
// The face-link offsets (faceLinkShift) and x-face buffer slots of the patches a block of a fused
// kernel updates, loaded once into shared memory, where the loads of halo planes and ring cells
// read them. Device code: include it from a kernel header only.
#include <cstddef>

#include "patches/face_links.hpp"
#include "patches/patch_layout.hpp"
#include "patches/x_face_buffer.hpp"

namespace tessera {

// The patch of row r of a block of a fused kernel's launch: in 3D (one patch a block) the launch's
// blockIdx.x-th patch, in 2D (Patches rows of patches) patch blockIdx.x * Patches + r, or the last
// where the rows run past it; the k-th patch of a launch is patches[k], or k without a list.
template <int Dim, int Patches>
__device__ inline int blockRowPatch(int r, const int* patches, int numPatches) {
  const int k = Dim == 3 ? int(blockIdx.x) : min(int(blockIdx.x) * Patches + r, numPatches - 1);
  return patches ? patches[k] : k;
}

// shift[r][face] for each of the block's Patches patches (blockRowPatch). The threads share the
// entries out; the caller synchronises before reading them.
template <int Dim, int Patches>
__device__ inline void loadBlockLinkShifts(std::ptrdiff_t (&shift)[Patches][2 * Dim],
                                           const PatchLayout<Dim>& layout, const int* faceLinks,
                                           const int* patches, int numPatches, int threads) {
  for (int e = int(threadIdx.x); e < Patches * 2 * Dim; e += threads) {
    const int patch = blockRowPatch<Dim, Patches>(e / (2 * Dim), patches, numPatches);
    shift[e / (2 * Dim)][e % (2 * Dim)] = faceLinkShift(layout, faceLinks, patch, e % (2 * Dim));
  }
}

// slot[r][side]: the x-face buffer slot (XFaceBufferView) of each x face of the same patches, -1
// where the face is read from the halo or a face link (all of them without a buffer).
template <int Dim, int Patches>
__device__ inline void loadBlockXFaceSlots(int (&slot)[Patches][2], const int* bufferSlots,
                                           const int* patches, int numPatches, int threads) {
  for (int e = int(threadIdx.x); e < Patches * 2; e += threads) {
    const int patch = blockRowPatch<Dim, Patches>(e / 2, patches, numPatches);
    slot[e / 2][e % 2] = bufferSlots ? bufferSlots[2 * patch + e % 2] : -1;
  }
}

} // namespace tessera
