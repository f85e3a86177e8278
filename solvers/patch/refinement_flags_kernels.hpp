#pragma once
// Device twin of refinementFlagsHost: the criterion's quantity once per cell, then per patch the
// largest indicator over its interior cells. Device code: include it from a .cu file only
// (solvers/patch/patch_kernels.hpp).
#include "engine/device_array.hpp"
#include "engine/gpu_runtime.hpp"
#include "patches/face_links.hpp"
#include "solvers/patch/refinement_flags.hpp"

namespace tessera {
namespace refinement_kernels {

constexpr int kFlagThreads = 256;

// The criterion's quantity at every cell of every patch, halo included, evaluated once: the
// indicators then read it 2 Dim + 1 times per cell (a primitive quantity costs a division or
// more per evaluation, and reads every variable of the cell). A linked face's halo cells take the
// neighbour's cells; edge and corner cells, which no indicator reads, whatever lies there.
template <class PDE>
__global__ void __launch_bounds__(kFlagThreads)
    criterionQuantityKernel(PDE pde, PatchLayout<PDE::kDim> layout,
                            amr::IndicatorCriterion criterion, const double* q,
                            const int* faceLinks, std::size_t numValues, double* quantity) {
  const std::size_t i = std::size_t(blockIdx.x) * kFlagThreads + threadIdx.x;
  if (i >= numValues)
    return;
  const std::size_t cells = layout.varStride();
  const std::size_t patch = i / cells;
  int offset = int(i % cells);
  CellIndex<PDE::kDim> c;
  int face = -1, outside = 0;
  for (int a = 0; a < PDE::kDim; ++a) {
    c[a] = offset % layout.extent() - layout.halo;
    offset /= layout.extent();
    if (c[a] < 0 || c[a] >= layout.cellsPerAxis) {
      face = 2 * a + (c[a] < 0 ? 0 : 1);
      ++outside;
    }
  }
  const std::ptrdiff_t shift =
      outside == 1 ? faceLinkShift(layout, faceLinks, int(patch), face) : 0;
  quantity[i] =
      CriterionQuantity<PDE>{pde, layout, criterion, q + patch * layout.patchStride() + shift}(c);
}

// One block per patch, threads over its interior cells, the largest indicator reduced in shared
// memory (fmax: exact and order-free, as on the host).
template <int Dim>
__global__ void __launch_bounds__(kFlagThreads)
    refinementFlagsKernel(PatchLayout<Dim> layout, amr::IndicatorCriterion criterion,
                          const double* quantity, amr::AdaptFlag* flags) {
  __shared__ double partial[kFlagThreads];
  const int p = blockIdx.x;
  const double* patch = quantity + std::size_t(p) * layout.varStride();
  const auto at = [&](const CellIndex<Dim>& c) { return patch[layout.cellOffset(c)]; };
  double largest = amr::indicatorFloor(criterion);
  for (int n = threadIdx.x; n < layout.interiorCells(); n += kFlagThreads)
    largest = std::fmax(largest, amr::cellIndicator<Dim>(criterion, at, layout.interiorCell(n)));
  partial[threadIdx.x] = largest;
  __syncthreads();
  for (int s = kFlagThreads / 2; s > 0; s /= 2) {
    if (int(threadIdx.x) < s)
      partial[threadIdx.x] = std::fmax(partial[threadIdx.x], partial[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    flags[p] = amr::flagFor(criterion, partial[0]);
}

} // namespace refinement_kernels

template <ConservationLaw PDE>
void refinementFlagsDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                           const amr::IndicatorCriterion& criterion, const double* q,
                           int numPatches, amr::AdaptFlag* flags, const int* faceLinks) {
  if (numPatches == 0)
    return;
  const std::size_t numValues = std::size_t(numPatches) * layout.varStride();
  DeviceArray<double> quantity(numValues, MemorySpace::Device); // from the pool; freed in order
  const unsigned blocks = unsigned((numValues + refinement_kernels::kFlagThreads - 1) /
                                   refinement_kernels::kFlagThreads);
  refinement_kernels::criterionQuantityKernel<PDE><<<blocks, refinement_kernels::kFlagThreads>>>(
      pde, layout, criterion, q, faceLinks, numValues, quantity.data());
  TESSERA_GPU_CHECK_LAUNCH();
  refinement_kernels::refinementFlagsKernel<PDE::kDim>
      <<<numPatches, refinement_kernels::kFlagThreads>>>(layout, criterion, quantity.data(), flags);
  TESSERA_GPU_CHECK_LAUNCH();
}

} // namespace tessera
