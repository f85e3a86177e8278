// DeviceRefluxPlan: refluxing in one launch, one thread per (operation, covered coarse face cell),
// each handling every variable of its cell; consecutive threads take consecutive face cells of
// one operation. The host twin runs the operations serially; here two operations that meet at an
// edge of a coarse patch add to one cell concurrently, so the additions are atomic: the global
// atomic strategy of the atomic-strategy library. The others do not pay here: consecutive threads
// hold distinct cells (nothing to aggregate), and a cell's variables lie a whole patch apart in
// the structure-of-arrays state (nothing for a transposition to make contiguous).
#include <algorithm>
#include <vector>

#include "engine/atomics/atomic_add_device.hpp"
#include "engine/gpu_runtime.hpp"
#include "patches/flux_register_device.hpp"
#include "patches/reflux_cell.hpp"

namespace tessera {
namespace {

constexpr int kRefluxThreads = 256;

template <int Dim>
__global__ void refluxKernel(const RefluxOp<Dim>* ops, int numOps, PatchLayout<Dim> layout,
                             const PatchGeometry<Dim>* geometry, const double* fluxRegister,
                             double dt, double* qNew) {
  const int covered = refluxCoveredCells<Dim>(layout.cellsPerAxis);
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (long long)numOps * covered)
    return;
  const RefluxOp<Dim> op = ops[i / covered];
  const RefluxFaceCell<Dim> face = refluxFaceCell(op, layout.cellsPerAxis, int(i % covered));
  const FluxRegisterLayout<Dim> registers{layout.cellsPerAxis, layout.numVars};
  const double ratio = dt / geometry[op.coarsePatch].dx[op.axis];
  for (int v = 0; v < layout.numVars; ++v)
    atomics::atomicAddTo(qNew + layout.index(op.coarsePatch, v, face.cell),
                         refluxCorrection(op, face, registers, fluxRegister, ratio, v));
}

} // namespace

template <int Dim>
DeviceRefluxPlan<Dim>::DeviceRefluxPlan(std::span<const RefluxOp<Dim>> plan,
                                        const PatchLayout<Dim>& layout)
    : layout_(layout), ops_(plan.size(), MemorySpace::Device) {
  ops_.copyFromHost(plan);
  std::vector<int> coarse;
  coarse.reserve(plan.size());
  for (const RefluxOp<Dim>& op : plan)
    coarse.push_back(op.coarsePatch);
  std::sort(coarse.begin(), coarse.end());
  coarse.erase(std::unique(coarse.begin(), coarse.end()), coarse.end());
  coarsePatches_ = DeviceArray<int>(coarse.size(), MemorySpace::Device);
  coarsePatches_.copyFromHost(coarse);
}

template <int Dim>
void DeviceRefluxPlan<Dim>::apply(const PatchGeometry<Dim>* geometry, const double* fluxRegister,
                                  double dt, double* qNew) const {
  if (ops_.size() == 0)
    return;
  const long long threads = (long long)ops_.size() * refluxCoveredCells<Dim>(layout_.cellsPerAxis);
  const long long blocks = (threads + kRefluxThreads - 1) / kRefluxThreads;
  refluxKernel<Dim><<<unsigned(blocks), kRefluxThreads>>>(ops_.data(), int(ops_.size()), layout_,
                                                          geometry, fluxRegister, dt, qNew);
  TESSERA_GPU_CHECK_LAUNCH();
}

template class DeviceRefluxPlan<2>;
template class DeviceRefluxPlan<3>;

} // namespace tessera
