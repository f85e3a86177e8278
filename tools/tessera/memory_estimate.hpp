#pragma once
// The memory a patch run needs at its start, estimated before anything is allocated and set
// against the memory of the node it runs on: a case that cannot fit is refused with the keys that
// size it, the estimate and what is available (exit code 7), instead of aborting in an allocator.
#include <mpi.h>
#include <string>

#include "engine/memory.hpp"
#include "io/config.hpp"

namespace tessera::cli {

struct PatchRunSize {
  double patches = 0;     // at the start: level-0 patches refined uniformly to amr.min_level
  double storedCells = 0; // cells of one patch, halo included
  int numVars = 0;
  int stateCopies = 0; // the state, the Runge-Kutta stages' copies and the output's
  MemorySpace space = MemorySpace::Host; // where the state and the stages' copies live
};

// The bytes the run needs over all ranks: its states and, per patch, plans and the forest.
double patchRunBytes(const PatchRunSize& size);

// The memory available to one rank: the node's available memory (MemAvailable) shared by the
// ranks on the node. Collective over comm.
double availableBytesPerRank(MPI_Comm comm);

// The free memory of the device of one rank: its device's free memory shared by the ranks of the
// node that share the device (they take the node's devices in turn). Collective over comm.
double availableDeviceBytesPerRank(MPI_Comm comm);

// "1.23 GB".
std::string gigabytes(double bytes);

// Collective: throws the OutOfRange error of mesh.patches where the run cannot fit in the host's
// memory, or (for a device run) in the device's.
void refuseIfTooLarge(const io::Config& cfg, const PatchRunSize& size, MPI_Comm comm);

} // namespace tessera::cli
