// The host's part of a regrid on a forest shaped like the 3D blast's (bench_run: level 0 of 4^3
// patches, a spherical shell refined to level 3, about 7000 leaves of 16^3 cells): the halo plan
// a device run needs, built whole and split into what the kernels read and the rest (as regrids
// did before HaloPlanner) or planned directly (HaloPlanner::unlinkedFaces), and the forest's
// adapt where no flag changes a leaf, the case of most of a run's regrids: with nothing flagged,
// and with the flags a criterion leaves between the blast's regrids; and the reflux plan.
// Counters: leaves, and the plan's operations.
#include <benchmark/benchmark.h>
#include <cmath>
#include <memory>
#include <mpi.h>
#include <vector>

#include "amr/forest.hpp"
#include "amr/forest_patches.hpp"
#include "patches/face_links.hpp"
#include "patches/halo_planner.hpp"

namespace tessera {
namespace {

constexpr int kFinest = 3;

// A forest shaped like the blast's: leaves within 2.5 patch widths of the sphere of radius 0.6
// about the domain's corner refined, three times.
std::unique_ptr<amr::Forest<3>> makeBlastForest() {
  auto f = std::make_unique<amr::Forest<3>>(MPI_COMM_WORLD, Vec<int, 3>{{4, 4, 4}},
                                            Vec<bool, 3>{{false, false, false}}, 0);
  for (int round = 0; round < kFinest; ++round) {
    std::vector<amr::AdaptFlag> flags(f->leaves().size(), amr::AdaptFlag::Keep);
    for (std::size_t i = 0; i < flags.size(); ++i) {
      const amr::Leaf<3>& leaf = f->leaves()[i];
      const double width = 1.0 / (4 << leaf.level);
      double r2 = 0.0;
      for (int a = 0; a < 3; ++a)
        r2 += std::pow((leaf.index[a] + 0.5) * width, 2);
      if (std::fabs(std::sqrt(r2) - 0.6) < 2.5 * width)
        flags[i] = amr::AdaptFlag::Refine;
    }
    f->adapt(flags, 0, kFinest);
  }
  return f;
}

// The blast's forest as refined, shared by the benchmarks that leave it as it is.
amr::Forest<3>& blastForest() {
  static const std::unique_ptr<amr::Forest<3>> forest = makeBlastForest();
  return *forest;
}

const PatchLayout<3> kLayout{16, 1, 5};
const DomainBoundary<3> kBoundary = DomainBoundary<3>::all(BoundaryKind::Reflecting);

void BM_WholePlanThenSplit(benchmark::State& state) {
  amr::Forest<3>& forest = blastForest();
  std::size_t kept = 0;
  for (auto _ : state) {
    HaloPlan<3> plan = amr::forestHaloPlan(forest, kLayout, kBoundary);
    FaceLinks<3> links = unlinkedFaces<3>(int(forest.leaves().size()));
    linkSameLevelFaces(plan, kLayout, links);
    kept = plan.ops.size();
    benchmark::DoNotOptimize(links.neighbour.data());
  }
  state.counters["leaves"] = double(forest.leaves().size());
  state.counters["operations"] = double(kept);
}
BENCHMARK(BM_WholePlanThenSplit)->Unit(benchmark::kMillisecond);

void BM_PlannedUnlinkedFaces(benchmark::State& state) {
  amr::Forest<3>& forest = blastForest();
  std::size_t kept = 0;
  for (auto _ : state) {
    const auto planner = amr::forestHaloPlanner(forest, kLayout, kBoundary);
    std::vector<int> neighbour;
    const HaloPlan<3> plan = planner->unlinkedFaces(neighbour);
    kept = plan.ops.size();
    benchmark::DoNotOptimize(neighbour.data());
  }
  state.counters["leaves"] = double(forest.leaves().size());
  state.counters["operations"] = double(kept);
}
BENCHMARK(BM_PlannedUnlinkedFaces)->Unit(benchmark::kMillisecond);

// The coarse-fine faces to reflux (amr::forestRefluxPlan), built at every regrid that changes the
// mesh.
void BM_RefluxPlan(benchmark::State& state) {
  amr::Forest<3>& forest = blastForest();
  std::size_t ops = 0;
  for (auto _ : state) {
    const std::vector<RefluxOp<3>> plan = amr::forestRefluxPlan(forest, kBoundary);
    ops = plan.size();
    benchmark::DoNotOptimize(plan.data());
  }
  state.counters["leaves"] = double(forest.leaves().size());
  state.counters["operations"] = double(ops);
}
BENCHMARK(BM_RefluxPlan)->Unit(benchmark::kMillisecond);

// No flag set: the forest's part of a regrid that keeps the mesh (p4est's coarsen, refine and
// balance before Forest::adapt looked at the flags first).
void BM_AdaptThatChangesNothing(benchmark::State& state) {
  amr::Forest<3>& forest = blastForest();
  const std::vector<amr::AdaptFlag> flags(forest.leaves().size(), amr::AdaptFlag::Keep);
  for (auto _ : state)
    benchmark::DoNotOptimize(forest.adapt(flags, 0, kFinest));
  state.counters["leaves"] = double(forest.leaves().size());
}
BENCHMARK(BM_AdaptThatChangesNothing)->Unit(benchmark::kMillisecond);

// The flags a criterion leaves between the blast's regrids: the finest leaves ask to refine (they
// cannot), every coarser leaf to coarsen. Adapted until nothing changes first, as a run's regrids
// leave it, so that each timed adapt keeps the mesh: what it costs is the look at the flags (the
// families beside finer leaves, which balance would refine again).
void BM_AdaptThatKeepsTheMesh(benchmark::State& state) {
  static const std::unique_ptr<amr::Forest<3>> forest = makeBlastForest(); // coarsened below
  const auto criterionFlags = [&] {
    std::vector<amr::AdaptFlag> flags;
    for (const amr::Leaf<3>& leaf : forest->leaves())
      flags.push_back(leaf.level == kFinest ? amr::AdaptFlag::Refine : amr::AdaptFlag::Coarsen);
    return flags;
  };
  while (forest->adapt(criterionFlags(), 0, kFinest)) {
  }
  const std::vector<amr::AdaptFlag> flags = criterionFlags();
  for (auto _ : state)
    benchmark::DoNotOptimize(forest->adapt(flags, 0, kFinest));
  state.counters["leaves"] = double(forest->leaves().size());
}
BENCHMARK(BM_AdaptThatKeepsTheMesh)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace tessera

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
