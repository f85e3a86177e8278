// DeviceHaloPlan: the halo plan in one launch, one thread per halo cell, every variable of the cell
// with fillHaloCell (the step the host fillHalos takes too). Cells are numbered op by op (the
// prefix sum of the box sizes), x fastest inside a box.
//
// Finding a thread's operation: a host table gives, for each block, the operations holding its
// first and last cells, so the thread searches only between those two (one or two operations
// inside a face, a few dozen at most where edges and corners follow each other) instead of over
// the whole plan (~19 dependent loads for 360K operations, most of them L2 round trips).
//
// Cell order: x fastest is the only order that coalesces. An x-face box of halo 1 has one cell
// per row of the patch (rows are 144 B apart for N = 16), so every cell sits in its own 32 B
// sector whatever the thread order; the sector's other cells are the neighbouring interior cells,
// which the mirrored operation of the neighbour patch reads, a few thousand cells later in the
// plan (same wave of blocks), so the L2 merges the two.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "engine/gpu_runtime.hpp"
#include "patches/halo_cell.hpp"
#include "patches/halo_plan_device.hpp"
#include "patches/x_face_buffer.hpp"

namespace tessera {
namespace {

constexpr int kHaloFillThreads = 256;
// Blocks per multiprocessor the registers must allow. Occupancy barely matters here (on an H200,
// 54% and 87% of the warps ran the 3D fill equally fast), spills do: fillHaloCell holds a chunk of
// variables in registers to keep their loads in flight together, which at 40 registers (6 blocks)
// spilled; 64 (4 blocks) holds them.
constexpr int kHaloFillBlocksPerSM = 4;

// The last operation starting at or before cell i, among ops [lo, hi]; empty boxes share their
// successor's start, so they are never picked.
__device__ inline int opOfCell(const std::uint64_t* __restrict__ opStart, int lo, int hi,
                               std::uint64_t i) {
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (opStart[mid] <= i)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// fillHaloCell with the op's source known at compile time: its switch over the source, taken for
// every variable, folds away, and each source gets registers of its own, so the same-level
// copy (most cells) is not held to the register needs of the interpolations.
template <HaloSource Source, int Dim>
__device__ inline void fillHaloCellAs(HaloOp<Dim> op, const PatchLayout<Dim>& layout,
                                      const double* parity, const double* fixed, CellIndex<Dim> c,
                                      const double* data, double* dst, std::size_t dstVarStride) {
  op.source = Source;
  fillHaloCell(op, layout, parity, fixed, c, data, dst, dstVarStride);
}

template <int Dim>
__global__ void __launch_bounds__(kHaloFillThreads, kHaloFillBlocksPerSM)
    fillHalosKernel(const HaloOp<Dim>* __restrict__ ops, const std::uint64_t* __restrict__ opStart,
                    const int* __restrict__ blockOps, std::uint64_t haloCells,
                    PatchLayout<Dim> layout, const double* __restrict__ parity,
                    const double* __restrict__ inflowStates, const int* __restrict__ opSlots,
                    double* xFaceBuffer, double* data) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * kHaloFillThreads + threadIdx.x;
  if (i >= haloCells)
    return;
  const int o = opOfCell(opStart, blockOps[blockIdx.x], blockOps[blockIdx.x + 1], i);
  const HaloOp<Dim> op = ops[o];
  unsigned local = unsigned(i - opStart[o]); // one box is small
  CellIndex<Dim> c;
  for (int a = 0; a < Dim; ++a) {
    const unsigned width = unsigned(op.hi[a] - op.lo[a]);
    c[a] = op.lo[a] + int(local % width);
    local /= width;
  }
  const int slot = xFaceBuffer ? opSlots[o] : -1;
  double* const dst = slot >= 0 ? xFaceBuffer + xFaceBufferIndex(layout, slot, 0, c)
                                : data + layout.index(op.dstPatch, 0, c);
  const std::size_t dstVarStride = slot >= 0 ? xFaceCells(layout) : layout.varStride();
  switch (op.source) {
  case HaloSource::SameLevel:
    fillHaloCellAs<HaloSource::SameLevel>(op, layout, parity, nullptr, c, data, dst, dstVarStride);
    break;
  case HaloSource::Coarser:
    fillHaloCellAs<HaloSource::Coarser>(op, layout, parity, nullptr, c, data, dst, dstVarStride);
    break;
  case HaloSource::Finer:
    fillHaloCellAs<HaloSource::Finer>(op, layout, parity, nullptr, c, data, dst, dstVarStride);
    break;
  default:
    fillHaloCellAs<HaloSource::Fixed>(op, layout, parity,
                                      inflowStates + std::size_t(op.fixedState) * layout.numVars, c,
                                      data, dst, dstVarStride);
    break;
  }
}

// Exclusive prefix sum of the box sizes: numOps + 1 entries, the last the number of halo cells.
template <int Dim>
std::vector<std::uint64_t> opStarts(const std::vector<HaloOp<Dim>>& ops) {
  std::vector<std::uint64_t> starts(ops.size() + 1, 0);
  for (std::size_t o = 0; o < ops.size(); ++o) {
    std::uint64_t cells = 1;
    for (int a = 0; a < Dim; ++a)
      cells *= std::uint64_t(std::max(ops[o].hi[a] - ops[o].lo[a], 0));
    starts[o + 1] = starts[o] + cells;
  }
  return starts;
}

// For each block b of kHaloFillThreads cells, entry b is the operation holding its first cell
// and entry b + 1 the one holding the first cell of the next block (the last cell, for the last
// block): the bounds of the block's search. One merge-like pass, O(numOps + numBlocks).
std::vector<int> blockOpBounds(const std::vector<std::uint64_t>& starts) {
  const std::uint64_t cells = starts.back();
  const std::uint64_t blocks = (cells + kHaloFillThreads - 1) / kHaloFillThreads;
  std::vector<int> bounds(blocks + 1);
  int op = 0;
  for (std::uint64_t b = 0; b <= blocks; ++b) {
    const std::uint64_t cell = std::min(b * kHaloFillThreads, cells - 1);
    while (starts[op + 1] <= cell) // stops at the last op: its end, cells, exceeds every cell
      ++op;
    bounds[b] = op;
  }
  return bounds;
}

} // namespace

template <int Dim>
DeviceHaloPlan<Dim>::DeviceHaloPlan(const HaloPlan<Dim>& plan, const PatchLayout<Dim>& layout,
                                    const ReflectionParity& parity, std::span<const int> opSlots)
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
  if (!opSlots.empty() && opSlots.size() != plan.ops.size())
    throw std::invalid_argument("DeviceHaloPlan: opSlots must have an entry per operation");
  const std::vector<std::uint64_t> starts = opStarts(plan.ops);
  haloCells_ = starts.back();
  ops_ = toDevice(plan.ops);
  opStart_ = toDevice(starts);
  if (haloCells_ > 0)
    blockOps_ = toDevice(blockOpBounds(starts));
  inflowStates_ = toDevice(states);
  parity_ = toDevice(parity);
  opSlots_ = toDevice(std::vector<int>(opSlots.begin(), opSlots.end()));
}

template <int Dim>
void DeviceHaloPlan<Dim>::fill(double* data, double* xFaceBuffer) const {
  if (haloCells_ == 0)
    return;
  fillHalosKernel<Dim><<<unsigned(blockOps_.size() - 1), kHaloFillThreads>>>(
      ops_.data(), opStart_.data(), blockOps_.data(), haloCells_, layout_, parity_.data(),
      inflowStates_.data(), opSlots_.data(), opSlots_.size() > 0 ? xFaceBuffer : nullptr, data);
  TESSERA_GPU_CHECK_LAUNCH();
}

template class DeviceHaloPlan<2>;
template class DeviceHaloPlan<3>;

} // namespace tessera
