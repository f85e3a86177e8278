// Device multicolor sweeps (seed 002, section 6.4): per color, one kernel launch for its
// partition-boundary rows and one for its interior rows, a warp (or half a wavefront) per block
// row. The NB * NB lanes of a block load its entries in one coalesced read, each multiplies its
// entry (k, l) by dQ_l of the block's column and accumulates over the row's blocks; shuffles then
// sum the NB lanes of each k, and lanes 0..NB-1 do the forward/backward substitution with D's LU
// together, lane k owning x_k. Rows of one color share no block, so no row reads a dQ that
// another row of the launch writes.
//
// The sweep moves few bytes per instruction and per trip to memory, so both are rationed (the
// measurements are in benchmarks/RESULTS.md): D arrives as one coalesced load and reaches the
// solving lanes by shuffles rather than sitting in their registers (32 registers: a full
// multiprocessor of warps); the block loop has no predicate and its loads go out together; the
// substitution multiplies by D's stored reciprocal pivots instead of dividing.
#include <algorithm>
#include <cstddef>

#include "engine/atomics/warp_device.hpp"
#include "engine/gpu_runtime.hpp"
#include "engine/linalg/block_lu.hpp"
#include "engine/linalg/multicolor_sweeps_device.hpp"
#include "engine/linalg/precision.hpp"

