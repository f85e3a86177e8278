#pragma once
// One MPI rank per GPU: each rank takes a device by its rank among the ranks of its node, node
// rank r taking device r mod (the devices it sees), as AMReX and Kokkos do. It must run before
// anything allocates device memory (the memory pool belongs to the current device).
#include <mpi.h>

namespace tessera {

struct DeviceSelection {
  int nodeRank = 0;  // this rank among the ranks that share its node
  int nodeRanks = 1; // ranks on this node
  int devices = 0;   // devices this rank sees (0 in a host build or where none is visible)
  int device = -1;   // the device this rank now uses, -1 for none
};

// The rule alone.
constexpr int deviceForNodeRank(int nodeRank, int devices) {
  return devices > 0 ? nodeRank % devices : -1;
}

// Collective over comm: finds this rank's node rank and makes deviceForNodeRank's device current.
// Where a node has more ranks than devices, ranks share devices round-robin.
DeviceSelection selectDeviceByNodeRank(MPI_Comm comm);

} // namespace tessera
