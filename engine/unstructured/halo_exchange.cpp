#include "engine/unstructured/halo_exchange.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace tessera::unstructured {
namespace {

// One tag for every halo message: a pair of ranks exchanges at most one message each way per
// exchange, and MPI keeps messages between a pair in order.
constexpr int kHaloTag = 4301;

void check(int status, const char* call) {
  if (status != MPI_SUCCESS) {
    std::string message = "HaloExchange: ";
    message.append(call).append(" failed with MPI error ").append(std::to_string(status));
    throw std::runtime_error(message);
  }
}

} // namespace

HaloExchange::HaloExchange(MPI_Comm comm, HaloPlan plan, int valuesPerCell)
    : comm_(comm), plan_(std::move(plan)), width_(valuesPerCell),
      sendBuffer_(plan_.sendCells.indices.size() * std::size_t(valuesPerCell)),
      receiveBuffer_(plan_.receiveCells.indices.size() * std::size_t(valuesPerCell)),
      requests_(2 * plan_.neighbourRanks.size()) {
  if (valuesPerCell < 1)
    throw std::invalid_argument("HaloExchange: " + std::to_string(valuesPerCell) +
                                " values per cell");
  const std::size_t ranks = plan_.neighbourRanks.size();
  if (plan_.sendCells.rows() != int(ranks) || plan_.receiveCells.rows() != int(ranks))
    throw std::invalid_argument("HaloExchange: the plan's send and receive rows do not match its " +
                                std::to_string(ranks) + " neighbour ranks");
}

void HaloExchange::exchange(double* values) {
  const int ranks = int(plan_.neighbourRanks.size());
  const std::size_t width = std::size_t(width_);
  for (int i = 0; i < ranks; ++i) {
    const int first = plan_.receiveCells.offsets[std::size_t(i)];
    const int count = plan_.receiveCells.offsets[std::size_t(i) + 1] - first;
    check(MPI_Irecv(receiveBuffer_.data() + std::size_t(first) * width, count * width_, MPI_DOUBLE,
                    plan_.neighbourRanks[std::size_t(i)], kHaloTag, comm_,
                    &requests_[std::size_t(i)]),
          "MPI_Irecv");
  }
  double* packed = sendBuffer_.data();
  for (int cell : plan_.sendCells.indices)
    for (std::size_t v = 0; v < width; ++v)
      *packed++ = values[std::size_t(cell) * width + v];
  for (int i = 0; i < ranks; ++i) {
    const int first = plan_.sendCells.offsets[std::size_t(i)];
    const int count = plan_.sendCells.offsets[std::size_t(i) + 1] - first;
    check(MPI_Isend(sendBuffer_.data() + std::size_t(first) * width, count * width_, MPI_DOUBLE,
                    plan_.neighbourRanks[std::size_t(i)], kHaloTag, comm_,
                    &requests_[std::size_t(ranks + i)]),
          "MPI_Isend");
  }
  check(MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  const double* arrived = receiveBuffer_.data();
  for (int cell : plan_.receiveCells.indices)
    for (std::size_t v = 0; v < width; ++v)
      values[std::size_t(cell) * width + v] = *arrived++;
}

} // namespace tessera::unstructured
