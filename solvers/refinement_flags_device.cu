// Device twin of refinementFlagsHost: one block per patch, threads over its interior cells, the
// largest indicator reduced in shared memory (fmax: exact and order-free, as on the host).
#include "engine/gpu_runtime.hpp"
#include "solvers/advection.hpp"
#include "solvers/euler.hpp"
#include "solvers/refinement_flags.hpp"

namespace tessera {
namespace {

constexpr int kFlagThreads = 256;

template <class PDE>
__global__ void __launch_bounds__(kFlagThreads)
    refinementFlagsKernel(PDE pde, PatchLayout<PDE::kDim> layout, amr::IndicatorCriterion criterion,
                          const double* q, amr::AdaptFlag* flags) {
  __shared__ double partial[kFlagThreads];
  const int p = blockIdx.x;
  const CriterionQuantity<PDE> quantity{pde, layout, criterion, q + p * layout.patchStride()};
  double largest = amr::indicatorFloor(criterion);
  for (int n = threadIdx.x; n < layout.interiorCells(); n += kFlagThreads)
    largest = std::fmax(largest,
                        amr::cellIndicator<PDE::kDim>(criterion, quantity, layout.interiorCell(n)));
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

} // namespace

template <ConservationLaw PDE>
void refinementFlagsDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                           const amr::IndicatorCriterion& criterion, const double* q,
                           int numPatches, amr::AdaptFlag* flags) {
  if (numPatches == 0)
    return;
  refinementFlagsKernel<PDE><<<numPatches, kFlagThreads>>>(pde, layout, criterion, q, flags);
  TESSERA_GPU_CHECK_LAUNCH();
}

#define TESSERA_INSTANTIATE(PDE)                                                                   \
  template void refinementFlagsDevice(const PDE&, const PatchLayout<PDE::kDim>&,                   \
                                      const amr::IndicatorCriterion&, const double*, int,          \
                                      amr::AdaptFlag*);
TESSERA_INSTANTIATE(Euler<2>)
TESSERA_INSTANTIATE(Euler<3>)
TESSERA_INSTANTIATE(Advection<2>)
TESSERA_INSTANTIATE(Advection<3>)
#undef TESSERA_INSTANTIATE

} // namespace tessera
