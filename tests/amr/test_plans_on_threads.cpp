// The plans a regrid builds on the host's threads (HaloPlanner's parts, the reflux plan) are those
// of one thread, operation for operation and in the same order, whatever the thread count: the
// split of the patches over threads changes nothing a kernel reads or the order it reads it in.
#include <gtest/gtest.h>
#include <omp.h>
#include <random>
#include <vector>

#include "amr/forest.hpp"
#include "amr/forest_patches.hpp"

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

TEST(PlansOnThreads, EqualOneThreadsOperationForOperation3D) {
  // Periodic in x (links across the wrap are not links; the reflux plan wraps), refined at random
  // three times so that every kind of face and a few hundred patches are there.
  Forest<3> forest(MPI_COMM_WORLD, {{3, 2, 2}}, {{true, false, false}}, 0);
  std::mt19937 random(11u);
  for (int round = 0; round < 3; ++round) {
    std::vector<AdaptFlag> flags(forest.leaves().size());
    for (auto& f : flags)
      f = random() % 3 == 0 ? AdaptFlag::Refine : AdaptFlag::Keep;
    forest.adapt(flags, 0, 3);
  }
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

} // namespace
} // namespace tessera::amr
