// Weak scaling of the fused patch step over MPI ranks (one GPU per rank in a device build): every
// rank holds the same block of B^Dim patches of N^Dim cells, the blocks side by side along x, and
// the box is periodic on every axis, so that each rank has the same neighbours whatever the rank
// count (one rank wraps onto itself and exchanges nothing). A smooth density pulse travels across
// the box. A step is the ghost exchange, the halo fill, the fused update and the dt reduction; at
// second order (the tessera program's default scheme: PLM with van Leer's limiter, HLLC, SSP-RK2,
// a halo of two) each of its two stages exchanges and updates.
//
// Run it under mpiexec with 1, 2, 4 ... ranks; efficiency = (time per step on 1 rank) / (time
// per step on P ranks). The time of a step is the slowest rank's. Fixed iteration counts keep the
// ranks in step: every rank runs every iteration of every repetition.
//
// Arguments: cells per patch axis N, patches per rank per axis B, 0 for the host or 1 for the
// device, the order (1 or 2). On the command line, --exchange=auto|staged|peer chooses how the GPUs
// exchange ghost values (the tessera program's run.exchange; auto unless given), and --overlap=off
// has each stage wait for the ghosts and update every patch in one launch (run.exchange_overlap).
#include <algorithm>
#include <benchmark/benchmark.h>
#include <cstdio>
#include <mpi.h>
#include <string_view>

#include "drivers/amr_solver.hpp"
#include "engine/device_selection.hpp"
#include "engine/mpi/exchange_transport.hpp"
#include "engine/timer.hpp"
#include "solvers/initial_conditions.hpp"

namespace tessera {
namespace {

constexpr int kDim = 3;
bool overlapExchange = true; // --overlap=off

void BM_WeakScaling(benchmark::State& state) {
  const int n = int(state.range(0));
  const int block = int(state.range(1));
  const MemorySpace space = state.range(2) == 1 ? MemorySpace::Device : MemorySpace::Host;
  PatchScheme scheme; // first-order Rusanov, forward Euler
  if (state.range(3) == 2) {
    scheme.spatial = {ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hllc};
    scheme.integrator = kSspRk2;
  }
  if (space == MemorySpace::Device && !deviceAvailable()) {
    state.SkipWithError("no device back end or no visible GPU");
    return;
  }
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  EulerPulse<kDim> ic;
  ic.pulse.centre = {{0.5 * ranks, 0.5, 0.5}};
  ic.pulse.width = 0.2;
  ic.pulse.amplitude = 0.5;
  ic.velocity = {{1.0, 0.5, 0.25}};
  AmrSettings uniform;
  uniform.maxLevel = 0;
  uniform.regridInterval = 0;
  AmrSolver<Euler<kDim>> solver(
      MPI_COMM_WORLD, ic.pde, PatchLayout<kDim>{n, scheme.spatial.halo(), kDim + 2},
      {{ranks * block, block, block}}, {{0.0, 0.0, 0.0}}, {{double(ranks), 1.0, 1.0}},
      DomainBoundary<kDim>::all(BoundaryKind::Periodic), uniform, amr::IndicatorCriterion{}, 0.3,
      space, scheme);
  solver.solver().setExchangeOverlap(overlapExchange);
  solver.initialise([&](const auto&, const auto&) { return ic; });
  for (int s = 0; s < 5; ++s) // first-touch, plan uploads
    solver.advance(solver.stableDt());
  const StepTimes before = solver.solver().times();
  for (auto _ : state) {
    MPI_Barrier(MPI_COMM_WORLD);
    Stopwatch watch;
    solver.advance(solver.stableDt());
    synchronizeDevice();
    double seconds = watch.seconds();
    MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    state.SetIterationTime(seconds);
  }
  const double steps = double(state.iterations());
  const StepTimes after = solver.solver().times();
  state.counters["ranks"] = ranks;
  state.counters["cells/rank"] = double(solver.solver().numCells());
  state.counters["cell-updates/s"] = benchmark::Counter(
      double(solver.globalCells()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["halo s/step"] = (after.halo - before.halo) / steps;
  state.counters["update s/step"] = (after.update - before.update) / steps;
  state.counters["exchange s/step"] = (after.exchange - before.exchange) / steps;
}

// Per rank on the device: 16^3 or 32^3 patches of 16^3 cells (16.8M or 134M cells; 0.95 or 7.6 GB
// a copy of the state, halos included, at first order), first and second order. On the host: 8^3
// patches of 8^3 cells. B is a power of two, so that each rank's block is one p4est tree and the
// partition cuts only along x.
BENCHMARK(BM_WeakScaling)
    ->Args({16, 16, 1, 1})
    ->Args({16, 32, 1, 1})
    ->Args({16, 16, 1, 2})
    ->Args({16, 32, 1, 2})
    ->Args({8, 8, 0, 1})
    ->Args({8, 8, 0, 2})
    ->Iterations(50)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

} // namespace
} // namespace tessera

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  tessera::selectDeviceByNodeRank(MPI_COMM_WORLD);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // One report, rank 0's: the times are already the slowest rank's.
  if (rank != 0 && std::freopen("/dev/null", "w", stdout) == nullptr)
    return 1;
  namespace mpi = tessera::mpi;
  // Every rank reads the same arguments, so a bad one stops every rank at once.
  const auto refuse = [](const char* arg, const char* choices) {
    std::fprintf(stderr, "bench_weak_scaling: %s: %s\n", arg, choices);
    MPI_Finalize();
    return 2;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i], flag = "--exchange=", overlap = "--overlap=";
    if (arg.starts_with(overlap)) {
      if (arg != "--overlap=on" && arg != "--overlap=off")
        return refuse(argv[i], "on or off");
      tessera::overlapExchange = arg == "--overlap=on";
    } else if (arg.starts_with(flag)) {
      const auto transport = mpi::parseTransport(arg.substr(flag.size()));
      if (!transport)
        return refuse(argv[i], "auto, staged or peer");
      mpi::requestTransport(*transport);
    } else {
      continue;
    }
    std::copy(argv + i + 1, argv + argc, argv + i); // benchmark::Initialize rejects it
    --argc;
    --i;
  }
  if (tessera::deviceAvailable() && ranks > 1) {
    const mpi::ExchangeTransport transport = mpi::resolveTransport(MPI_COMM_WORLD);
    std::printf("exchange: %s\n", mpi::describeTransport(transport).c_str());
    mpi::requestTransport(transport);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
