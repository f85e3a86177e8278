// The plans a regrid builds on the host's threads (HaloPlanner's parts, the reflux plan) are those
// of one thread, operation for operation and in the same order, whatever the thread count: the
// split of the patches over threads changes nothing a kernel reads or the order it reads it in.
#include <gtest/gtest.h>
#include <omp.h>
#include <random>
#include <vector>

#include "amr/forest.hpp"
#include "amr/forest_patches.hpp"
#include "amr/refinement_buffer.hpp"

namespace tessera::amr {
namespace {

template <int Dim>
struct Plans {
  HaloPlan<Dim> whole, unlinked, unread;
  std::vector<int> links;
  std::vector<RefluxOp<Dim>> reflux;
};

template <int Dim>
Plans<Dim> plansOn(int threads, const Forest<Dim>& forest, const PatchLayout<Dim>& layout,
                   const DomainBoundary<Dim>& boundary) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  Plans<Dim> plans;
  const auto planner = forestHaloPlanner(forest, layout, boundary);
  plans.whole = planner->whole();
  plans.unlinked = planner->unlinkedFaces(plans.links);
  plans.unread = planner->unread();
  plans.reflux = forestRefluxPlan(forest, boundary);
  EXPECT_TRUE(planner->refluxPlan() == plans.reflux) << "the planner's index gives the same plan";
  omp_set_num_threads(saved);
  return plans;
}

// 3 x 2 x 2 trees, periodic in x (links across the wrap are not links; the reflux plan wraps),
// refined at random three times so that every kind of face and a few hundred patches are there.
void refineAtRandom(Forest<3>& forest, std::mt19937& random) {
  for (int round = 0; round < 3; ++round) {
    std::vector<AdaptFlag> flags(forest.leaves().size());
    for (auto& f : flags)
      f = random() % 3 == 0 ? AdaptFlag::Refine : AdaptFlag::Keep;
    forest.adapt(flags, 0, 3);
  }
}

TEST(PlansOnThreads, EqualOneThreadsOperationForOperation3D) {
  Forest<3> forest(MPI_COMM_WORLD, {{3, 2, 2}}, {{true, false, false}}, 0);
  std::mt19937 random(11u);
  refineAtRandom(forest, random);
  ASSERT_GT(forest.leaves().size(), 200u);
  DomainBoundary<3> boundary = DomainBoundary<3>::all(BoundaryKind::Reflecting);
  boundary.kind[0] = {BoundaryKind::Periodic, BoundaryKind::Periodic};
  boundary.kind[1][1] = BoundaryKind::Outflow;
  const PatchLayout<3> layout{4, 2, 5};
  const Plans<3> one = plansOn(1, forest, layout, boundary);
  ASSERT_FALSE(one.reflux.empty());
  ASSERT_FALSE(one.unlinked.ops.empty());
  for (int threads : {2, 3, 8}) {
    const Plans<3> many = plansOn(threads, forest, layout, boundary);
    EXPECT_TRUE(many.whole.ops == one.whole.ops) << threads << " threads";
    EXPECT_TRUE(many.unlinked.ops == one.unlinked.ops) << threads << " threads";
    EXPECT_EQ(many.links, one.links) << threads << " threads";
    EXPECT_TRUE(many.unread.ops == one.unread.ops) << threads << " threads";
    EXPECT_TRUE(many.reflux == one.reflux) << threads << " threads";
  }
}

// The refinement buffer's lookups on threads mark what one thread's mark; and the leaves marked
// are those as fine as a refining leaf or coarser that touch it (checked by the leaves' boxes).
TEST(PlansOnThreads, RefinementBufferEqualsOneThreadsAndTouchesTheRefiningLeaves3D) {
  Forest<3> forest(MPI_COMM_WORLD, {{3, 2, 2}}, {{true, false, false}}, 0);
  std::mt19937 random(5u);
  refineAtRandom(forest, random);
  const std::vector<PatchPlacement<3>> placed = placementsWithGhosts(forest);
  const PlacementIndex<3> index(placed);
  std::vector<AdaptFlag> asked(placed.size(), AdaptFlag::Keep);
  for (auto& f : asked)
    f = random() % 7 == 0 ? AdaptFlag::Refine : AdaptFlag::Coarsen;
  const int owned = int(placed.size());
  const auto on = [&](int threads) {
    const int saved = omp_get_max_threads();
    omp_set_num_threads(threads);
    const std::vector<unsigned char> touching = leavesTouchingRefinement<3>(
        placed, index, asked, owned, forest.treesPerAxis(), forest.periodic());
    omp_set_num_threads(saved);
    return touching;
  };
  const std::vector<unsigned char> one = on(1);
  for (int threads : {2, 3, 8})
    EXPECT_EQ(on(threads), one) << threads << " threads";

  // A refining leaf's buffer is the leaves as fine as it or coarser whose boxes (in units of the
  // finest cells, level 3) meet its closed box along every axis, along x also across the wrap
  // (finer ones touching it refine no further for it).
  const auto meets = [](int a0, int a1, int b0, int b1) { return a0 <= b1 && b0 <= a1; };
  const int wrap = 3 << 3;
  const auto buffers = [&](const PatchPlacement<3>& p, const PatchPlacement<3>& q) {
    if (q.level > p.level)
      return false;
    for (int a = 0; a < 3; ++a) {
      const int pw = 1 << (3 - p.level), qw = 1 << (3 - q.level);
      const int p0 = p.index[a] * pw, p1 = p0 + pw, q0 = q.index[a] * qw, q1 = q0 + qw;
      const bool met =
          meets(p0, p1, q0, q1) ||
          (a == 0 && (meets(p0, p1, q0 + wrap, q1 + wrap) || meets(p0, p1, q0 - wrap, q1 - wrap)));
      if (!met)
        return false;
    }
    return true;
  };
  int refining = 0, buffered = 0;
  for (std::size_t q = 0; q < placed.size(); ++q) {
    bool expected = false;
    for (std::size_t p = 0; p < placed.size() && !expected; ++p)
      expected = asked[p] == AdaptFlag::Refine && buffers(placed[p], placed[q]);
    refining += asked[q] == AdaptFlag::Refine;
    buffered += expected && asked[q] != AdaptFlag::Refine;
    EXPECT_EQ(one[q] != 0, expected) << "leaf " << q;
  }
  ASSERT_GT(buffered, 10);
  ASSERT_GT(refining, 10);
}

} // namespace
} // namespace tessera::amr
