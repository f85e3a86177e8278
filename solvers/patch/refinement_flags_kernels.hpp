#pragma once
// Device twin of refinementFlagsHost: per patch the largest indicator over its interior cells, in
// one pass that reads each cell once. Device code: include it from a .cu file only
// (solvers/patch/patch_kernels.hpp).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/device_array.hpp"
#include "engine/gpu_runtime.hpp"
#include "patches/face_links.hpp"
#include "solvers/patch/refinement_flags.hpp"

namespace tessera {
namespace refinement_kernels {

constexpr int kFlagThreads = 256;
// Shared memory a block stages its window in: 28 KB, with the reduction's 2 KB, lets seven
// 256-thread blocks share a multiprocessor (228 KB), and holds the three planes of 34^2 cells that
// patches of 32^3 need at the least.
constexpr std::size_t kWindowBytes = 28 * 1024;

// Cells of one plane of the window: the patch's plane with a ring of face halo cells.
template <int Dim>
TESSERA_INLINE int windowPlaneCells(int cellsPerAxis) {
  const int pitch = cellsPerAxis + 2;
  return Dim == 3 ? pitch * pitch : pitch;
}

// The planes (along the last axis) a block stages at once, beside the two it keeps from the slab
// before: as many as the window holds, at most the patch's. 0 where not even one fits.
template <int Dim>
int slabPlanes(const PatchLayout<Dim>& layout) {
  const std::size_t planeBytes =
      std::size_t(windowPlaneCells<Dim>(layout.cellsPerAxis)) * sizeof(double);
  const std::size_t planes = kWindowBytes / planeBytes;
  return planes < 3 ? 0 : int(std::min<std::size_t>(planes - 2, layout.cellsPerAxis));
}

// One block a patch, marching along the last axis (y in 2D, z in 3D) slab by slab: the block
// computes the criterion's quantity of the slab's cells and of the face halo cells around them
// once each into shared memory (a primitive quantity costs a division or more, and reads every
// variable of the cell), keeping the slab's last two planes for the next, evaluates the indicator
// of the slab's interior cells from there, and reduces the largest over its threads (fmax: exact
// and order-free, as on the host). Indicators read a cell's neighbours along the axes only, so
// edge and corner halo cells are neither read nor staged; a linked face's halo cells come from
// the neighbour (faceLinks). Each cell of the state is read once: the quantity is never stored.
template <class PDE>
__global__ void __launch_bounds__(kFlagThreads)
    refinementFlagsKernel(PDE pde, PatchLayout<PDE::kDim> layout, amr::IndicatorCriterion criterion,
                          const double* q, const int* faceLinks, const int* patches, int slab,
                          amr::AdaptFlag* flags) {
  constexpr int kDim = PDE::kDim, kMarch = kDim - 1;
  extern __shared__ double window[]; // slab + 2 planes of (N + 2)^(Dim - 1) cells
  __shared__ double partial[kFlagThreads];
  const int tid = int(threadIdx.x), N = layout.cellsPerAxis;
  const int p = patches ? patches[blockIdx.x] : int(blockIdx.x);
  const int pitch = N + 2, planeCells = windowPlaneCells<kDim>(N);
  const int rowCells = kDim == 3 ? N * N : N; // interior cells of a plane
  const double* patch = q + std::size_t(p) * layout.patchStride();

  // Window plane w holds plane z0 - 1 + w of the patch, cell (x + 1) + (y + 1) pitch.
  int z0 = 0;
  const auto at = [&](const CellIndex<kDim>& c) {
    const int inPlane = kDim == 3 ? (c[1] + 1) * pitch + c[0] + 1 : c[0] + 1;
    return window[(c[kMarch] - z0 + 1) * planeCells + inPlane];
  };
  // Stages planes z0 - 1 + first .. z0 - 1 + last (window planes first .. last).
  const auto stage = [&](int first, int last) {
    for (int n = tid; n < (last - first + 1) * planeCells; n += kFlagThreads) {
      const int w = first + n / planeCells, inPlane = n % planeCells;
      CellIndex<kDim> c;
      c[0] = inPlane % pitch - 1;
      if constexpr (kDim == 3)
        c[1] = inPlane / pitch - 1;
      c[kMarch] = z0 - 1 + w;
      int outside = 0, face = -1;
      for (int a = 0; a < kDim; ++a)
        if (c[a] < 0 || c[a] >= N) {
          ++outside;
          face = 2 * a + (c[a] < 0 ? 0 : 1);
        }
      if (outside > 1)
        continue; // an edge or corner
      const std::ptrdiff_t shift = outside == 1 ? faceLinkShift(layout, faceLinks, p, face) : 0;
      window[w * planeCells + inPlane] =
          CriterionQuantity<PDE>{pde, layout, criterion, patch + shift}(c);
    }
  };

  double largest = amr::indicatorFloor(criterion);
  stage(0, 1);
  for (; z0 < N; z0 += slab) {
    const int planes = z0 + slab <= N ? slab : N - z0;
    stage(2, planes + 1);
    __syncthreads();
    for (int n = tid; n < planes * rowCells; n += kFlagThreads) {
      CellIndex<kDim> c;
      c[0] = n % N;
      if constexpr (kDim == 3)
        c[1] = n / N % N;
      c[kMarch] = z0 + n / rowCells;
      largest = std::fmax(largest, amr::cellIndicator<kDim>(criterion, at, c));
    }
    __syncthreads();
    if (z0 + planes < N) { // the next slab's planes z0 + slab - 1 and z0 + slab, one at a time
      for (int w = 0; w < 2; ++w) { // (with a slab of one plane, source and target overlap)
        for (int n = tid; n < planeCells; n += kFlagThreads)
          window[w * planeCells + n] = window[(planes + w) * planeCells + n];
        __syncthreads();
      }
    }
  }

  partial[tid] = largest;
  __syncthreads();
  for (int s = kFlagThreads / 2; s > 0; s /= 2) {
    if (tid < s)
      partial[tid] = std::fmax(partial[tid], partial[tid + s]);
    __syncthreads();
  }
  if (tid == 0)
    flags[p] = amr::flagFor(criterion, partial[0]);
}

} // namespace refinement_kernels

template <ConservationLaw PDE>
void refinementFlagsDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                           const amr::IndicatorCriterion& criterion, const double* q,
                           int numPatches, amr::AdaptFlag* flags, const int* faceLinks,
                           const int* patches) {
  if (numPatches == 0)
    return;
  const int slab = refinement_kernels::slabPlanes(layout);
  if (slab == 0)
    throw std::invalid_argument("refinementFlagsDevice: patches of " +
                                std::to_string(layout.cellsPerAxis) +
                                " cells per axis are too large for the criterion's window");
  const std::size_t window =
      std::size_t(slab + 2) *
      std::size_t(refinement_kernels::windowPlaneCells<PDE::kDim>(layout.cellsPerAxis)) *
      sizeof(double);
  refinement_kernels::refinementFlagsKernel<PDE>
      <<<numPatches, refinement_kernels::kFlagThreads, window>>>(pde, layout, criterion, q,
                                                                 faceLinks, patches, slab, flags);
  TESSERA_GPU_CHECK_LAUNCH();
}

} // namespace tessera
