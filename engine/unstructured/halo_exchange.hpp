#pragma once
// The halo exchange of a partitioned unstructured mesh over MPI
// (engine/unstructured/partition.hpp): the owned cells' values that the plan names go to the ranks
// that hold those cells as halo cells, and the halo cells' values are overwritten with what their
// owners send. Host memory.
#include <mpi.h>
#include <vector>

#include "engine/unstructured/partition.hpp"

namespace tessera::unstructured {

class HaloExchange {
public:
  // valuesPerCell doubles per cell, cell-major: cell c's values at [c * valuesPerCell, ...).
  HaloExchange(MPI_Comm comm, HaloPlan plan, int valuesPerCell);

  // Collective over the ranks of the plan. Every rank posts its receives, then its sends, and
  // waits for both; the messages of a pair of ranks carry no indices (the plan orders both ends).
  void exchange(double* values);

  const HaloPlan& plan() const { return plan_; }

private:
  MPI_Comm comm_;
  HaloPlan plan_;
  int width_;
  std::vector<double> sendBuffer_, receiveBuffer_;
  std::vector<MPI_Request> requests_;
};

} // namespace tessera::unstructured
