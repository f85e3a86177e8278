#pragma once
// The longest of the ranks' times, on every rank: where the ranks must decide from a time together
// (the strategy tuner's number of timed runs, when each run exchanges halos), a rank's own clock
// would let them decide apart.
#include <mpi.h>

#include "engine/mpi/rank_count.hpp"

namespace tessera::mpi {

// Collective over comm (none on MPI_COMM_SELF).
inline double longestOverRanks(MPI_Comm comm, double seconds) {
  if (rankCount(comm) > 1)
    MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  return seconds;
}

} // namespace tessera::mpi
