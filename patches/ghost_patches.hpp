#pragma once
// Ghost patches: on several MPI ranks, the copies of other ranks' patches that this rank's halos
// and refluxing read. A rank stores them after its own patches; each step their interiors come
// from their owners before the halos are filled, and, where a coarse patch meets a finer ghost,
// the ghost's boundary fluxes before refluxing; of both, only the values this rank reads.
#include <mpi.h>

#include "engine/mpi/halo_plan.hpp"

namespace tessera {

struct GhostPatches {
  MPI_Comm comm = MPI_COMM_SELF;
  int count = 0; // stored after the owned patches
  // The values that travel each step, as indices into the state (patches: the owned ones, then
  // the ghosts) and into the flux registers: the interior cells the halo plan reads of each
  // ghost, and the faces refluxing reads of each finer ghost (engine/mpi/value_plan.hpp).
  mpi::HaloPlan state, fluxes;
  // Whether fluxes travel at all: some rank corrects a coarse patch by a finer ghost's fluxes.
  // Every rank must agree.
  bool exchangeFluxes = false;
};

} // namespace tessera
