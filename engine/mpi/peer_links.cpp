#include "engine/mpi/peer_links.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/mpi/check.hpp"

namespace tessera::mpi::detail {
namespace {

constexpr int kReadyTag = 1, kReleaseTag = 2, kHandlesTag = 3;

void check(int status, const char* call) {
  mpi::check(status, "PeerLinks", call);
}

// What a rank tells a neighbour about its receive buffer and events.
struct Handles {
  gpuIpcMemHandle_t buffer;
  gpuIpcEventHandle_t sent, consumed;
  std::uint64_t offset = 0, bytes = 0; // the neighbour's message in the buffer
  std::uint32_t generation = 0;        // of the buffer
};

// Zero-byte messages, one to or from each neighbour.
void postTokens(MPI_Comm comm, std::span<const int> ranks, int tag, bool send,
                std::vector<MPI_Request>& requests) {
  requests.resize(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i)
    check(send ? MPI_Isend(nullptr, 0, MPI_BYTE, ranks[i], tag, comm, &requests[i])
               : MPI_Irecv(nullptr, 0, MPI_BYTE, ranks[i], tag, comm, &requests[i]),
          send ? "MPI_Isend" : "MPI_Irecv");
}

} // namespace

PeerLinks::PeerLinks(MPI_Comm comm, std::span<const int> neighbours,
                     std::vector<std::size_t> sendOffsets, std::vector<std::size_t> receiveOffsets,
                     gpuStream_t stream)
    : stream_(stream) {
  check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  MPI_Comm_rank(comm_, &me_);
  const unsigned flags = gpuEventDisableTiming | gpuEventInterprocess;
  TESSERA_GPU_CHECK(gpuEventCreateWithFlags(&sent_, flags));
  TESSERA_GPU_CHECK(gpuEventCreateWithFlags(&consumed_, flags));
  setOffsets(neighbours.size(), std::move(sendOffsets), std::move(receiveOffsets));
  connect(neighbours);
}

void PeerLinks::reconnect(std::span<const int> neighbours, std::vector<std::size_t> sendOffsets,
                          std::vector<std::size_t> receiveOffsets) {
  // The last exchange is over on every rank: its tokens have come, its copies into the
  // neighbours' buffers and its unpack of this one's are done. A neighbour's handles come after
  // its own unpack, so the first copies of the new links need not wait for a release.
  for (std::vector<MPI_Request>* requests : {&readies_, &releases_, &readiesSent_, &releasesSent_})
    wait(*requests);
  TESSERA_GPU_CHECK(gpuStreamSynchronize(stream_));
  released_ = false;
  setOffsets(neighbours.size(), std::move(sendOffsets), std::move(receiveOffsets));
  connect(neighbours);
}

void PeerLinks::setOffsets(std::size_t neighbours, std::vector<std::size_t> sendOffsets,
                           std::vector<std::size_t> receiveOffsets) {
  if (sendOffsets.size() != neighbours + 1 || receiveOffsets.size() != neighbours + 1)
    throw std::invalid_argument("PeerLinks: offsets for " + std::to_string(neighbours) +
                                " neighbours");
  sendOffsets_ = std::move(sendOffsets);
  receiveOffsets_ = std::move(receiveOffsets);
  const std::size_t needed = std::max<std::size_t>(receiveOffsets_.back(), 1);
  if (needed <= capacity_)
    return;
  if (receiveBuffer_)
    TESSERA_GPU_CHECK(gpuFree(receiveBuffer_));
  // Interprocess handles name whole allocations: the buffer is one of its own, not the pool's.
  capacity_ = std::max(needed, capacity_ + capacity_ / 2);
  TESSERA_GPU_CHECK(gpuMalloc(&receiveBuffer_, capacity_));
  ++generation_;
}

void PeerLinks::connect(std::span<const int> neighbours) {
  Handles own{};
  TESSERA_GPU_CHECK(gpuIpcGetMemHandle(&own.buffer, receiveBuffer_));
  TESSERA_GPU_CHECK(gpuIpcGetEventHandle(&own.sent, sent_));
  TESSERA_GPU_CHECK(gpuIpcGetEventHandle(&own.consumed, consumed_));
  own.generation = generation_;
  const std::size_t count = neighbours.size();
  std::vector<Handles> outgoing(count, own), incoming(count);
  std::vector<MPI_Request> requests(2 * count);
  for (std::size_t i = 0; i < count; ++i) {
    outgoing[i].offset = receiveOffsets_[i];
    outgoing[i].bytes = receiveOffsets_[i + 1] - receiveOffsets_[i];
    check(MPI_Irecv(&incoming[i], sizeof(Handles), MPI_BYTE, neighbours[i], kHandlesTag, comm_,
                    &requests[i]),
          "MPI_Irecv");
    check(MPI_Isend(&outgoing[i], sizeof(Handles), MPI_BYTE, neighbours[i], kHandlesTag, comm_,
                    &requests[count + i]),
          "MPI_Isend");
  }
  check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  std::vector<Neighbour> before = std::move(neighbours_);
  neighbours_.clear();
  ranks_.clear();
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t bytes = sendOffsets_[i + 1] - sendOffsets_[i];
    if (incoming[i].bytes != bytes)
      throw std::logic_error("PeerLinks: rank " + std::to_string(neighbours[i]) + " expects " +
                             std::to_string(incoming[i].bytes) + " bytes, this rank sends " +
                             std::to_string(bytes));
    Neighbour n;
    n.rank = neighbours[i];
    const auto kept = std::find_if(before.begin(), before.end(),
                                   [&](const Neighbour& b) { return b.rank == n.rank; });
    const bool linked = kept != before.end();
    if (linked) { // its events stay open, and its buffer where it did not move
      n = *kept;
      before.erase(kept);
    }
    n.offset = incoming[i].offset;
    if (n.rank == me_) { // a rank that neighbours itself copies within its own memory
      n.buffer = receiveBuffer_;
      n.sent = sent_;
      n.consumed = consumed_;
    } else {
      if (linked && n.generation != incoming[i].generation)
        closeBuffer(n);
      if (!n.buffer)
        TESSERA_GPU_CHECK(
            gpuIpcOpenMemHandle(&n.buffer, incoming[i].buffer, gpuIpcMemLazyEnablePeerAccess));
      if (!linked) {
        TESSERA_GPU_CHECK(gpuIpcOpenEventHandle(&n.sent, incoming[i].sent));
        TESSERA_GPU_CHECK(gpuIpcOpenEventHandle(&n.consumed, incoming[i].consumed));
      }
    }
    n.generation = incoming[i].generation;
    neighbours_.push_back(n);
    ranks_.push_back(n.rank);
  }
  for (Neighbour& gone : before)
    close(gone);
}

