#pragma once
// Warp-level building blocks of the aggregation strategies and the fused patch update, for CUDA
// warps of 32 lanes and HIP wavefronts of 64: shuffles (down and up within segments of `width`
// lanes, a power of two up to the warp's width, where a lane with none there keeps its own),
// ballots, match_any (CUDA has it in hardware from sm_70; HIP has none, so it is built from ballot
// and shuffle as seed 000 does), and sums over the lanes of a run or a partition. Every function
// must be called by all lanes of the warp: the kernels keep lanes past the last face alive with key
// -1 and zero values. Included only from .cu translation units.
#include "engine/gpu_runtime.hpp"

namespace tessera::atomics::warp {

#if defined(TESSERA_BACKEND_CUDA)
using LaneMask = unsigned int;
inline constexpr LaneMask kAllLanes = 0xffffffffu;
template <class T>
__device__ inline T shuffle(T v, int srcLane) {
  return __shfl_sync(kAllLanes, v, srcLane);
}
template <class T>
__device__ inline T shuffleDown(T v, int delta, int width = kWarpSize) {
  return __shfl_down_sync(kAllLanes, v, unsigned(delta), width);
}
template <class T>
__device__ inline T shuffleUp(T v, int delta, int width = kWarpSize) {
  return __shfl_up_sync(kAllLanes, v, unsigned(delta), width);
}
__device__ inline LaneMask ballot(bool p) {
  return __ballot_sync(kAllLanes, p);
}
__device__ inline int popCount(LaneMask m) {
  return __popc(m);
}
// 1 + index of the lowest set bit, 0 for none.
__device__ inline int findFirstSet(LaneMask m) {
  return __ffs(int(m));
}
__device__ inline void syncLanes() {
  __syncwarp();
}
__device__ inline LaneMask matchAny(int key) {
  return __match_any_sync(kAllLanes, key);
}
#else
using LaneMask = unsigned long long;
inline constexpr LaneMask kAllLanes = ~0ull;
template <class T>
__device__ inline T shuffle(T v, int srcLane) {
  return __shfl(v, srcLane);
}
template <class T>
__device__ inline T shuffleDown(T v, int delta, int width = kWarpSize) {
  return __shfl_down(v, unsigned(delta), width);
}
template <class T>
__device__ inline T shuffleUp(T v, int delta, int width = kWarpSize) {
  return __shfl_up(v, unsigned(delta), width);
}
__device__ inline LaneMask ballot(bool p) {
  return __ballot(p);
}
__device__ inline int popCount(LaneMask m) {
  return __popcll(m);
}
__device__ inline int findFirstSet(LaneMask m) {
  return __ffsll(m);
}
__device__ inline void syncLanes() {
  // A wavefront executes in lockstep; the fence keeps the compiler from reordering shared-memory
  // accesses across the exchange.
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
// The lanes holding the same key: one round per distinct key in the wavefront, each round's
// leader (the lowest lane not yet matched) broadcasting its key.
__device__ inline LaneMask matchAny(int key) {
  LaneMask unmatched = kAllLanes, mine = 0;
  while (unmatched != 0) {
    const int leaderKey = shuffle(key, findFirstSet(unmatched) - 1);
    const LaneMask same = ballot(key == leaderKey);
    if (key == leaderKey)
      mine = same;
    unmatched &= ~same;
  }
  return mine;
}
#endif

__device__ inline int laneIndex() {
  return int(threadIdx.x) % kWarpSize;
}
__device__ inline LaneMask lanesBelow(int lane) {
  return (LaneMask(1) << lane) - 1;
}
__device__ inline LaneMask lanesAbove(int lane) {
  return lane == kWarpSize - 1 ? 0 : kAllLanes << (lane + 1);
}

// Runs of equal keys in consecutive lanes (faces sorted by owner): each run's first lane ends up
// with the run's sums of the K values and true is returned there. A suffix scan bounded by the
// run (Hillis-Steele, distance doubling) takes log2 of the longest run in rounds; the bound comes
// from the next run's head, so equal keys in separate runs are never merged.
template <int K>
__device__ inline bool sumOverRun(int key, double (&v)[K]) {
  const int lane = laneIndex();
  const int previousKey = shuffle(key, lane == 0 ? 0 : lane - 1);
  const bool head = lane == 0 || previousKey != key;
  const LaneMask laterHeads = ballot(head) & lanesAbove(lane);
  const int runEnd = laterHeads != 0 ? findFirstSet(laterHeads) - 2 : kWarpSize - 1;
  for (int d = 1; ballot(lane + d <= runEnd) != 0; d *= 2)
    for (int k = 0; k < K; ++k) {
      const double other = shuffleDown(v[k], d);
      if (lane + d <= runEnd)
        v[k] += other;
    }
  return head;
}

// Lanes of one partition (from matchAny) anywhere in the warp: the lowest lane ends up with the
// partition's sums and true is returned there. A tree over the peers' ranks (E. Westphal,
// "Voting and shuffling to optimize atomic operations", NVIDIA 2015): in round r every peer adds
// the partial sum of the next higher remaining peer, then the peers with an odd rank drop out.
template <int K>
__device__ inline bool sumOverPeers(LaneMask peers, double (&v)[K]) {
  const int lane = laneIndex();
  int rank = popCount(peers & lanesBelow(lane));
  LaneMask higher = peers & lanesAbove(lane);
  while (ballot(higher != 0) != 0) {
    const int next = findFirstSet(higher);
    for (int k = 0; k < K; ++k) {
      const double other = shuffle(v[k], next == 0 ? lane : next - 1);
      if (next != 0)
        v[k] += other;
    }
    higher &= ~ballot((rank & 1) != 0);
    rank >>= 1;
  }
  return (peers & lanesBelow(lane)) == 0;
}

} // namespace tessera::atomics::warp
