#pragma once
// refluxDevice (reflux_device.hpp): one block per refluxed face of a coarse patch of the plan, its
// threads over the face's cells. A cell on two or three refluxed faces has one owner, the block
// of the lowest axis among them, which adds every correction of the cell in axis order and then
// takes its eigenvalue, so no two threads write one cell and no atomics touch the state; each
// block folds its cells' eigenvalues into the patch's (an atomic maximum: the faces of a patch run
// side by side). Device code: include it from a .cu file only (solvers/patch/patch_kernels.hpp).
#include "engine/gpu_runtime.hpp"
#include "patches/reflux_cell.hpp"
#include "solvers/patch/max_eigenvalue.hpp"
#include "solvers/patch/patch_reduce_kernels.hpp"
#include "solvers/patch/reflux_device.hpp"

namespace tessera {
namespace reflux_kernels {

// A face of 16^2 cells a thread each; 2D faces are a row of at most 32 cells.
template <int Dim>
constexpr int kThreads = Dim == 3 ? 256 : 32;

template <class PDE>
__global__ void __launch_bounds__(kThreads<PDE::kDim>)
    refluxFaces(PDE pde, PatchLayout<PDE::kDim> layout, RefluxPlanView<PDE::kDim> plan,
                const PatchGeometry<PDE::kDim>* __restrict__ geometry,
                const double* __restrict__ fluxRegister, double dt, double* __restrict__ qNew,
                double* __restrict__ patchLambda) {
  constexpr int kDim = PDE::kDim, kParts = RefluxPlanView<kDim>::kParts;
  extern __shared__ double shared[];
  const int n = layout.cellsPerAxis;
  const int entry = plan.faces[blockIdx.x]; // coarse patch k of the plan, face f: k * 2 Dim + f
  const int k = entry / (2 * kDim), face = entry % (2 * kDim), axis = face / 2;
  const int patch = plan.coarsePatches[k];
  const int refluxed = correctedFaces(plan.refluxFaces[patch]);
  const int* const faceOps = plan.faceOps + std::size_t(k) * 2 * kDim * kParts;
  const FluxRegisterLayout<kDim> registers{n, layout.numVars};
  const PatchGeometry<kDim> g = geometry[patch];
  const std::size_t vs = layout.varStride();
  double* const qPatch = qNew + layout.varOffset(patch, 0);
  int faceCells = 1;
  for (int a = 1; a < kDim; ++a)
    faceCells *= n;

  double lambda = 0.0;
  for (int t = int(threadIdx.x); t < faceCells; t += int(blockDim.x)) {
    CellIndex<kDim> c{};
    c[axis] = face % 2 == 1 ? n - 1 : 0;
    for (int a = 0, r = t; a < kDim; ++a)
      if (a != axis) {
        c[a] = r % n;
        r /= n;
      }
    const int layers = refluxed & faceLayersOf(c, n);
    if (layers & ((1 << 2 * axis) - 1)) // a lower axis's block owns the cell
      continue;
    double* const at = qPatch + layout.cellOffset(c);
    typename PDE::State q;
    for (int v = 0; v < PDE::kNumVars; ++v)
      q[v] = at[v * vs];
    for (int b = axis; b < kDim; ++b) {
      const int sides = layers >> 2 * b & 3; // the one side of axis b the cell lies on, if any
      if (!sides)
        continue;
      const int op = faceOps[(2 * b + (sides >> 1)) * kParts + refluxFacePart(c, b, n)];
      if (op < 0) // a part of the face no finer patch covers
        continue;
      const RefluxOp<kDim> o = plan.ops[op];
      const RefluxFaceCell<kDim> cell = refluxFaceCell(o, n, refluxFaceCellOf(o, c, n));
      const double ratio = dt / g.dx[b];
      for (int v = 0; v < PDE::kNumVars; ++v)
        q[v] += refluxCorrection(o, cell, registers, fluxRegister, ratio, v);
    }
    for (int v = 0; v < PDE::kNumVars; ++v)
      at[v * vs] = q[v];
    lambda = maxNaNWins(lambda, detail::maxEigenvalueAllAxes(pde, q));
  }
  const double corrected = groupMax(lambda, int(blockDim.x), shared);
  if (threadIdx.x == 0)
    atomicMaxNaNWins(patchLambda + patch, corrected);
}

} // namespace reflux_kernels

template <class PDE>
void refluxDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                  const RefluxPlanView<PDE::kDim>& plan, const PatchGeometry<PDE::kDim>* geometry,
                  const double* fluxRegister, double dt, double* qNew, double* patchLambda) {
  if (plan.numFaces == 0)
    return;
  constexpr int kThreads = reflux_kernels::kThreads<PDE::kDim>;
  reflux_kernels::refluxFaces<PDE><<<plan.numFaces, kThreads, kThreads * sizeof(double)>>>(
      pde, layout, plan, geometry, fluxRegister, dt, qNew, patchLambda);
  TESSERA_GPU_CHECK_LAUNCH();
}

} // namespace tessera