void PeerLinks::closeBuffer(Neighbour& n) const {
  if (n.rank == me_ || !n.buffer)
    return;
  (void)gpuIpcCloseMemHandle(n.buffer);
  n.buffer = nullptr;
}

void PeerLinks::close(Neighbour& n) const {
  closeBuffer(n);
  if (n.rank == me_)
    return;
  (void)gpuEventDestroy(n.sent);
  (void)gpuEventDestroy(n.consumed);
}

PeerLinks::~PeerLinks() {
  // This rank's copies into the neighbours' buffers are done before their handles close.
  (void)gpuStreamSynchronize(stream_);
  // A neighbour's last tokens may not have come (an exchange left between its halves by an
  // error): their receives are cancelled; the zero-byte sends have left.
  for (std::vector<MPI_Request>* requests : {&readies_, &releases_})
    for (MPI_Request& r : *requests)
      if (r != MPI_REQUEST_NULL) {
        MPI_Cancel(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      }
  for (std::vector<MPI_Request>* requests : {&readiesSent_, &releasesSent_})
    if (!requests->empty())
      MPI_Waitall(int(requests->size()), requests->data(), MPI_STATUSES_IGNORE);
  for (Neighbour& n : neighbours_)
    close(n);
  (void)gpuEventDestroy(consumed_);
  (void)gpuEventDestroy(sent_);
  (void)gpuFree(receiveBuffer_);
  MPI_Comm_free(&comm_);
}

void PeerLinks::wait(std::vector<MPI_Request>& requests) {
  if (!requests.empty())
    check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

void PeerLinks::send(const void* sendBuffer) {
  // Each neighbour's last `consumed` is recorded (its release came) before the stream waits on it.
  wait(releases_);
  for (std::size_t i = 0; i < neighbours_.size(); ++i) {
    const Neighbour& n = neighbours_[i];
    if (released_)
      TESSERA_GPU_CHECK(gpuStreamWaitEvent(stream_, n.consumed, 0));
    const std::size_t bytes = sendOffsets_[i + 1] - sendOffsets_[i];
    if (bytes > 0)
      TESSERA_GPU_CHECK(gpuMemcpyAsync(static_cast<char*>(n.buffer) + n.offset,
                                       static_cast<const char*>(sendBuffer) + sendOffsets_[i],
                                       bytes, gpuMemcpyDeviceToDevice, stream_));
  }
  TESSERA_GPU_CHECK(gpuEventRecord(sent_, stream_));
  wait(readiesSent_);
  postTokens(comm_, ranks_, kReadyTag, false, readies_);
  postTokens(comm_, ranks_, kReadyTag, true, readiesSent_);
}

void PeerLinks::receive() {
  wait(readies_);
  for (const Neighbour& n : neighbours_)
    TESSERA_GPU_CHECK(gpuStreamWaitEvent(stream_, n.sent, 0));
}

void PeerLinks::released() {
  TESSERA_GPU_CHECK(gpuEventRecord(consumed_, stream_));
  wait(releasesSent_);
  postTokens(comm_, ranks_, kReleaseTag, false, releases_);
  postTokens(comm_, ranks_, kReleaseTag, true, releasesSent_);
  released_ = true;
}

} // namespace tessera::mpi::detail
