// The forest's collective operations at the patch counts of large runs, for the weak-scaling
// model of RESULTS.md (issue 44): a uniform 3D forest of 8^L leaves per tree, built (p4est_new,
// the ghost layer, the leaf lists), adapted (a spherical shell of leaves refined one level, 2:1
// balance restored), partitioned after a change of weights that moves a quarter of the leaves
// (each leaf's 5 values travel with it), and its ghost exchange plan. Run it on 1 and 2 ranks;
// the times are the slowest rank's.
//
// Arguments: level L, trees along x (the forest has that many trees of 8^L leaves).
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstdio>
#include <mpi.h>
#include <vector>

#include "amr/forest.hpp"
#include "engine/timer.hpp"

namespace tessera {
namespace {

// The slowest rank's seconds.
double slowest(double seconds) {
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return seconds;
}

template <class Work>
void timeCollective(benchmark::State& state, Work&& work) {
  for (auto _ : state) {
    MPI_Barrier(MPI_COMM_WORLD);
    Stopwatch watch;
    work();
    state.SetIterationTime(slowest(watch.seconds()));
  }
}

amr::Forest<3> uniformForest(const benchmark::State& state) {
  return amr::Forest<3>(MPI_COMM_WORLD, {{int(state.range(1)), 1, 1}}, {{false, false, false}},
                        int(state.range(0)));
}

void countLeaves(benchmark::State& state, const amr::Forest<3>& forest) {
  double leaves = double(forest.leaves().size()), ghosts = double(forest.ghostLeaves().size());
  MPI_Allreduce(MPI_IN_PLACE, &leaves, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &ghosts, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  state.counters["leaves"] = leaves;
  state.counters["ghost leaves"] = ghosts;
}

void BM_Build(benchmark::State& state) {
  timeCollective(state, [&] { benchmark::DoNotOptimize(uniformForest(state)); });
  countLeaves(state, uniformForest(state));
}

// The shell of radius 0.3 (in units of the first tree) about the corner, a leaf thick.
std::vector<amr::AdaptFlag> shellFlags(const amr::Forest<3>& forest, int level) {
  std::vector<amr::AdaptFlag> flags;
  const double width = 1.0 / double(1 << level);
  for (const amr::Leaf<3>& leaf : forest.leaves()) {
    double r2 = 0.0;
    for (int a = 0; a < 3; ++a)
      r2 += std::pow((leaf.index[a] + 0.5) * width, 2);
    flags.push_back(std::fabs(std::sqrt(r2) - 0.3) < width ? amr::AdaptFlag::Refine
                                                           : amr::AdaptFlag::Keep);
  }
  return flags;
}

void BM_Adapt(benchmark::State& state) {
  const int level = int(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    amr::Forest<3> forest = uniformForest(state);
    const std::vector<amr::AdaptFlag> flags = shellFlags(forest, level);
    MPI_Barrier(MPI_COMM_WORLD);
    state.ResumeTiming();
    Stopwatch watch;
    forest.adapt(flags, 0, level + 1);
    state.SetIterationTime(slowest(watch.seconds()));
  }
}

// Weights that double the cost of the first half of each rank's leaves: the partition then
// moves about a quarter of them.
void BM_Partition(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    amr::Forest<3> forest = uniformForest(state);
    const std::size_t leaves = forest.leaves().size();
    std::vector<int> weights(leaves, 1);
    for (std::size_t i = 0; i < leaves / 2; ++i)
      weights[i] = 2;
    const std::vector<double> values(5 * leaves, 1.0);
    MPI_Barrier(MPI_COMM_WORLD);
    state.ResumeTiming();
    Stopwatch watch;
    const amr::LeafSplit split = forest.repartition(weights);
    std::vector<double> moved(5 * forest.leaves().size());
    mpi::migrateLeaves(MPI_COMM_WORLD, split.ranges(), values.data(), moved.data(), 5,
                       MemorySpace::Host);
    benchmark::DoNotOptimize(moved.data());
    state.SetIterationTime(slowest(watch.seconds()));
  }
}

void BM_GhostExchangePlan(benchmark::State& state) {
  const amr::Forest<3> forest = uniformForest(state);
  timeCollective(state, [&] { benchmark::DoNotOptimize(forest.ghostExchangePlan()); });
}

// 8^L leaves a tree: 32,768 (L = 5), 262,144 (6), 2,097,152 (7); 4.2M and 8.4M with 2 and 4
// trees.
void sizes(benchmark::internal::Benchmark* b) {
  for (const auto& [level, trees] : {std::pair{5, 1}, {6, 1}, {7, 1}, {7, 2}, {7, 4}})
    b->Args({level, trees});
  b->Iterations(3)->UseManualTime()->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_Build)->Apply(sizes);
BENCHMARK(BM_Adapt)->Apply(sizes);
BENCHMARK(BM_Partition)->Apply(sizes);
BENCHMARK(BM_GhostExchangePlan)->Apply(sizes);

} // namespace
} // namespace tessera

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0 && std::freopen("/dev/null", "w", stdout) == nullptr)
    return 1;
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
