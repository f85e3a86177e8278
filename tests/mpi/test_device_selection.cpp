// Device selection by node rank (engine/device_selection.hpp), on the 1, 2 and 4 ranks ctest
// starts on one machine: the node ranks number the ranks 0..n-1, and each rank takes device
// (node rank mod devices), none where the build or the machine has no device.
#include <algorithm>
#include <cstddef>
#include <gtest/gtest.h>
#include <mpi.h>
#include <vector>

#include "engine/device_selection.hpp"
#include "engine/memory.hpp"

namespace tessera {
namespace {

TEST(DeviceSelection, NodeRanksNumberTheRanksOfTheMachineAndPickTheirDevice) {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const DeviceSelection s = selectDeviceByNodeRank(MPI_COMM_WORLD);
  EXPECT_EQ(s.nodeRanks, ranks);
  std::vector<int> nodeRanks(static_cast<std::size_t>(ranks));
  MPI_Allgather(&s.nodeRank, 1, MPI_INT, nodeRanks.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::sort(nodeRanks.begin(), nodeRanks.end());
  for (int r = 0; r < ranks; ++r)
    EXPECT_EQ(nodeRanks[std::size_t(r)], r);
  EXPECT_EQ(s.devices > 0, deviceAvailable());
  EXPECT_EQ(s.device, deviceForNodeRank(s.nodeRank, s.devices));
}

TEST(DeviceSelection, RanksBeyondTheDevicesShareThemRoundRobin) {
  EXPECT_EQ(deviceForNodeRank(0, 4), 0);
  EXPECT_EQ(deviceForNodeRank(3, 4), 3);
  EXPECT_EQ(deviceForNodeRank(5, 4), 1);
  EXPECT_EQ(deviceForNodeRank(2, 1), 0);
  EXPECT_EQ(deviceForNodeRank(2, 0), -1);
}

} // namespace
} // namespace tessera
