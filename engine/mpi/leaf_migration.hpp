#pragma once
// The data of leaves (patches, cells: any items kept in one global order and split into one
// contiguous range per rank) moved after the ranges change, as a repartition along a
// space-filling curve changes them (amr::Forest::repartition). Only what changes rank travels:
// the leaves that stay are copied within this rank's memory space, and each pair of ranks
// exchanges at most one message of consecutive leaves. Device data travels through page-locked
// host buffers (MPI need not be GPU-aware); the leaves that stay never leave the device.
#include <cstddef>
#include <mpi.h>
#include <span>

#include "engine/memory.hpp"

namespace tessera::mpi {

// Each rank's first leaf in the global order before and after, ranks + 1 entries each (the last
// is the number of leaves, the same in both).
struct LeafRanges {
  std::span<const long long> before, after;
};

// Collective over comm. `source` holds this rank's leaves before (before[r + 1] - before[r] of
// them, `width` values each, leaf-major), `target` room for its leaves after; both in `space`.
// Throws std::invalid_argument for ranges that do not fit the communicator or each other.
void migrateLeaves(MPI_Comm comm, LeafRanges ranges, const double* source, double* target,
                   std::size_t width, MemorySpace space);

} // namespace tessera::mpi
