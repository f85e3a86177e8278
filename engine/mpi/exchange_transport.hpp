#pragma once
// How a device halo exchange (halo_exchange.hpp) moves its messages between ranks, chosen at run
// time from what the machine offers, as AMReX's amrex.use_gpu_aware_mpi and AthenaK's
// device-aware MPI are:
//   - peer: each rank copies its messages straight into the receiving rank's device buffer (CUDA
//     or HIP interprocess memory and events, over NVLink where the GPUs have it), with a
//     zero-byte MPI message a way to say when; for ranks that share a node and whose GPUs reach
//     each other.
//   - staged: packed on the device, through page-locked host memory and MPI; works everywhere.
// Host exchanges have no choice to make: MPI reads and writes their buffers.
#include <mpi.h>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::mpi {

enum class ExchangeTransport { Auto, Staged, Peer };

// The spellings of the case key run.exchange: "auto", "staged", "peer".
std::string_view transportName(ExchangeTransport transport);
std::optional<ExchangeTransport> parseTransport(std::string_view name);

// The process's request for device exchanges (Auto unless set), which every exchange built
// afterwards follows.
void requestTransport(ExchangeTransport transport);
ExchangeTransport requestedTransport();

// Collective over comm: the transport of device exchanges on comm. Auto gives peer where every
// rank of comm shares a node and every pair of their GPUs can access each other's memory, staged
// otherwise. Checked once for MPI_COMM_WORLD's ranks, then remembered. An explicit request the
// machine cannot serve throws std::runtime_error saying why, on every rank of comm.
ExchangeTransport resolveTransport(MPI_Comm comm, ExchangeTransport requested);
inline ExchangeTransport resolveTransport(MPI_Comm comm) {
  return resolveTransport(comm, requestedTransport());
}

// For a run's first lines: what the transport moves messages through.
std::string describeTransport(ExchangeTransport transport);

} // namespace tessera::mpi
