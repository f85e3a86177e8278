#include <stdexcept>

#include "engine/gpu_runtime.hpp"
#include "solvers/advection.hpp"
#include "solvers/euler.hpp"
#include "solvers/rusanov.hpp"
#include "solvers/rusanov_update_device.hpp"
#include "solvers/rusanov_update_host.hpp"

namespace tessera {
namespace {

template <class PDE>
__device__ typename PDE::State sharedState(const double* s, int stride, int cell) {
  typename PDE::State q;
  for (int v = 0; v < PDE::kNumVars; ++v)
    q[v] = s[v * stride + cell];
  return q;
}

// Shared memory: the patch with one halo layer, (n+2)^2 cells per variable; each cell's physical
// fluxes and eigenvalues along x and y (evaluated once, used by the cell's two faces on each
// axis); then the x-face fluxes, (n+1) x n per variable, and the y-face fluxes, n x (n+1).
template <class PDE>
__global__ void fusedRusanov2D(PDE pde, PatchLayout<2> layout, const PatchGeometry<2>* geometry,
                               const double* q, double* qNew, double dt, double* patchLambda) {
  constexpr int nv = PDE::kNumVars;
  extern __shared__ double shared[];
  const int n = layout.cellsPerAxis, e = n + 2, faces = (n + 1) * n;
  double* cells = shared;
  double* physX = cells + nv * e * e;
  double* physY = physX + nv * e * e;
  double* lambdaX = physY + nv * e * e;
  double* lambdaY = lambdaX + e * e;
  double* fx = lambdaY + e * e;
  double* fy = fx + nv * faces;
  const int p = blockIdx.x;
  const int tid = threadIdx.x, threads = blockDim.x;

  for (int v = 0; v < nv; ++v) {
    const double* src = q + layout.varOffset(p, v);
    for (int c = tid; c < e * e; c += threads)
      cells[v * e * e + c] = src[layout.cellOffset({{c % e - 1, c / e - 1}})];
  }
  __syncthreads();

  for (int c = tid; c < e * e; c += threads) {
    const auto state = sharedState<PDE>(cells, e * e, c);
    const auto f = pde.flux(state, 0), g = pde.flux(state, 1);
    for (int v = 0; v < nv; ++v) {
      physX[v * e * e + c] = f[v];
      physY[v * e * e + c] = g[v];
    }
    lambdaX[c] = pde.maxEigenvalue(state, 0);
    lambdaY[c] = pde.maxEigenvalue(state, 1);
  }
  __syncthreads();

  for (int f = tid; f < faces; f += threads) {
    // x face f: between cells (i - 1, j) and (i, j), i = f % (n + 1); y face likewise.
    const int i = f % (n + 1), j = f / (n + 1);
    const int l = (j + 1) * e + i, r = l + 1;
    const auto Fx =
        rusanovFaceFlux(sharedState<PDE>(cells, e * e, l), sharedState<PDE>(cells, e * e, r),
                        sharedState<PDE>(physX, e * e, l), sharedState<PDE>(physX, e * e, r),
                        lambdaX[l], lambdaX[r]);
    const int ii = f % n, jj = f / n;
    const int b = jj * e + ii + 1, t = b + e;
    const auto Fy =
        rusanovFaceFlux(sharedState<PDE>(cells, e * e, b), sharedState<PDE>(cells, e * e, t),
                        sharedState<PDE>(physY, e * e, b), sharedState<PDE>(physY, e * e, t),
                        lambdaY[b], lambdaY[t]);
    for (int v = 0; v < nv; ++v) {
      fx[v * faces + f] = Fx[v];
      fy[v * faces + f] = Fy[v];
    }
  }
  __syncthreads();

  const double rx = dt / geometry[p].dx[0], ry = dt / geometry[p].dx[1];
  double lambda = 0.0;
  for (int c = tid; c < n * n; c += threads) {
    const int i = c % n, j = c / n;
    typename PDE::State updated;
    for (int v = 0; v < nv; ++v) {
      const double old = cells[v * e * e + (j + 1) * e + i + 1];
      const double* x = fx + v * faces + j * (n + 1) + i;
      const double* y = fy + v * faces + j * n + i;
      updated[v] = old - rx * (x[1] - x[0]) - ry * (y[n] - y[0]);
      qNew[layout.varOffset(p, v) + layout.cellOffset({{i, j}})] = updated[v];
    }
    const double l = detail::maxEigenvalueAllAxes(pde, updated);
    lambda = l > lambda || l != l ? l : lambda; // NaN wins, so the time step reports it
  }
  // Block reduction of the largest eigenvalue, in the shared memory the fluxes no longer need.
  __syncthreads();
  shared[tid] = lambda;
  __syncthreads();
  for (int s = 1; s < threads; s *= 2) {
    if (tid % (2 * s) == 0 && tid + s < threads) {
      const double other = shared[tid + s];
      shared[tid] = other > shared[tid] || other != other ? other : shared[tid];
    }
    __syncthreads();
  }
  if (tid == 0)
    patchLambda[p] = shared[0];
}

} // namespace

template <class PDE>
void rusanovUpdateDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                         const PatchGeometry<PDE::kDim>* geometry, int numPatches, const double* q,
                         double* qNew, double dt, double* patchLambda) {
  if constexpr (PDE::kDim != 2) {
    throw std::logic_error("rusanovUpdateDevice: the 3D kernel is not written yet");
  } else {
    const int n = layout.cellsPerAxis;
    if (n > 32 || layout.halo < 1)
      throw std::invalid_argument("rusanovUpdateDevice: 2D patches need N <= 32 and a halo");
    // The block strides over cells and faces: 256 threads keep the registers of a flux
    // evaluation within the multiprocessor's budget (1024 threads of an Euler flux do not fit).
    const int threads = n * n < 256 ? (n * n < 64 ? 64 : n * n) : 256;
    const int e2 = (n + 2) * (n + 2);
    const std::size_t bytes =
        sizeof(double) * (PDE::kNumVars * (3 * e2 + 2 * (n + 1) * n) + 2 * e2 + threads);
    // Beyond 48 KiB of shared memory a kernel must opt in (N = 32, Euler: about 190 KiB).
    TESSERA_GPU_CHECK(gpuFuncSetAttribute(reinterpret_cast<const void*>(&fusedRusanov2D<PDE>),
                                          gpuFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
    fusedRusanov2D<PDE>
        <<<numPatches, threads, bytes>>>(pde, layout, geometry, q, qNew, dt, patchLambda);
    TESSERA_GPU_CHECK_LAUNCH();
  }
}

template void rusanovUpdateDevice(const Euler<2>&, const PatchLayout<2>&, const PatchGeometry<2>*,
                                  int, const double*, double*, double, double*);
template void rusanovUpdateDevice(const Advection<2>&, const PatchLayout<2>&,
                                  const PatchGeometry<2>*, int, const double*, double*, double,
                                  double*);

} // namespace tessera
