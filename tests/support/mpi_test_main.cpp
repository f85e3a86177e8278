// GoogleTest main for suites that need MPI (the p4est forest, several ranks): MPI lives for the
// whole run, and each rank takes its node's GPU by node rank, as a run does.
#include <gtest/gtest.h>
#include <mpi.h>

#include "engine/device_selection.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  tessera::selectDeviceByNodeRank(MPI_COMM_WORLD);
  ::testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  MPI_Finalize();
  return result;
}
