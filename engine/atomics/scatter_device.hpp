#pragma once
// The face scatter on the device, every strategy of the library (scatter_host.hpp gives the
// contract and the host twins, strategy.hpp the strategies). Included only from .cu translation
// units, which instantiate scatterFacesDevice for their contributions.
//
// Face kernels run one thread per face in warps of consecutive faces (faces are sorted by owner,
// so a warp's owners form runs). Lanes past the last face stay alive with key -1 and zero values:
// the warp-level strategies need every lane in their shuffles and ballots.
#include <stdexcept>
#include <string>

#include "engine/atomics/atomic_add_device.hpp"
#include "engine/atomics/face_scatter_plan.hpp"
#include "engine/atomics/race_free_scatter.hpp"
#include "engine/atomics/shuffle_transpose.hpp"
#include "engine/atomics/strategy.hpp"
#include "engine/atomics/warp_device.hpp"
#include "engine/gpu_runtime.hpp"

namespace tessera::atomics {
namespace detail {

inline constexpr int kScatterBlock = 128;
inline constexpr int kWarpsPerBlock = kScatterBlock / kWarpSize;

// One side's K values straight to the target, one atomic each.
template <int K>
__device__ inline void addDirect(double* target, int cell, const double (&v)[K]) {
  if (cell >= 0)
    for (int k = 0; k < K; ++k)
      atomicAddTo(target + cell * K + k, v[k]);
}

// After a transposition lane `lane` holds, in slot j, entry lane + j W of the warp's W x K array
// (row = face of the warp, column = variable): consecutive lanes add to consecutive addresses.
template <int K>
__device__ inline void addTransposedRows(double* target, int cell, const double (&v)[K]) {
  const int lane = warp::laneIndex();
  for (int j = 0; j < K; ++j) {
    const int entry = lane + j * kWarpSize;
    const int row = entry / K;
    const int rowCell = warp::shuffle(cell, row);
    if (rowCell >= 0)
      atomicAddTo(target + rowCell * K + (entry - row * K), v[j]);
  }
}

// Listing 2: the warp's rows through shared memory, read back in row-major order.
template <int K>
__device__ inline void addSmemTransposed(double* stage, double* target, int cell,
                                         const double (&v)[K]) {
  const int lane = warp::laneIndex();
  for (int k = 0; k < K; ++k)
    stage[lane * K + k] = v[k];
  warp::syncLanes();
  for (int j = 0; j < K; ++j) {
    const int entry = lane + j * kWarpSize;
    const int row = entry / K;
    const int rowCell = warp::shuffle(cell, row);
    if (rowCell >= 0)
      atomicAddTo(target + rowCell * K + (entry - row * K), stage[entry]);
  }
  warp::syncLanes(); // the stage is reused by the other side
}

// v[slot] with a slot known only at run time, by selection over every slot: indexing a register
// array with a run-time index would move it to local memory (measured on the H100: 4x slower for K
// = 15).
template <int K>
__device__ inline double selectSlot(const double (&v)[K], int slot) {
  double value = v[0];
  for (int j = 1; j < K; ++j)
    value = j == slot ? v[j] : value;
  return value;
}
template <int K>
__device__ inline void storeSlot(double (&v)[K], int slot, double value) {
  for (int j = 0; j < K; ++j)
    v[j] = j == slot ? value : v[j];
}

// Listings 3 and 4: the same row-major spread by register shuffles.
template <int K>
__device__ inline void addShuffleTransposed(double* target, int cell, double (&v)[K]) {
  const int lane = warp::laneIndex();
  if constexpr ((K & (K - 1)) == 0) {
    for (int s = 1; s < K; ++s) {
      const int partner = powerOfTwoPartner(lane, s);
      const int slot = powerOfTwoSlot(partner, K);
      storeSlot<K>(v, slot, warp::shuffle(selectSlot<K>(v, slot), partner));
    }
    // Lane p now holds A[(p / K) K + i][p % K] in slot i.
    const int group = lane & ~(K - 1), column = lane & (K - 1);
    for (int i = 0; i < K; ++i) {
      const int rowCell = warp::shuffle(cell, group + i);
      if (rowCell >= 0)
        atomicAddTo(target + rowCell * K + column, v[i]);
    }
  } else {
    static_assert(K % 2 == 1, "shuffle transposition needs a power-of-two or an odd K");
    constexpr int stride = oddStride(K);
    double w[K];
    for (int i = 0; i < K; ++i)
      w[i] = v[i];
    for (int i = 0; i < K; ++i) {
      const int source = oddSourceLane(lane, i, stride, kWarpSize);
      storeSlot<K>(v, oddSlot(source, i, K, kWarpSize), warp::shuffle(w[i], source));
    }
    addTransposedRows<K>(target, cell, v);
  }
}

// Faces sorted by owner: each run of equal owners is summed and its first lane adds.
template <int K>
__device__ inline void addSortedRuns(double* target, int cell, double (&v)[K]) {
  if (warp::sumOverRun<K>(cell, v))
    addDirect<K>(target, cell, v);
}

// Any order: lanes with equal keys found by match_any, summed, the lowest lane adds.
template <int K>
__device__ inline void addPeerSums(double* target, int cell, double (&v)[K]) {
  if (warp::sumOverPeers<K>(warp::matchAny(cell), v))
    addDirect<K>(target, cell, v);
}

template <int K, Strategy S, class Contribution>
__global__ void __launch_bounds__(kScatterBlock)
    faceScatterKernel(FaceTopology t, Contribution f, double* target) {
  const int face = int(blockIdx.x) * kScatterBlock + int(threadIdx.x);
  double toOwner[K], toNeighbour[K];
  int owner = -1, neighbour = -1;
  if (face < t.numFaces) {
    f(face, toOwner, toNeighbour);
    owner = t.owner[face];
    neighbour = t.neighbour[face];
  } else {
    for (int k = 0; k < K; ++k)
      toOwner[k] = toNeighbour[k] = 0.0;
  }
  if constexpr (S == Strategy::GlobalAtomic) {
    addDirect<K>(target, owner, toOwner);
    addDirect<K>(target, neighbour, toNeighbour);
  } else if constexpr (S == Strategy::SmemTranspose || S == Strategy::Hybrid) {
    __shared__ double stage[kWarpsPerBlock][kWarpSize * K];
    double* warpStage = stage[threadIdx.x / kWarpSize];
    if constexpr (S == Strategy::Hybrid)
      addSortedRuns<K>(target, owner, toOwner);
    else
      addSmemTransposed<K>(warpStage, target, owner, toOwner);
    addSmemTransposed<K>(warpStage, target, neighbour, toNeighbour);
  } else if constexpr (S == Strategy::WarpAggregateSorted) {
    addSortedRuns<K>(target, owner, toOwner);
    addPeerSums<K>(target, neighbour, toNeighbour);
  } else if constexpr (S == Strategy::WarpAggregateUnsorted) {
    addPeerSums<K>(target, owner, toOwner);
    addPeerSums<K>(target, neighbour, toNeighbour);
  } else if constexpr (S == Strategy::ShuffleTranspose) {
    addShuffleTransposed<K>(target, owner, toOwner);
    addShuffleTransposed<K>(target, neighbour, toNeighbour);
  }
}

// Race-free by construction: no two faces of one color share a cell.
template <int K, class Contribution>
__global__ void __launch_bounds__(kScatterBlock)
    colorScatterKernel(FaceTopology t, int begin, int end, Contribution f, double* target) {
  const int i = begin + int(blockIdx.x) * kScatterBlock + int(threadIdx.x);
  if (i >= end)
    return;
  addFacePlainly<K>(t, f, t.facesByColor[i], target);
}

// One thread per cell over its faces: every interior face is evaluated twice, once per side.
template <int K, class Contribution>
__global__ void __launch_bounds__(kScatterBlock)
    gatherKernel(FaceTopology t, Contribution f, double* target) {
  const int cell = int(blockIdx.x) * kScatterBlock + int(threadIdx.x);
  if (cell >= t.numCells)
    return;
  gatherCell<K>(t, f, cell, target);
}

inline unsigned blocksFor(int threads) {
  return unsigned((threads + kScatterBlock - 1) / kScatterBlock);
}

template <int K, Strategy S, class Contribution>
void launchFaceScatter(const FaceTopology& t, const Contribution& f, double* target) {
  faceScatterKernel<K, S><<<blocksFor(t.numFaces), kScatterBlock>>>(t, f, target);
  TESSERA_GPU_CHECK_LAUNCH();
}

} // namespace detail

template <int K, class Contribution>
void scatterFacesDevice(const FaceScatterPlan& plan, Strategy s, Contribution f, double* target) {
  if (plan.space() != MemorySpace::Device)
    throw std::invalid_argument("scatterFacesDevice: the plan is in host memory");
  const FaceTopology t = plan.topology();
  if (t.numFaces == 0)
    return;
  switch (s) {
  case Strategy::GlobalAtomic:
    return detail::launchFaceScatter<K, Strategy::GlobalAtomic>(t, f, target);
  case Strategy::SmemTranspose:
    return detail::launchFaceScatter<K, Strategy::SmemTranspose>(t, f, target);
  case Strategy::WarpAggregateSorted:
    return detail::launchFaceScatter<K, Strategy::WarpAggregateSorted>(t, f, target);
  case Strategy::WarpAggregateUnsorted:
    return detail::launchFaceScatter<K, Strategy::WarpAggregateUnsorted>(t, f, target);
  case Strategy::ShuffleTranspose:
    if constexpr (shuffleTransposable(K, kWarpSize))
      return detail::launchFaceScatter<K, Strategy::ShuffleTranspose>(t, f, target);
    else
      throw std::invalid_argument(unsupportedShuffleMessage(K));
  case Strategy::Hybrid:
    return detail::launchFaceScatter<K, Strategy::Hybrid>(t, f, target);
  case Strategy::Coloring:
    for (int c = 0; c < plan.numColors(); ++c) {
      const int begin = plan.colorOffsets()[c], end = plan.colorOffsets()[c + 1];
      if (end > begin) {
        detail::colorScatterKernel<K>
            <<<detail::blocksFor(end - begin), detail::kScatterBlock>>>(t, begin, end, f, target);
        TESSERA_GPU_CHECK_LAUNCH();
      }
    }
    return;
  case Strategy::Gather:
    detail::gatherKernel<K><<<detail::blocksFor(t.numCells), detail::kScatterBlock>>>(t, f, target);
    TESSERA_GPU_CHECK_LAUNCH();
    return;
  }
}

} // namespace tessera::atomics
