#include "engine/mpi/value_plan.hpp"

#include <climits>
#include <stdexcept>
#include <string>

#include "engine/mpi/check.hpp"

namespace tessera::mpi {
namespace {

// Tags of the two set-up messages: per item the number of values read, then the offsets.
constexpr int kCountsTag = 4303;
constexpr int kOffsetsTag = 4304;

int valueIndex(int item, int offset, std::size_t stride) {
  const std::size_t index = std::size_t(item) * stride + std::size_t(offset);
  if (index > std::size_t(INT_MAX))
    throw std::overflow_error("valuePlan: value index " + std::to_string(index) + " of item " +
                              std::to_string(item) + " passes the int range; fewer items or " +
                              "smaller ones per rank");
  return int(index);
}

void check(int status, const char* call) {
  mpi::check(status, "valuePlan", call);
}

} // namespace

HaloPlan valuePlan(MPI_Comm comm, const HaloPlan& items,
                   std::span<const std::vector<int>> readsOfReceived, std::size_t stride) {
  if (readsOfReceived.size() != items.receiveItems.indices.size())
    throw std::invalid_argument("valuePlan: reads of " + std::to_string(readsOfReceived.size()) +
                                " items for " + std::to_string(items.receiveItems.indices.size()) +
                                " received items");
  for (const std::vector<int>& reads : readsOfReceived)
    for (std::size_t i = 0; i < reads.size(); ++i)
      if (reads[i] < 0 || std::size_t(reads[i]) >= stride || (i > 0 && reads[i] <= reads[i - 1]))
        throw std::invalid_argument("valuePlan: offset " + std::to_string(reads[i]) +
                                    " is out of [0, " + std::to_string(stride) +
                                    ") or out of ascending order");
  const std::size_t ranks = items.neighbourRanks.size();

  // What this rank tells each owner: per received item its count, then all offsets in order.
  std::vector<std::vector<int>> countsOut(ranks), offsetsOut(ranks);
  for (std::size_t i = 0; i < ranks; ++i)
    for (int k = items.receiveItems.offsets[i]; k < items.receiveItems.offsets[i + 1]; ++k) {
      const std::vector<int>& reads = readsOfReceived[std::size_t(k)];
      countsOut[i].push_back(int(reads.size()));
      offsetsOut[i].insert(offsetsOut[i].end(), reads.begin(), reads.end());
    }
  // What each reader tells this rank: one count per item sent to it.
  std::vector<std::vector<int>> countsIn(ranks), offsetsIn(ranks);
  std::vector<MPI_Request> requests(2 * ranks);
  for (std::size_t i = 0; i < ranks; ++i) {
    countsIn[i].resize(std::size_t(items.sendItems.row(int(i)).size()));
    check(MPI_Irecv(countsIn[i].data(), int(countsIn[i].size()), MPI_INT, items.neighbourRanks[i],
                    kCountsTag, comm, &requests[i]),
          "MPI_Irecv");
    check(MPI_Isend(countsOut[i].data(), int(countsOut[i].size()), MPI_INT, items.neighbourRanks[i],
                    kCountsTag, comm, &requests[ranks + i]),
          "MPI_Isend");
  }
  check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  for (std::size_t i = 0; i < ranks; ++i) {
    std::size_t total = 0;
    for (int count : countsIn[i])
      total += std::size_t(count);
    offsetsIn[i].resize(total);
    check(MPI_Irecv(offsetsIn[i].data(), int(total), MPI_INT, items.neighbourRanks[i], kOffsetsTag,
                    comm, &requests[i]),
          "MPI_Irecv");
    check(MPI_Isend(offsetsOut[i].data(), int(offsetsOut[i].size()), MPI_INT,
                    items.neighbourRanks[i], kOffsetsTag, comm, &requests[ranks + i]),
          "MPI_Isend");
  }
  check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");

  HaloPlan values;
  for (std::size_t i = 0; i < ranks; ++i) {
    std::vector<int> send, receive;
    const auto sent = items.sendItems.row(int(i));
    for (std::size_t k = 0, at = 0; k < sent.size(); ++k)
      for (int n = 0; n < countsIn[i][k]; ++n, ++at)
        send.push_back(valueIndex(sent[k], offsetsIn[i][at], stride));
    for (int k = items.receiveItems.offsets[i]; k < items.receiveItems.offsets[i + 1]; ++k)
      for (int offset : readsOfReceived[std::size_t(k)])
        receive.push_back(valueIndex(items.receiveItems.indices[std::size_t(k)], offset, stride));
    if (send.empty() && receive.empty())
      continue;
    values.neighbourRanks.push_back(items.neighbourRanks[i]);
    values.sendItems.appendRow(send);
    values.receiveItems.appendRow(receive);
  }
  return values;
}

} // namespace tessera::mpi
