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

// The index of item's block of `stride` values, where its highest read offset keeps every index
// of the block's reads within the int range.
std::size_t itemBase(int item, std::size_t stride, int highestOffset) {
  const std::size_t base = std::size_t(item) * stride;
  if (base + std::size_t(highestOffset) > std::size_t(INT_MAX))
    throw std::overflow_error("valuePlan: value index " +
                              std::to_string(base + std::size_t(highestOffset)) + " of item " +
                              std::to_string(item) + " passes the int range; fewer items or " +
                              "smaller ones per rank");
  return base;
}

// Appends item's reads (ascending offsets) as value indices.
void appendValues(int item, std::span<const int> offsets, std::size_t stride,
                  std::vector<int>& values) {
  if (offsets.empty())
    return;
  const std::size_t base = itemBase(item, stride, offsets.back());
  for (int offset : offsets)
    values.push_back(int(base + std::size_t(offset)));
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
  const std::size_t ranks = items.neighbourRanks.size();

  // What this rank tells each owner: per received item its count, then all offsets in order.
  std::vector<std::vector<int>> countsOut(ranks), offsetsOut(ranks);
  for (std::size_t i = 0; i < ranks; ++i) {
    const int begin = items.receiveItems.offsets[i], end = items.receiveItems.offsets[i + 1];
    std::size_t total = 0;
    for (int k = begin; k < end; ++k)
      total += readsOfReceived[std::size_t(k)].size();
    countsOut[i].reserve(std::size_t(end - begin));
    offsetsOut[i].reserve(total);
    for (int k = begin; k < end; ++k) {
      const std::vector<int>& reads = readsOfReceived[std::size_t(k)];
      for (std::size_t r = 0; r < reads.size(); ++r)
        if (reads[r] < 0 || std::size_t(reads[r]) >= stride || (r > 0 && reads[r] <= reads[r - 1]))
          throw std::invalid_argument("valuePlan: offset " + std::to_string(reads[r]) +
                                      " is out of [0, " + std::to_string(stride) +
                                      ") or out of ascending order");
      countsOut[i].push_back(int(reads.size()));
      offsetsOut[i].insert(offsetsOut[i].end(), reads.begin(), reads.end());
    }
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
    send.reserve(offsetsIn[i].size());
    receive.reserve(offsetsOut[i].size());
    const auto sent = items.sendItems.row(int(i));
    for (std::size_t k = 0, at = 0; k < sent.size(); ++k) {
      const std::size_t count = std::size_t(countsIn[i][k]);
      appendValues(sent[k], std::span<const int>(offsetsIn[i]).subspan(at, count), stride, send);
      at += count;
    }
    for (int k = items.receiveItems.offsets[i]; k < items.receiveItems.offsets[i + 1]; ++k)
      appendValues(items.receiveItems.indices[std::size_t(k)], readsOfReceived[std::size_t(k)],
                   stride, receive);
    if (send.empty() && receive.empty())
      continue;
    values.neighbourRanks.push_back(items.neighbourRanks[i]);
    values.sendItems.appendRow(send);
    values.receiveItems.appendRow(receive);
  }
  return values;
}

} // namespace tessera::mpi
