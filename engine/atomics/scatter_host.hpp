#pragma once
// The face scatter on the host: target[c * K + k] += the K values each face gives its owner and
// its neighbour c. A contribution is a copyable callable
//   TESSERA_HOST_DEVICE void operator()(int face, double* toOwner, double* toNeighbour) const
// that writes K values to each (toNeighbour is ignored on boundary faces, neighbour < 0).
//
// scatterFacesReference is the serial sum in face order that every strategy is tested against.
// scatterFacesHost runs a strategy on the host with OpenMP. The warp strategies there are the
// host twins of the device kernels: tiles of kHostLanes consecutive faces, lane by lane, with the
// device's index arithmetic (shuffle_transpose.hpp) and its partitions into runs and peers, each
// lane's additions atomic as on the device.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "engine/atomics/face_scatter_plan.hpp"
#include "engine/atomics/race_free_scatter.hpp"
#include "engine/atomics/shuffle_transpose.hpp"
#include "engine/atomics/strategy.hpp"

namespace tessera::atomics {

// The width of the host twins' tiles: a CUDA warp.
inline constexpr int kHostLanes = 32;

template <int K, class Contribution>
void scatterFacesReference(const FaceTopology& t, const Contribution& f, double* target) {
  for (int face = 0; face < t.numFaces; ++face)
    addFacePlainly<K>(t, f, face, target);
}

namespace detail {

inline void atomicAddHost(double* address, double value) {
#pragma omp atomic
  *address += value;
}

// One side of one tile of W lanes: lane p holds key[p] (the cell, -1 for none) and the row
// rows[p] of K values.
template <int K, int W>
struct TileSide {
  std::array<int, W> key;
  std::array<std::array<double, K>, W> rows;
};

template <int K, int W>
void addDirect(const TileSide<K, W>& side, double* target) {
  for (int p = 0; p < W; ++p)
    if (side.key[p] >= 0)
      for (int k = 0; k < K; ++k)
        atomicAddHost(target + side.key[p] * K + k, side.rows[p][k]);
}

// After a transposition lane p holds in slot j entry p + j W of the tile's W x K array.
template <int K, int W>
void addTransposedRows(const TileSide<K, W>& side, const std::array<std::array<double, K>, W>& held,
                       double* target) {
  for (int p = 0; p < W; ++p)
    for (int j = 0; j < K; ++j) {
      const int entry = p + j * W, row = entry / K;
      if (side.key[row] >= 0)
        atomicAddHost(target + side.key[row] * K + (entry - row * K), held[p][j]);
    }
}

// Listing 2: through a W x K stage read back in row-major order.
template <int K, int W>
void addSmemTransposed(const TileSide<K, W>& side, double* target) {
  std::array<std::array<double, K>, W> held;
  for (int p = 0; p < W; ++p)
    for (int j = 0; j < K; ++j) {
      const int entry = p + j * W;
      held[p][j] = side.rows[entry / K][entry % K];
    }
  addTransposedRows<K, W>(side, held, target);
}

// Listings 3 and 4: every lane's shuffles of one step read the values before that step.
template <int K, int W>
void addShuffleTransposed(const TileSide<K, W>& side, double* target) {
  std::array<std::array<double, K>, W> v = side.rows;
  if constexpr ((K & (K - 1)) == 0) {
    for (int s = 1; s < K; ++s) {
      const auto before = v;
      for (int p = 0; p < W; ++p) {
        const int q = powerOfTwoPartner(p, s);
        v[p][powerOfTwoSlot(q, K)] = before[q][powerOfTwoSlot(p, K)];
      }
    }
    for (int p = 0; p < W; ++p)
      for (int i = 0; i < K; ++i) {
        const int row = (p & ~(K - 1)) + i;
        if (side.key[row] >= 0)
          atomicAddHost(target + side.key[row] * K + (p & (K - 1)), v[p][i]);
      }
  } else {
    constexpr int stride = oddStride(K);
    for (int i = 0; i < K; ++i)
      for (int p = 0; p < W; ++p) {
        const int q = oddSourceLane(p, i, stride, W);
        v[p][oddSlot(q, i, K, W)] = side.rows[q][i];
      }
    addTransposedRows<K, W>(side, v, target);
  }
}

// Runs of equal keys in consecutive lanes: the first lane of each run adds the run's sum.
template <int K, int W>
void addSortedRuns(const TileSide<K, W>& side, double* target) {
  for (int head = 0; head < W;) {
    int end = head + 1;
    while (end < W && side.key[end] == side.key[head])
      ++end;
    if (side.key[head] >= 0)
      for (int k = 0; k < K; ++k) {
        double sum = 0.0;
        for (int p = head; p < end; ++p)
          sum += side.rows[p][k];
        atomicAddHost(target + side.key[head] * K + k, sum);
      }
    head = end;
  }
}

// Partitions of equal keys anywhere in the tile (match_any): the lowest lane adds the sum.
template <int K, int W>
void addPeerSums(const TileSide<K, W>& side, double* target) {
  for (int leader = 0; leader < W; ++leader) {
    const int key = side.key[leader];
    if (key < 0 ||
        std::find(side.key.begin(), side.key.begin() + leader, key) != side.key.begin() + leader)
      continue;
    for (int k = 0; k < K; ++k) {
      double sum = 0.0;
      for (int p = leader; p < W; ++p)
        if (side.key[p] == key)
          sum += side.rows[p][k];
      atomicAddHost(target + key * K + k, sum);
    }
  }
}

template <int K, class Contribution>
void scatterTiles(const FaceTopology& t, Strategy s, const Contribution& f, double* target) {
  constexpr int W = kHostLanes;
  const int tiles = (t.numFaces + W - 1) / W;
#pragma omp parallel for schedule(static)
  for (int tile = 0; tile < tiles; ++tile) {
    TileSide<K, W> owner{}, neighbour{};
    for (int p = 0; p < W; ++p) {
      const int face = tile * W + p;
      owner.key[p] = neighbour.key[p] = -1;
      if (face < t.numFaces) {
        f(face, owner.rows[p].data(), neighbour.rows[p].data());
        owner.key[p] = t.owner[face];
        neighbour.key[p] = t.neighbour[face];
      }
    }
    switch (s) {
    case Strategy::GlobalAtomic:
      addDirect<K, W>(owner, target), addDirect<K, W>(neighbour, target);
      break;
    case Strategy::SmemTranspose:
      addSmemTransposed<K, W>(owner, target), addSmemTransposed<K, W>(neighbour, target);
      break;
    case Strategy::WarpAggregateSorted:
      addSortedRuns<K, W>(owner, target), addPeerSums<K, W>(neighbour, target);
      break;
    case Strategy::WarpAggregateUnsorted:
      addPeerSums<K, W>(owner, target), addPeerSums<K, W>(neighbour, target);
      break;
    case Strategy::ShuffleTranspose:
      if constexpr (shuffleTransposable(K, W))
        addShuffleTransposed<K, W>(owner, target), addShuffleTransposed<K, W>(neighbour, target);
      break;
    case Strategy::Hybrid:
      addSortedRuns<K, W>(owner, target), addSmemTransposed<K, W>(neighbour, target);
      break;
    default:
      break;
    }
  }
}

template <int K, class Contribution>
void scatterByColor(const FaceScatterPlan& plan, const Contribution& f, double* target) {
  const FaceTopology t = plan.topology();
  for (int c = 0; c < plan.numColors(); ++c) {
    const int begin = plan.colorOffsets()[c], end = plan.colorOffsets()[c + 1];
#pragma omp parallel for schedule(static)
    for (int i = begin; i < end; ++i)
      addFacePlainly<K>(t, f, t.facesByColor[i], target);
  }
}

template <int K, class Contribution>
void gatherOverCells(const FaceTopology& t, const Contribution& f, double* target) {
#pragma omp parallel for schedule(static)
  for (int cell = 0; cell < t.numCells; ++cell)
    gatherCell<K>(t, f, cell, target);
}

} // namespace detail

template <int K, class Contribution>
void scatterFacesHost(const FaceScatterPlan& plan, Strategy s, const Contribution& f,
                      double* target) {
  if (plan.space() != MemorySpace::Host)
    throw std::invalid_argument("scatterFacesHost: the plan is in device memory");
  if (s == Strategy::ShuffleTranspose && !shuffleTransposable(K, kHostLanes))
    throw std::invalid_argument(unsupportedShuffleMessage(K));
  if (s == Strategy::Coloring)
    detail::scatterByColor<K>(plan, f, target);
  else if (s == Strategy::Gather)
    detail::gatherOverCells<K>(plan.topology(), f, target);
  else
    detail::scatterTiles<K>(plan.topology(), s, f, target);
}

} // namespace tessera::atomics
