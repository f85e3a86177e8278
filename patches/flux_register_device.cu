// DeviceRefluxPlan: refluxing in one launch per face direction (axis and side), one thread per
// (operation, covered coarse face cell), each handling every variable of its cell; consecutive
// threads take consecutive face cells of one operation. Two operations of one direction never
// share a cell (they cover disjoint parts of one face, or other patches); two of different
// directions do, at an edge or corner of a coarse patch, and the launches, in a fixed order, add
// theirs in that order. So the additions are plain, and a run is reproducible bit for bit, where
// atomic additions would sum a cell's corrections in whatever order they came.
#include <algorithm>
#include <vector>

#include "engine/gpu_runtime.hpp"
#include "patches/flux_register_device.hpp"
#include "patches/reflux_cell.hpp"

namespace tessera {
namespace {

constexpr int kRefluxThreads = 256;

// The operations of one direction: no two of them correct one cell.
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
    qNew[layout.index(op.coarsePatch, v, face.cell)] +=
        refluxCorrection(op, face, registers, fluxRegister, ratio, v);
}

} // namespace

template <int Dim>
DeviceRefluxPlan<Dim>::DeviceRefluxPlan(std::span<const RefluxOp<Dim>> plan,
                                        const PatchLayout<Dim>& layout)
    : layout_(layout), ops_(plan.size(), MemorySpace::Device) {
  // Grouped by direction (axis, side), each group in the plan's order.
  std::vector<RefluxOp<Dim>> grouped(plan.begin(), plan.end());
  const auto direction = [](const RefluxOp<Dim>& op) { return 2 * op.axis + op.side; };
  std::stable_sort(grouped.begin(), grouped.end(),
                   [&](const auto& a, const auto& b) { return direction(a) < direction(b); });
  for (int d = 0; d <= 2 * Dim; ++d)
    groupStart_[std::size_t(d)] =
        int(std::lower_bound(grouped.begin(), grouped.end(), d,
                             [&](const auto& op, int value) { return direction(op) < value; }) -
            grouped.begin());
  ops_.copyFromHost(grouped);
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
  for (int d = 0; d < 2 * Dim; ++d) {
    const int first = groupStart_[std::size_t(d)], count = groupStart_[std::size_t(d) + 1] - first;
    if (count == 0)
      continue;
    const long long threads = (long long)count * refluxCoveredCells<Dim>(layout_.cellsPerAxis);
    const long long blocks = (threads + kRefluxThreads - 1) / kRefluxThreads;
    refluxKernel<Dim><<<unsigned(blocks), kRefluxThreads>>>(ops_.data() + first, count, layout_,
                                                            geometry, fluxRegister, dt, qNew);
    TESSERA_GPU_CHECK_LAUNCH();
  }
}

template class DeviceRefluxPlan<2>;
template class DeviceRefluxPlan<3>;

} // namespace tessera
