#include "engine/mpi/exchange_transport.hpp"

#include <array>
#include <stdexcept>
#include <vector>

#include "engine/mpi/first_message.hpp"
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
#include "engine/gpu_runtime.hpp"
#endif

namespace tessera::mpi {
namespace {

ExchangeTransport requested_ = ExchangeTransport::Auto;
// What MPI_COMM_WORLD (and any communicator of the same ranks in the same order) resolved to, by
// request: every exchange a regrid builds would otherwise repeat the collective check.
std::optional<ExchangeTransport> worldResolved_[3];

// Why this rank cannot copy into the device memory of every rank of comm; empty where it can.
// Collective over comm.
std::string peerObstacle(MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int nodeRanks = 1;
  MPI_Comm_size(node, &nodeRanks);
  MPI_Comm_free(&node);
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
  // Each rank's GPU by its PCI bus id, which names it the same in every process whatever devices
  // each one sees.
  constexpr int kIdLength = 32;
  std::array<char, kIdLength> mine{};
  int device = 0;
  TESSERA_GPU_CHECK(gpuGetDevice(&device));
  TESSERA_GPU_CHECK(gpuDeviceGetPCIBusId(mine.data(), kIdLength, device));
  std::vector<char> all(std::size_t(ranks) * kIdLength);
  MPI_Allgather(mine.data(), kIdLength, MPI_CHAR, all.data(), kIdLength, MPI_CHAR, comm);
  if (nodeRanks != ranks)
    return "the ranks span more than one node";
  for (int r = 0; r < ranks; ++r) {
    const std::string id(all.data() + std::size_t(r) * kIdLength);
    int other = -1, reaches = 0;
    if (gpuDeviceGetByPCIBusId(&other, id.c_str()) != gpuSuccess) {
      (void)gpuGetLastError();
      return "rank " + std::to_string(r) + "'s GPU (" + id + ") is not visible to every rank";
    }
    if (other == device)
      continue;
    TESSERA_GPU_CHECK(gpuDeviceCanAccessPeer(&reaches, device, other));
    if (!reaches)
      return "the GPUs " + std::string(mine.data()) + " and " + id + " cannot access each other";
  }
  return {};
#else
  (void)nodeRanks;
  return "this build has no device back end";
#endif
}

} // namespace

std::string_view transportName(ExchangeTransport transport) {
  switch (transport) {
  case ExchangeTransport::Auto:
    return "auto";
  case ExchangeTransport::Staged:
    return "staged";
  case ExchangeTransport::Peer:
    return "peer";
  }
  return "?";
}

std::optional<ExchangeTransport> parseTransport(std::string_view name) {
  for (ExchangeTransport t :
       {ExchangeTransport::Auto, ExchangeTransport::Staged, ExchangeTransport::Peer})
    if (name == transportName(t))
      return t;
  return std::nullopt;
}

void requestTransport(ExchangeTransport transport) {
  requested_ = transport;
}

ExchangeTransport requestedTransport() {
  return requested_;
}

ExchangeTransport resolveTransport(MPI_Comm comm, ExchangeTransport requested) {
  if (requested == ExchangeTransport::Staged)
    return requested;
  int same = MPI_UNEQUAL; // the same on every rank of comm, as is the cache
  MPI_Comm_compare(comm, MPI_COMM_WORLD, &same);
  std::optional<ExchangeTransport>* cached =
      same == MPI_IDENT || same == MPI_CONGRUENT ? &worldResolved_[int(requested)] : nullptr;
  if (cached && *cached)
    return **cached;
  const std::string obstacle = firstMessage(comm, peerObstacle(comm));
  if (!obstacle.empty() && requested == ExchangeTransport::Peer)
    throw std::runtime_error("run.exchange = \"peer\": " + obstacle +
                             " (\"staged\" or \"auto\" works everywhere)");
  const ExchangeTransport resolved =
      obstacle.empty() ? ExchangeTransport::Peer : ExchangeTransport::Staged;
  if (cached)
    *cached = resolved;
  return resolved;
}

std::string describeTransport(ExchangeTransport transport) {
  switch (transport) {
  case ExchangeTransport::Peer:
    return "peer: device-to-device copies between the ranks' GPUs (interprocess memory)";
  case ExchangeTransport::Staged:
    return "staged: through page-locked host memory and MPI";
  case ExchangeTransport::Auto:
    break;
  }
  return "auto";
}

} // namespace tessera::mpi