namespace tessera::linalg {
namespace {

namespace warp = atomics::warp;

constexpr int kThreadsPerBlock = 128;
// Lanes given to one block of O: the 32 of a warp, or half a wavefront.
constexpr int kLanesPerBlock = 32;

template <SweepMapping Mapping>
constexpr int kRowsPerWarp = Mapping == SweepMapping::TwoRowsOneBlock ? 2 : 1;
template <SweepMapping Mapping>
constexpr int kBlocksPerStep = Mapping == SweepMapping::OneRowTwoBlocks ? 2 : 1;

template <int NB, class Precision, SweepMapping Mapping>
__global__ void __launch_bounds__(kThreadsPerBlock)
    sweepRowsKernel(BlockMatrixView<NB, Precision> a, int begin, int end, const double* rhs,
                    typename Precision::Update* dq) {
  constexpr int kEntries = NB * NB;
  constexpr int kRows = kRowsPerWarp<Mapping>;
  constexpr int kBlocks = kBlocksPerStep<Mapping>;
  static_assert(kEntries <= kLanesPerBlock, "one block's entries must fit 32 lanes");
  static_assert(kRows * kBlocks * kLanesPerBlock == kWarpSize, "the mapping must cover the warp");

  const int lane = warp::laneIndex();
  const int half = lane / kLanesPerBlock; // 0 on a warp of 32
  const int entry = lane % kLanesPerBlock;
  const int base = half * kLanesPerBlock; // the half's first lane
  const int l = entry % NB;               // the entry's column in the block
  const int warpIndex = int((blockIdx.x * blockDim.x + threadIdx.x) / unsigned(kWarpSize));
  const int row = begin + warpIndex * kRows + (kRows == 2 ? half : 0);
  const bool active = row < end;
  const bool ownsUnknown = active && entry < NB; // lane k solves for x_k

  // Lanes past a block's entries load its last entry again (the same sector: no extra traffic)
  // and their sums are never read, so no load needs a predicate.
  const std::size_t loaded = std::size_t(entry < kEntries ? entry : kEntries - 1);
  // This lane's entry of D's LU, and R_k: needed last, requested first.
  const double luEntry = active ? a.diagonal[std::size_t(row) * kEntries + loaded] : 0.0;
  double x = ownsUnknown ? rhs[std::size_t(row) * NB + std::size_t(entry)] : 0.0;
  const int k = entry < NB ? entry : 0;

  const int first = active ? a.rowOffsets[row] : 0;
  const int last = active ? a.rowOffsets[row + 1] : 0;
  // The block loop, unrolled so that its loads go out together: by 2 for fp64 blocks and by 4 for
  // fp32 ones measured fastest (RESULTS.md).
  constexpr int kBlocksUnrolled = sizeof(typename Precision::Offdiagonal) == 8 ? 2 : 4;
  double partial = 0.0;
#pragma unroll kBlocksUnrolled
  for (int j = first + (kBlocks == 2 ? half : 0); j < last; j += kBlocks)
    partial += double(a.offdiagonal[std::size_t(j) * kEntries + loaded]) *
               double(dq[std::size_t(a.columns[j]) * NB + std::size_t(l)]);

  if constexpr (kBlocks == 2) {
    partial += warp::shuffleDown(partial, kLanesPerBlock);
  }
  // Sum of the NB lanes of each k into the first of them (a tree bounded by the group).
#pragma unroll
  for (int d = 1; d < NB; d *= 2) {
    const double other = warp::shuffleDown(partial, d);
    if (l + d < NB)
      partial += other;
  }
  x -= warp::shuffle(partial, base + (entry < NB ? entry * NB : 0));

  // luSolve's arithmetic in luSolve's order: x_i is broadcast as soon as it is final, and lane k
  // takes LU's (k, i) from the lane that loaded it (on the diagonal, U's reciprocal pivot). Lanes
  // past NB and lanes of inactive rows compute values they never store.
#pragma unroll
  for (int i = 0; i < NB - 1; ++i) {
    const double xi = warp::shuffle(x, base + i);
    const double lki = warp::shuffle(luEntry, base + k * NB + i);
    if (entry > i)
      x -= lki * xi;
  }
#pragma unroll
  for (int i = NB - 1; i >= 0; --i) {
    const double uki = warp::shuffle(luEntry, base + k * NB + i);
    if (entry == i)
      x *= uki;
    if (i > 0) {
      const double xi = warp::shuffle(x, base + i);
      if (entry < i)
        x -= uki * xi;
    }
  }
  if (ownsUnknown && (kBlocks == 1 || half == 0))
    dq[std::size_t(row) * NB + std::size_t(entry)] = typename Precision::Update(x);
}

template <class T>
__global__ void zeroKernel(T* v, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    v[i] = T(0);
}

// Each thread block stages its rows' NB x NB blocks through shared memory, so that global memory
// is read and written in contiguous, coalesced runs: a thread reading its own block in place
// touches a cache line of its own at each access, and a warp's 32 blocks 200 bytes apart made the
// factorisation of 2M 5 x 5 blocks take 8.3 ms on an H100 (measured), some 25 times the time
// their bytes need. Each thread then factorizes its block in shared memory, where the odd stride
// of NB * NB doubles (NB = 5) spreads a warp's accesses over the banks.
template <int NB>
__global__ void __launch_bounds__(kThreadsPerBlock) factorizeKernel(double* diagonal, int numRows) {
  constexpr int kValues = NB * NB;
  __shared__ double blocks[kThreadsPerBlock * kValues];
  const std::size_t first = std::size_t(blockIdx.x) * kThreadsPerBlock;
  const int rows =
      numRows - int(first) < kThreadsPerBlock ? numRows - int(first) : kThreadsPerBlock;
  double* global = diagonal + first * kValues;
  for (int i = int(threadIdx.x); i < rows * kValues; i += kThreadsPerBlock)
    blocks[i] = global[i];
  __syncthreads();
  if (int(threadIdx.x) < rows)
    luFactorize<NB>(blocks + threadIdx.x * kValues);
  __syncthreads();
  for (int i = int(threadIdx.x); i < rows * kValues; i += kThreadsPerBlock)
    global[i] = blocks[i];
}

int blocksFor(std::size_t threads) {
  return int((threads + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

} // namespace

template <int NB>
void factorizeDiagonalDevice(double* diagonal, int numRows) {
  if (numRows == 0)
    return;
  factorizeKernel<NB><<<blocksFor(std::size_t(numRows)), kThreadsPerBlock>>>(diagonal, numRows);
  TESSERA_GPU_CHECK_LAUNCH();
}

template <int NB, class Precision, SweepMapping Mapping>
void multicolorSweepsDevice(const BlockMatrix<NB, Precision>& a, const double* rhs,
                            typename Precision::Update* dq, int sweeps,
                            SweepExchange<typename Precision::Update>* exchange) {
  const BlockPattern& pattern = a.pattern();
  const std::size_t size = std::size_t(pattern.numRows()) * NB;
  if (size == 0)
    return;
  // A grid-stride loop: enough blocks to fill the device, no more.
  constexpr int kMaxZeroBlocks = 1024;
  const int zeroBlocks = std::min(blocksFor(size), kMaxZeroBlocks);
  zeroKernel<<<zeroBlocks, kThreadsPerBlock>>>(dq, size);
  TESSERA_GPU_CHECK_LAUNCH();
  constexpr int kRowsPerBlock = kThreadsPerBlock / kWarpSize * kRowsPerWarp<Mapping>;
  const BlockMatrixView<NB, Precision> view = a.view();
  const auto sweepRows = [&](RowRange rows) {
    if (rows.end == rows.begin)
      return;
    const int blocks = (rows.end - rows.begin + kRowsPerBlock - 1) / kRowsPerBlock;
    sweepRowsKernel<NB, Precision, Mapping>
        <<<blocks, kThreadsPerBlock>>>(view, rows.begin, rows.end, rhs, dq);
    TESSERA_GPU_CHECK_LAUNCH();
  };
  for (int sweep = 0; sweep < sweeps; ++sweep)
    sweepColors(pattern, exchange, dq, sweepRows);
}

#define TESSERA_INSTANTIATE_SWEEPS(NB, MAPPING)                                                    \
  template void multicolorSweepsDevice<NB, MixedPrecision, SweepMapping::MAPPING>(                 \
      const BlockMatrix<NB, MixedPrecision>&, const double*, float*, int, SweepExchange<float>*);  \
  template void multicolorSweepsDevice<NB, DoublePrecision, SweepMapping::MAPPING>(                \
      const BlockMatrix<NB, DoublePrecision>&, const double*, double*, int,                        \
      SweepExchange<double>*);

#define TESSERA_INSTANTIATE_BLOCK_SIZE(NB)                                                         \
  template void factorizeDiagonalDevice<NB>(double*, int);                                         \
  TESSERA_INSTANTIATE_MAPPINGS(NB)

// The CUDA build keeps to the warp-32 mapping; a wavefront of 64 gets both of seed 002's.
#if TESSERA_WARP_SIZE == 32
#define TESSERA_INSTANTIATE_MAPPINGS(NB) TESSERA_INSTANTIATE_SWEEPS(NB, OneRowOneBlock)
#else
#define TESSERA_INSTANTIATE_MAPPINGS(NB)                                                           \
  TESSERA_INSTANTIATE_SWEEPS(NB, OneRowTwoBlocks) TESSERA_INSTANTIATE_SWEEPS(NB, TwoRowsOneBlock)
#endif

TESSERA_INSTANTIATE_BLOCK_SIZE(2)
TESSERA_INSTANTIATE_BLOCK_SIZE(3)
TESSERA_INSTANTIATE_BLOCK_SIZE(4)
TESSERA_INSTANTIATE_BLOCK_SIZE(5)

} // namespace tessera::linalg
