// The host's part of a regrid on a forest shaped like the 3D blast's (bench_run: level 0 of 4^3
// patches, a spherical shell refined to level 3, about 7000 leaves of 16^3 cells): the halo plan
// a device run needs, built whole and split into what the kernels read and the rest (as regrids
// did before HaloPlanner) or planned directly (HaloPlanner::unlinkedFaces), and the forest's
// adapt where no flag changes a leaf, the case of most of a run's regrids: with nothing flagged,
// and with the flags a criterion leaves between the blast's regrids; the reflux plan; and the whole
// host part of a regrid that changes the mesh, phase by phase. Counters: leaves, and the plan's
// operations (or the phases' milliseconds).
#include <algorithm>
#include <benchmark/benchmark.h>
#include <chrono>
#include <cmath>
#include <memory>
#include <mpi.h>
#include <vector>

#include "amr/forest.hpp"
#include "amr/forest_patches.hpp"
#include "amr/refinement_buffer.hpp"
#include "engine/mpi/value_plan.hpp"
#include "patches/face_links.hpp"
#include "patches/ghost_reads.hpp"
#include "patches/halo_planner.hpp"
#include "patches/remap_plan.hpp"

namespace tessera {
namespace {

constexpr int kFinest = 3;

// The flags of a blast whose shock is the sphere of `radius` about the domain's corner: leaves
// within 2.5 of their widths of it refine, the others coarsen.
std::vector<amr::AdaptFlag> shellFlags(const amr::Forest<3>& forest, double radius) {
  std::vector<amr::AdaptFlag> flags;
  for (const amr::Leaf<3>& leaf : forest.leaves()) {
    const double width = 1.0 / (4 << leaf.level);
    double r2 = 0.0;
    for (int a = 0; a < 3; ++a)
      r2 += std::pow((leaf.index[a] + 0.5) * width, 2);
    flags.push_back(std::fabs(std::sqrt(r2) - radius) < 2.5 * width ? amr::AdaptFlag::Refine
                                                                    : amr::AdaptFlag::Coarsen);
  }
  return flags;
}

// A forest shaped like the blast's: leaves near the sphere of radius 0.6 refined, three times.
std::unique_ptr<amr::Forest<3>> makeBlastForest() {
  auto f = std::make_unique<amr::Forest<3>>(MPI_COMM_WORLD, Vec<int, 3>{{4, 4, 4}},
                                            Vec<bool, 3>{{false, false, false}}, 0);
  for (int round = 0; round < kFinest; ++round) {
    std::vector<amr::AdaptFlag> flags = shellFlags(*f, 0.6);
    for (amr::AdaptFlag& flag : flags)
      if (flag == amr::AdaptFlag::Coarsen)
        flag = amr::AdaptFlag::Keep;
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

// The host's part of a regrid that changes the mesh (AmrSolver::adapt on one rank, in its order):
// the forest's adapt to a shell that moved by half a finest patch since the last regrid (the
// blast's shock moves about that far between its mesh-changing regrids; here back and forth), the
// remap plan, the leaves' geometry, the reflux plan, the halo planner and the faces it plans for
// the kernels. Counters: each phase's milliseconds a regrid.
void BM_RegridThatChangesTheMesh(benchmark::State& state) {
  auto forest = makeBlastForest();
  const Vec<double, 3> lower{{0.0, 0.0, 0.0}}, upper{{1.0, 1.0, 1.0}};
  double radius = 0.6;
  const double step = 0.5 / (4 << kFinest);
  enum Phase { Forest, Remap, Geometry, Planner, Reflux, Faces, kPhases };
  double seconds[kPhases] = {};
  using Clock = std::chrono::steady_clock;
  std::size_t changed = 0;
  for (auto _ : state) {
    radius = radius > 0.6 ? 0.6 : 0.6 + step; // back and forth: every regrid costs the same
    const std::vector<amr::AdaptFlag> flags = shellFlags(*forest, radius); // the device's, in a run
    auto mark = Clock::now();
    const auto lap = [&](Phase phase) {
      const auto now = Clock::now();
      seconds[phase] += std::chrono::duration<double>(now - mark).count();
      mark = now;
    };
    const std::vector<PatchPlacement<3>> before = amr::leafPlacements(*forest);
    changed += forest->adapt(flags, 0, kFinest);
    const std::vector<PatchPlacement<3>> after = amr::leafPlacements(*forest);
    lap(Forest);
    benchmark::DoNotOptimize(buildRemapPlan<3>(before, after).data());
    lap(Remap);
    benchmark::DoNotOptimize(amr::leafGeometry(*forest, kLayout, lower, upper).data());
    lap(Geometry);
    const auto planner = amr::forestHaloPlanner(*forest, kLayout, kBoundary);
    lap(Planner);
    benchmark::DoNotOptimize(planner->refluxPlan().data());
    lap(Reflux);
    std::vector<int> neighbour;
    benchmark::DoNotOptimize(planner->unlinkedFaces(neighbour).ops.data());
    lap(Faces);
  }
  const char* names[kPhases] = {"forest", "remap", "geometry", "planner", "reflux", "faces"};
  for (int p = 0; p < kPhases; ++p)
    state.counters[names[p]] = 1e3 * seconds[p] / double(state.iterations());
  state.counters["leaves"] = double(forest->leaves().size());
  state.counters["changed"] = double(changed) / double(state.iterations());
}
BENCHMARK(BM_RegridThatChangesTheMesh)->Unit(benchmark::kMillisecond);

// The plans of a regrid on several ranks (AmrSolver::plansOnForest, then PatchSolver::planHalos
// for a device back end), phase by phase, on the blast's forest partitioned over the ranks: the
// halo planner, the faces the kernels read from the halo, the whole plans of the patches beside
// other ranks' (the mirrors), the ghost cells those read (haloPlanReads), the wait for the slowest
// rank, and the exchange of the read cells built from them (mpi::valuePlan, collective). Counters:
// each phase's milliseconds, this rank's leaves, mirrors and ghost leaves, the cells received.
void BM_PlansOnSeveralRanks(benchmark::State& state) {
  auto forest = makeBlastForest();
  forest->repartition(std::vector<int>(forest->leaves().size(), 1));
  enum Phase { Planner, Faces, Mirrors, Reads, Wait, Values, kPhases };
  double seconds[kPhases] = {};
  using Clock = std::chrono::steady_clock;
  const int owned = int(forest->leaves().size());
  const int ghosts = int(forest->ghostLeaves().size());
  const mpi::HaloPlan patches = forest->ghostExchangePlan();
  const std::vector<int> mirrors = mpi::sentItems(patches);
  std::size_t received = 0;
  for (auto _ : state) {
    MPI_Barrier(forest->comm());
    auto mark = Clock::now();
    const auto lap = [&](Phase phase) {
      const auto now = Clock::now();
      seconds[phase] += std::chrono::duration<double>(now - mark).count();
      mark = now;
    };
    const auto planner = amr::forestHaloPlanner(*forest, kLayout, kBoundary);
    lap(Planner);
    std::vector<int> neighbour;
    benchmark::DoNotOptimize(planner->unlinkedFaces(neighbour).ops.data());
    lap(Faces);
    const HaloPlan<3> beside = planner->wholeOf(mirrors);
    lap(Mirrors);
    const auto reads = haloPlanReads(beside, kLayout, owned, ghosts);
    lap(Reads);
    MPI_Barrier(forest->comm());
    lap(Wait);
    const mpi::HaloPlan cells =
        mpi::valuePlan(forest->comm(), patches, reads, kLayout.patchStride());
    lap(Values);
    received = cells.receiveItems.indices.size();
  }
  const char* names[kPhases] = {"planner", "faces", "mirrors", "reads", "wait", "values"};
  for (int p = 0; p < kPhases; ++p)
    state.counters[names[p]] = 1e3 * seconds[p] / double(state.iterations());
  state.counters["leaves"] = double(owned);
  state.counters["mirror_leaves"] = double(mirrors.size());
  state.counters["ghosts"] = double(ghosts);
  state.counters["cells"] = double(received);
}
// A fixed count: every rank must take the collectives as often as the others.
BENCHMARK(BM_PlansOnSeveralRanks)->Unit(benchmark::kMillisecond)->Iterations(20);

// The refinement buffer (amr::leavesTouchingRefinement, AmrSolver's bufferRefinement) with the
// flags of a shell that moved by half a finest patch: the leaves touching those that refine.
void BM_RefinementBuffer(benchmark::State& state) {
  const amr::Forest<3>& forest = blastForest();
  const std::vector<amr::AdaptFlag> flags = shellFlags(forest, 0.6 + 0.5 / (4 << kFinest));
  const std::vector<PatchPlacement<3>> placed = amr::placementsWithGhosts(forest);
  const PlacementIndex<3> index(placed);
  std::size_t touching = 0;
  for (auto _ : state) {
    const std::vector<unsigned char> marks = amr::leavesTouchingRefinement<3>(
        placed, index, flags, int(placed.size()), forest.treesPerAxis(), forest.periodic());
    touching = std::size_t(std::count(marks.begin(), marks.end(), 1));
  }
  state.counters["leaves"] = double(placed.size());
  state.counters["refining"] =
      double(std::count(flags.begin(), flags.end(), amr::AdaptFlag::Refine));
  state.counters["touching"] = double(touching);
}
BENCHMARK(BM_RefinementBuffer)->Unit(benchmark::kMillisecond);

} // namespace
} // namespace tessera
