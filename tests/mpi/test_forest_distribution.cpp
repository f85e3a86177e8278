// The forest on several ranks (ctest label mpi: 1, 2 and 4 ranks), in 2D and 3D, on boxes
// periodic along some axes and refined unevenly (a quarter of the domain one level deeper):
// - partition: the ranks' weight sums (weight 1 + level, a deeper patch costing more) lie within
//   5% of the ideal; the leaves of all ranks, in rank order, are the leaves of the same forest
//   adapted on one rank; each leaf's values travel with it;
// - ghost layer: a rank's ghost leaves are exactly the other ranks' leaves that touch one of its
//   own across a face, an edge or a corner (periodic sides included), found here by brute force
//   over all leaves; the ghost exchange delivers their owners' values;
// - ghost reads: the cells of each ghost that the whole halo plan reads are those that the plans
//   of the mirrors alone (the leaves beside other ranks', amr::ghostPatches) read.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <gtest/gtest.h>
#include <memory>
#include <mpi.h>
#include <numeric>
#include <type_traits>
#include <vector>

#include "amr/forest.hpp"
#include "amr/forest_patches.hpp"
#include "patches/ghost_reads.hpp"

namespace tessera::amr {
namespace {

template <int Dim>
struct Box {
  Vec<int, Dim> trees;
  Vec<bool, Dim> periodic;
  int initialLevel;
};

template <int Dim>
Box<Dim> box() {
  if constexpr (Dim == 2)
    return {{{16, 8}}, {{true, false}}, 1};
  else
    return {{{4, 4, 4}}, {{true, true, false}}, 2};
}

// Refines the leaves of the left quarter along x (in level-0 patches), whatever rank holds them.
template <int Dim>
void refineLeftQuarter(Forest<Dim>& forest) {
  const Box<Dim> b = box<Dim>();
  std::vector<AdaptFlag> flags;
  for (const Leaf<Dim>& leaf : forest.leaves())
    flags.push_back(4 * leaf.index[0] < (b.trees[0] << leaf.level) ? AdaptFlag::Refine
                                                                   : AdaptFlag::Keep);
  forest.adapt(flags, 0, b.initialLevel + 1);
}

// Forests neither copy nor move (they own p4est objects): a pointer.
template <int Dim>
std::unique_ptr<Forest<Dim>> adaptedForest(MPI_Comm comm) {
  const Box<Dim> b = box<Dim>();
  auto forest = std::make_unique<Forest<Dim>>(comm, b.trees, b.periodic, b.initialLevel);
  refineLeftQuarter(*forest);
  return forest;
}

// A leaf as values: tree, level, index; what the tests send with it.
template <int Dim>
std::vector<double> valuesOf(const std::vector<Leaf<Dim>>& leaves) {
  std::vector<double> values;
  for (const Leaf<Dim>& leaf : leaves) {
    values.push_back(leaf.tree);
    values.push_back(leaf.level);
    for (int a = 0; a < Dim; ++a)
      values.push_back(leaf.index[a]);
  }
  return values;
}

template <int Dim>
constexpr int kValuesPerLeaf = 2 + Dim;

// Every rank's leaves in rank order, and where each rank's start.
template <int Dim>
struct AllLeaves {
  std::vector<Leaf<Dim>> leaves;
  std::vector<int> rankOffsets; // ranks + 1
};

template <int Dim>
AllLeaves<Dim> gatherLeaves(const std::vector<Leaf<Dim>>& local) {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::vector<double> mine = valuesOf(local);
  const int count = int(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(ranks)), offsets(counts.size() + 1, 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < ranks; ++r)
    offsets[std::size_t(r) + 1] = offsets[std::size_t(r)] + counts[std::size_t(r)];
  std::vector<double> all(std::size_t(offsets.back()));
  MPI_Allgatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), offsets.data(),
                 MPI_DOUBLE, MPI_COMM_WORLD);
  AllLeaves<Dim> result;
  for (std::size_t i = 0; i < all.size(); i += kValuesPerLeaf<Dim>) {
    Leaf<Dim> leaf;
    leaf.tree = int(all[i]);
    leaf.level = int(all[i + 1]);
    for (int a = 0; a < Dim; ++a)
      leaf.index[a] = int(all[i + 2 + std::size_t(a)]);
    result.leaves.push_back(leaf);
  }
  for (int offset : offsets)
    result.rankOffsets.push_back(offset / kValuesPerLeaf<Dim>);
  return result;
}

// Whether two leaves' closed boxes meet (a face, an edge or a corner in common), in units of the
// finest level, with the periodic axes wrapped.
template <int Dim>
bool touch(const Leaf<Dim>& p, const Leaf<Dim>& q, int finest) {
  const Box<Dim> b = box<Dim>();
  for (int a = 0; a < Dim; ++a) {
    const long pLo = long(p.index[a]) << (finest - p.level), pHi = pLo + (1L << (finest - p.level));
    const long qLo = long(q.index[a]) << (finest - q.level), qHi = qLo + (1L << (finest - q.level));
    const long period = long(b.trees[a]) << finest;
    bool meets = false;
    for (long shift : {0L, period, -period})
      if (shift == 0 || b.periodic[a])
        meets = meets || (pLo <= qHi + shift && qLo + shift <= pHi);
    if (!meets)
      return false;
  }
  return true;
}

