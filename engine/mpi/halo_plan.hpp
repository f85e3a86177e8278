#pragma once
// Which values travel between this rank and its neighbours in a halo exchange. The items are
// whatever the caller distributes: the cells of a partitioned unstructured mesh, the patches of a
// forest. Row i of sendItems holds the local indices of the owned items whose values go to
// neighbourRanks[i]; row i of receiveItems holds the local indices of the copies (halo cells,
// ghost patches) whose values come from neighbourRanks[i]. Both rows of a pair of ranks list the
// same items in the same order, so a message needs no indices.
#include <vector>

#include "engine/unstructured/csr.hpp"

namespace tessera::mpi {

struct HaloPlan {
  std::vector<int> neighbourRanks; // ascending
  unstructured::Csr sendItems, receiveItems;
};

} // namespace tessera::mpi
