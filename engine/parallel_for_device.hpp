#pragma once
// Device twins of engine/parallel_for.hpp: one thread block per patch, threads striding over the
// patch's cells. Included only from .cu translation units of a CUDA or HIP build.
#include "engine/gpu_runtime.hpp"

namespace tessera {
namespace detail {

template <class F>
__global__ void forEachPatchCellKernel(int cellsPerPatch, F f) {
  const int p = static_cast<int>(blockIdx.x);
  for (int c = static_cast<int>(threadIdx.x); c < cellsPerPatch; c += static_cast<int>(blockDim.x))
    f(p, c);
}

} // namespace detail

inline constexpr int kPatchBlockThreads = 256;

template <class F>
void forEachPatchCellDevice(int numPatches, int cellsPerPatch, F f) {
  if (numPatches == 0)
    return;
  detail::forEachPatchCellKernel<<<numPatches, kPatchBlockThreads>>>(cellsPerPatch, f);
  TESSERA_GPU_CHECK_LAUNCH();
}

} // namespace tessera
