#pragma once
// What the unfused device pipelines share (rusanov_unfused_device.cu, scheme_unfused_device.cu):
// the face grid of their flux temporaries and one-thread-per-item grid-stride loops (their state
// loads: cell_state.hpp). Device code: include it from a .cu file only.
#include <algorithm>
#include <cstddef>

#include "engine/gpu_runtime.hpp"
#include "patches/patch_layout.hpp"
#include "solvers/patch/cell_state.hpp"
#include "solvers/patch/max_eigenvalue.hpp"

namespace tessera::unfused_kernels {

inline constexpr int kThreads = 256;

// The faces normal to one axis of one patch: face m along the axis lies between cells m - 1 and
// m, so there are N + 1 along it and N along the others; cell c's lower face has coordinates c.
// Stored [patch][var][face], x fastest, so consecutive threads write consecutive faces.
template <int Dim>
struct FaceGrid {
  int cellsPerAxis;
  int axis;
  int numVars;

  TESSERA_INLINE int extent(int a) const { return cellsPerAxis + (a == axis ? 1 : 0); }
  TESSERA_INLINE int count() const {
    int c = 1;
    for (int a = 0; a < Dim; ++a)
      c *= extent(a);
    return c;
  }
  TESSERA_INLINE CellIndex<Dim> face(int f) const {
    CellIndex<Dim> c;
    for (int a = 0; a < Dim; ++a) {
      c[a] = f % extent(a);
      f /= extent(a);
    }
    return c;
  }
  TESSERA_INLINE std::size_t index(int patch, int var, CellIndex<Dim> c) const {
    int offset = 0;
    for (int a = Dim - 1; a >= 0; --a)
      offset = offset * extent(a) + c[a];
    return (std::size_t(patch) * numVars + var) * std::size_t(count()) + std::size_t(offset);
  }
};

// Cell number b of a patch's cells with halo, x fastest (halo cells have components -h or >= N).
template <int Dim>
TESSERA_INLINE CellIndex<Dim> cellWithHalo(const PatchLayout<Dim>& layout, int b) {
  CellIndex<Dim> c;
  for (int a = 0; a < Dim; ++a) {
    c[a] = b % layout.extent() - layout.halo;
    b /= layout.extent();
  }
  return c;
}

// The larger of two eigenvalues, NaN if either is NaN, so that the time step reports a broken
// state (as the host twin does).
TESSERA_INLINE double maxKeepingNan(double a, double b) {
  return b > a || b != b ? b : a;
}

__device__ inline std::size_t firstItem() {
  return std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline std::size_t itemStride() {
  return std::size_t(gridDim.x) * blockDim.x;
}

// Blocks for a grid-stride loop over `items`, capped: 16 million threads fill any device many
// times over, and the loop hands each thread the rest.
inline int blocksFor(std::size_t items) {
  return int(std::min<std::size_t>((items + kThreads - 1) / kThreads, 65535));
}

// reduce-eigv: one block per patch; each thread takes the largest eigenvalue over all axes of its
// cells of q, then a tree reduction in shared memory leaves the patch's maximum.
template <class PDE>
__global__ void reducePatchEigenvalues(PDE pde, PatchLayout<PDE::kDim> layout, const double* q,
                                       double* patchLambda) {
  __shared__ double partial[kThreads];
  const int p = int(blockIdx.x), tid = int(threadIdx.x);
  double lambda = 0.0;
  for (int c = tid; c < layout.interiorCells(); c += kThreads)
    lambda = maxKeepingNan(lambda, detail::maxEigenvalueAllAxes(
                                       pde, loadState<PDE>(layout, q, p, layout.interiorCell(c))));
  partial[tid] = lambda;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s /= 2) {
    if (tid < s)
      partial[tid] = maxKeepingNan(partial[tid], partial[tid + s]);
    __syncthreads();
  }
  if (tid == 0)
    patchLambda[p] = partial[0];
}

} // namespace tessera::unfused_kernels
