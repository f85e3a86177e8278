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
  // What travels each step (engine/mpi/value_plan.hpp): the interior cells the halo plan reads of
  // each ghost, as indices of their first variable in the state (patches: the owned ones, then
  // the ghosts), every variable travelling with a cell; and as single values of the flux
  // registers, the faces refluxing reads of each finer ghost.
  mpi::HaloPlan state, fluxes;
  // Whether fluxes travel at all: some rank corrects a coarse patch by a finer ghost's fluxes.
  // Every rank must agree.
  bool exchangeFluxes = false;
};

} // namespace tessera
