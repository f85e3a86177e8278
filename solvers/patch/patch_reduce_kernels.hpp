#pragma once
// What the marching update kernels share (rusanov_update_kernels.hpp, scheme_update_kernels.hpp):
// their block shapes, and the per-patch reduction of the largest eigenvalue, where a NaN always
// wins so that the time step reports it. Device code: include it from a .cu file only.
#include <stdexcept>
#include <string>

#include "engine/gpu_runtime.hpp"
#include "patches/reflux_cell.hpp"

namespace tessera {

// The larger of two eigenvalues where a NaN always wins, so that the time step reports it.
__device__ inline double maxNaNWins(double kept, double candidate) {
  return candidate > kept || candidate != candidate ? candidate : kept;
}

// *target = maxNaNWins(*target, candidate) atomically, for eigenvalues: values >= +0 or NaN,
// whose bit patterns, read as unsigned integers, order as the values do and put every NaN above
// +infinity. Blocks that share a patch can fold their eigenvalues into its one in any order.
__device__ inline void atomicMaxNaNWins(double* target, double candidate) {
  atomicMax(reinterpret_cast<unsigned long long*>(target),
            static_cast<unsigned long long>(__double_as_longlong(candidate)));
}

// The cell of a marching column: x = i, in 3D y = j, and plane k along the last axis, the one the
// kernels march along (j is ignored in 2D).
template <int Dim>
__device__ inline CellIndex<Dim> columnCell(int i, int j, int k) {
  CellIndex<Dim> c{};
  c[0] = i;
  if constexpr (Dim == 3)
    c[1] = j;
  c[Dim - 1] = k;
  return c;
}

// A marching kernel's largest eigenvalue with that of its column's cell (i, j, k) updated to l,
// NaN winning; a cell in the layer of a face refluxing corrects (`refluxed`, faceLayersOf's bits)
// is left to refluxDevice, which completes the patch's.
template <int Dim>
__device__ inline double columnCellMax(double lambda, double l, int refluxed, int n, int i, int j,
                                       int k) {
  return refluxed & faceLayersOf(columnCell<Dim>(i, j, k), n) ? lambda : maxNaNWins(lambda, l);
}

// Reduces one value per thread by `larger` over aligned groups of `group` threads (a power of
// two dividing the block) in `scratch`, one double per thread; the group's first thread gets it.
// The scratch may alias shared memory that slower threads are still reading (the fused kernel's
// plane): hence the barrier before the first write.
template <class Larger>
__device__ inline double groupReduce(double value, int group, double* scratch, Larger larger) {
  const int tid = int(threadIdx.x);
  __syncthreads();
  scratch[tid] = value;
  __syncthreads();
  for (int s = 1; s < group; s *= 2) {
    if (tid % (2 * s) == 0)
      scratch[tid] = larger(scratch[tid], scratch[tid + s]);
    __syncthreads();
  }
  return scratch[tid];
}

// The largest eigenvalue of a group, NaN winning.
__device__ inline double groupMax(double value, int group, double* scratch) {
  return groupReduce(value, group, scratch, maxNaNWins);
}

// The largest refinement indicator of a group, as the host's std::fmax takes it (NaN loses).
__device__ inline double groupFmax(double value, int group, double* scratch) {
  return groupReduce(value, group, scratch, [](double a, double b) { return fmax(a, b); });
}

// launch.template operator()<N, Rows>() with the block shape for patches of cellsPerAxis cells:
// N threads along x times Rows rows, 128 threads in 2D (128 / N patches side by side), 256 for 3D
// patches of 16^3 and 32^3 (a 32^2 plane in four tiles), 64 for 8^3 (measured best for the
// first-order kernel on an H200, benchmarks/RESULTS.md).
template <int Dim, class Launch>
void withMarchShape(int cellsPerAxis, const char* kernel, Launch&& launch) {
  constexpr bool k3D = Dim == 3;
  switch (cellsPerAxis) {
  case 8:
    launch.template operator()<8, k3D ? 8 : 16>();
    break;
  case 16:
    launch.template operator()<16, k3D ? 16 : 8>();
    break;
  case 32:
    launch.template operator()<32, k3D ? 8 : 4>();
    break;
  default:
    throw std::invalid_argument(std::string(kernel) + ": patches of 8, 16 or 32 cells per axis");
  }
}

} // namespace tessera
