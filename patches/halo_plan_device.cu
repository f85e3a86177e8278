// DeviceHaloPlan: the halo plan in one launch. One thread per halo cell: thread i finds its
// operation by binary search in the prefix sum of the operations' box sizes and its cell in that
// box (x fastest, so a warp reads and writes consecutive x of one variable), then writes every
// variable of the cell with fillHaloCell, the step the host fillHalos takes too.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "engine/gpu_runtime.hpp"
#include "patches/halo_cell.hpp"
#include "patches/halo_plan_device.hpp"

namespace tessera {
namespace {

constexpr int kHaloFillThreads = 256;

template <class T>
DeviceArray<T> toDevice(const std::vector<T>& host) {
  DeviceArray<T> device(host.size(), MemorySpace::Device);
  device.copyFromHost(host);
  return device;
}

template <int Dim>
__global__ void fillHalosKernel(const HaloOp<Dim>* ops, const std::uint64_t* opStart, int numOps,
                                std::uint64_t haloCells, PatchLayout<Dim> layout,
                                const double* parity, const double* inflowStates, double* data) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= haloCells)
    return;
  // The last operation starting at or before i (empty boxes share their successor's start).
  int lo = 0, hi = numOps - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (opStart[mid] <= i)
      lo = mid;
    else
      hi = mid - 1;
  }
  const HaloOp<Dim> op = ops[lo];
  unsigned local = unsigned(i - opStart[lo]); // one box is small
  CellIndex<Dim> c;
  for (int a = 0; a < Dim; ++a) {
    const unsigned width = unsigned(op.hi[a] - op.lo[a]);
    c[a] = op.lo[a] + int(local % width);
    local /= width;
  }
  const double* fixed = op.source == HaloSource::Fixed
                            ? inflowStates + std::size_t(op.fixedState) * layout.numVars
                            : nullptr;
  fillHaloCell(op, layout, parity, fixed, c, data);
}

} // namespace

template <int Dim>
DeviceHaloPlan<Dim>::DeviceHaloPlan(const HaloPlan<Dim>& plan, const PatchLayout<Dim>& layout,
                                    const ReflectionParity& parity)
    : layout_(layout) {
  const std::size_t nv = std::size_t(layout.numVars);
  if (parity.size() != Dim * nv)
    throw std::invalid_argument(
        "DeviceHaloPlan: reflection parity must have Dim * numVars entries");
  std::vector<double> states;
  for (const std::vector<double>& state : plan.inflowStates) {
    if (state.size() != nv)
      throw std::invalid_argument("DeviceHaloPlan: an inflow state must have numVars values");
    states.insert(states.end(), state.begin(), state.end());
  }
  std::vector<std::uint64_t> starts(plan.ops.size() + 1, 0);
  for (std::size_t o = 0; o < plan.ops.size(); ++o) {
    std::uint64_t cells = 1;
    for (int a = 0; a < Dim; ++a)
      cells *= std::uint64_t(std::max(plan.ops[o].hi[a] - plan.ops[o].lo[a], 0));
    starts[o + 1] = starts[o] + cells;
  }
  haloCells_ = starts.back();
  ops_ = toDevice(plan.ops);
  opStart_ = toDevice(starts);
  inflowStates_ = toDevice(states);
  parity_ = toDevice(parity);
}

template <int Dim>
void DeviceHaloPlan<Dim>::fill(double* data) const {
  if (haloCells_ == 0)
    return;
  const std::uint64_t blocks = (haloCells_ + kHaloFillThreads - 1) / kHaloFillThreads;
  fillHalosKernel<Dim><<<unsigned(blocks), kHaloFillThreads>>>(
      ops_.data(), opStart_.data(), int(ops_.size()), haloCells_, layout_, parity_.data(),
      inflowStates_.data(), data);
  TESSERA_GPU_CHECK_LAUNCH();
}

template class DeviceHaloPlan<2>;
template class DeviceHaloPlan<3>;

} // namespace tessera
