#pragma once
// The peer transport of a device halo exchange (exchange_transport.hpp): each rank copies its
// packed messages straight into its neighbours' device receive buffers, which they opened to it
// through interprocess memory handles, over NVLink where the GPUs have it.
//
// Device work needs no host waits: a copy into a neighbour's buffer waits (on the device) for the
// neighbour's event that says its last unpack has read the buffer, and the neighbour's unpack
// waits for this rank's event that says the copies are done. Events only order work recorded
// before the wait is issued, so a zero-byte MPI message follows each record to say it has been
// issued. On a communicator of its own, so that a message of one exchange never meets another's.
//
// Included only by translation units of a device build.
#include <cstddef>
#include <mpi.h>
#include <span>
#include <vector>

#include "engine/gpu_runtime.hpp"

namespace tessera::mpi::detail {

class PeerLinks {
public:
  // Collective over comm (every rank builds its links in the same order). neighbours: the ranks
  // messages go to and come from; sendOffsets and receiveOffsets (one more than neighbours, in
  // bytes) delimit each neighbour's message in this rank's send and receive buffers. Every copy
  // and wait runs on `stream`.
  PeerLinks(MPI_Comm comm, std::span<const int> neighbours, std::vector<std::size_t> sendOffsets,
            std::vector<std::size_t> receiveOffsets, gpuStream_t stream);
  ~PeerLinks();
  // Collective, as the constructor, between exchanges: the links of new messages (a regrid's).
  // The receive buffer stays where it is large enough (it grows by half again where it is not),
  // and a neighbour's buffer stays open where it stays: opening interprocess memory is what a
  // fresh set of links costs most.
  void reconnect(std::span<const int> neighbours, std::vector<std::size_t> sendOffsets,
                 std::vector<std::size_t> receiveOffsets);
  PeerLinks(const PeerLinks&) = delete;
  PeerLinks& operator=(const PeerLinks&) = delete;

  // This rank's receive buffer, which the neighbours write (device memory, receiveOffsets.back()
  // bytes).
  void* receiveBuffer() const { return receiveBuffer_; }

  // Copies each neighbour's part of the packed send buffer (device memory, filled by work on the
  // stream) into its receive buffer, once it has read the last messages there.
  void send(const void* sendBuffer);
  // Makes the stream wait until every neighbour's messages are in the receive buffer.
  void receive();
  // Says that the stream's work up to now has read the receive buffer (the unpack): the
  // neighbours may write it again.
  void released();

private:
  struct Neighbour {
    int rank = 0;
    void* buffer = nullptr;  // its receive buffer, opened here (this rank's own for itself)
    unsigned generation = 0; // of that buffer (it is opened again when it changes)
    std::size_t offset = 0;  // where this rank's message goes in it
    gpuEvent_t sent{};       // its copies into this rank's buffer are done
    gpuEvent_t consumed{};   // it has read its buffer
  };
  void wait(std::vector<MPI_Request>& requests);
  // Checks the offsets, and makes the receive buffer hold receiveOffsets_.back() bytes.
  void setOffsets(std::size_t neighbours, std::vector<std::size_t> sendOffsets,
                  std::vector<std::size_t> receiveOffsets);
  // Tells each neighbour where its messages go, and opens what changed of theirs.
  void connect(std::span<const int> neighbours);
  // Closes the neighbour's buffer that this rank opened (where it moved), or all it opened.
  void closeBuffer(Neighbour& n) const;
  void close(Neighbour& n) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  gpuStream_t stream_{};
  std::vector<std::size_t> sendOffsets_, receiveOffsets_;
  void* receiveBuffer_ = nullptr;
  std::size_t capacity_ = 0;       // of the receive buffer, in bytes
  unsigned generation_ = 0;        // counts the receive buffer's allocations
  gpuEvent_t sent_{}, consumed_{}; // this rank's, which the neighbours have opened
  int me_ = 0;
  std::vector<Neighbour> neighbours_;
  std::vector<int> ranks_; // the neighbours' ranks, for the tokens
  // Zero-byte messages: a ready says that a neighbour's `sent` is recorded, a release its
  // `consumed`; the receives of the neighbours' and the sends of this rank's.
  std::vector<MPI_Request> readies_, releases_, readiesSent_, releasesSent_;
  bool released_ = false; // a release is outstanding from every neighbour
};

} // namespace tessera::mpi::detail
