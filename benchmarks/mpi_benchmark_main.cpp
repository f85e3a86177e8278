// Google Benchmark main for programs that need MPI (the p4est forest, the patch solvers): MPI
// lives for the whole run, and each rank takes its node's GPU by node rank, as a run does.
#include <benchmark/benchmark.h>
#include <mpi.h>

#include "engine/device_selection.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  tessera::selectDeviceByNodeRank(MPI_COMM_WORLD);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