template <class T>
class ForestDistribution : public ::testing::Test {};
using Dimensions = ::testing::Types<std::integral_constant<int, 2>, std::integral_constant<int, 3>>;
TYPED_TEST_SUITE(ForestDistribution, Dimensions);

TYPED_TEST(ForestDistribution, PartitionBalancesWeightsAndMovesLeafValues) {
  constexpr int Dim = TypeParam::value;
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const auto owned = adaptedForest<Dim>(MPI_COMM_WORLD);
  Forest<Dim>& forest = *owned;
  const auto costs = [&forest] {
    std::vector<int> weights;
    for (const Leaf<Dim>& leaf : forest.leaves())
      weights.push_back(1 + leaf.level); // a deeper patch costs more
    return weights;
  };
  const std::vector<double> values = valuesOf(forest.leaves());
  const LeafSplit split = forest.repartition(costs());
  std::vector<double> moved(forest.leaves().size() * kValuesPerLeaf<Dim>);
  mpi::migrateLeaves(MPI_COMM_WORLD, split.ranges(), values.data(), moved.data(),
                     kValuesPerLeaf<Dim>, MemorySpace::Host);
  EXPECT_EQ(moved, valuesOf(forest.leaves())) << "leaf values did not travel with their leaves";

  const std::vector<int> mineNow = costs();
  const long mine = std::accumulate(mineNow.begin(), mineNow.end(), 0L);
  std::vector<long> sums(static_cast<std::size_t>(ranks));
  MPI_Allgather(&mine, 1, MPI_LONG, sums.data(), 1, MPI_LONG, MPI_COMM_WORLD);
  const long total = std::accumulate(sums.begin(), sums.end(), 0L);
  const double ideal = double(total) / ranks;
  for (int r = 0; r < ranks; ++r)
    EXPECT_LE(std::abs(double(sums[std::size_t(r)]) - ideal), 0.05 * ideal) << "rank " << r;

  const auto alone = adaptedForest<Dim>(MPI_COMM_SELF);
  EXPECT_EQ(gatherLeaves(forest.leaves()).leaves, alone->leaves());
}

TYPED_TEST(ForestDistribution, GhostLeavesAreTheTouchingLeavesOfOtherRanksAndGetTheirValues) {
  constexpr int Dim = TypeParam::value;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const auto owned = adaptedForest<Dim>(MPI_COMM_WORLD);
  Forest<Dim>& forest = *owned;
  forest.repartition(std::vector<int>(forest.leaves().size(), 1));
  const AllLeaves<Dim> all = gatherLeaves(forest.leaves());
  const int finest = box<Dim>().initialLevel + 1;

  std::vector<GhostLeaf<Dim>> expected;
  int owner = 0;
  for (std::size_t g = 0; g < all.leaves.size(); ++g) {
    while (int(g) >= all.rankOffsets[std::size_t(owner) + 1])
      ++owner;
    if (owner == rank)
      continue;
    const bool touches =
        std::any_of(forest.leaves().begin(), forest.leaves().end(),
                    [&](const Leaf<Dim>& l) { return touch(l, all.leaves[g], finest); });
    if (touches)
      expected.push_back({all.leaves[g], owner});
  }
  ASSERT_EQ(forest.ghostLeaves().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(forest.ghostLeaves()[i].leaf, expected[i].leaf) << "ghost " << i;
    EXPECT_EQ(forest.ghostLeaves()[i].owner, expected[i].owner) << "ghost " << i;
  }

  std::vector<Leaf<Dim>> ghostLeaves;
  for (const GhostLeaf<Dim>& g : forest.ghostLeaves())
    ghostLeaves.push_back(g.leaf);
  EXPECT_EQ(forest.exchangeGhostValues(valuesOf(forest.leaves()), kValuesPerLeaf<Dim>),
            valuesOf(ghostLeaves));
}

TYPED_TEST(ForestDistribution, MirrorsReadWhatTheWholePlanReadsOfGhosts) {
  constexpr int Dim = TypeParam::value;
  const auto owned = adaptedForest<Dim>(MPI_COMM_WORLD);
  Forest<Dim>& forest = *owned;
  forest.repartition(std::vector<int>(forest.leaves().size(), 1));
  DomainBoundary<Dim> boundary = DomainBoundary<Dim>::all(BoundaryKind::Outflow);
  for (int a = 0; a < Dim; ++a)
    if (box<Dim>().periodic[a])
      boundary.kind[a] = {BoundaryKind::Periodic, BoundaryKind::Periodic};
  const PatchLayout<Dim> layout{8, 2, 1};
  const auto planner = forestHaloPlanner(forest, layout, boundary);
  const std::vector<int> mirrors = mpi::sentItems(forest.ghostExchangePlan());
  const int leaves = int(forest.leaves().size()), ghosts = int(forest.ghostLeaves().size());
  const auto whole = haloPlanReads(planner->whole(), layout, leaves, ghosts);
  EXPECT_EQ(haloPlanReads(planner->wholeOf(mirrors), layout, leaves, ghosts), whole);
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks > 1) { // the comparison is not empty
    EXPECT_TRUE(std::any_of(whole.begin(), whole.end(), [](const auto& r) { return !r.empty(); }));
  }
}

} // namespace
} // namespace tessera::amr
