#pragma once
// The number of ranks of a communicator, where MPI_COMM_SELF counts one without asking MPI: the
// one-rank solvers then run in programs that never initialise MPI (tests, benchmarks, tools).
#include <mpi.h>

namespace tessera::mpi {

inline int rankCount(MPI_Comm comm) {
  if (comm == MPI_COMM_SELF)
    return 1;
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  return ranks;
}

} // namespace tessera::mpi
