#pragma once
// Ghost patches: on several MPI ranks, the copies of other ranks' patches that this rank's halos
// and refluxing read. A rank stores them after its own patches; each step their interiors come
// from their owners before the halos are filled, and, where a coarse patch meets a finer ghost,
// the ghost's boundary fluxes before refluxing.
#include <mpi.h>

#include "engine/mpi/halo_plan.hpp"

namespace tessera {

struct GhostPatches {
  MPI_Comm comm = MPI_COMM_SELF;
  int count = 0; // stored after the owned patches
  // Items are patches: the owned ones, then the ghosts. Which owned patches go to which rank, and
  // which ghost slots the copies from each rank fill.
  mpi::HaloPlan plan;
  // Whether the boundary fluxes of the plan's patches travel too: some rank corrects one of its
  // coarse patches by the fluxes of a finer ghost. Every rank must agree.
  bool exchangeFluxes = false;
};

} // namespace tessera
