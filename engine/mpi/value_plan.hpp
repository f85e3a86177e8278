#pragma once
// From a plan of whole items to a plan of the values that are read. A ghost patch is an item of
// tens of thousands of values, of which the rank that holds the copy reads only the few layers of
// cells next to its own patches: sending whole items would move some twenty times the data.
#include <cstddef>
#include <mpi.h>
#include <span>
#include <vector>

#include "engine/mpi/halo_plan.hpp"

namespace tessera::mpi {

// items: a halo plan whose items are blocks of `stride` values (item i's at [i * stride, ...)).
// readsOfReceived[k]: the offsets within its block (ascending, distinct, below stride) that this
// rank reads of the k-th received item (items.receiveItems.indices[k]). Collective over the
// plan's ranks: each rank tells the owners what it reads, once, and gets back the plan whose
// items are single values (index item * stride + offset, width 1) in the same message order. Pairs
// of ranks with nothing to move either way are dropped. Throws std::invalid_argument for reads of
// the wrong count or out of range, std::overflow_error where a value index passes INT_MAX.
HaloPlan valuePlan(MPI_Comm comm, const HaloPlan& items,
                   std::span<const std::vector<int>> readsOfReceived, std::size_t stride);

} // namespace tessera::mpi
