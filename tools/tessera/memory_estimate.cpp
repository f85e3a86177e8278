#include "tools/tessera/memory_estimate.hpp"

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

namespace tessera::cli {
namespace {

// Per patch besides its state: its geometry, halo and reflux plans, its place in the forest
// (p4est's quadrant) and the output's points, measured at well under this.
constexpr double kBytesPerPatchBesidesState = 4096;

// Collective: the ranks of comm on this rank's node.
int ranksOnThisNode(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int nodeRanks = 1;
  MPI_Comm_size(node, &nodeRanks);
  MPI_Comm_free(&node);
  return nodeRanks;
}

// Collective: the smallest of every rank's value.
double smallestOverRanks(double value, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MIN, comm);
  return value;
}

// One copy of one patch's state, halo included.
double stateBytesPerPatch(const PatchRunSize& size) {
  return size.storedCells * size.numVars * sizeof(double);
}

} // namespace

std::string gigabytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g GB", bytes * 1e-9);
  return text;
}

double patchRunBytes(const PatchRunSize& size) {
  return size.patches * (stateBytesPerPatch(size) * size.stateCopies + kBytesPerPatchBesidesState);
}

double availableBytesPerRank(MPI_Comm comm) {
  // MemAvailable: what the kernel can give without swapping; the physical memory where the
  // kernel does not say.
  double available = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  std::ifstream meminfo("/proc/meminfo");
  for (std::string key; meminfo >> key;) {
    double kilobytes = 0;
    meminfo >> kilobytes;
    meminfo.ignore(64, '\n');
    if (key == "MemAvailable:") {
      available = kilobytes * 1024;
      break;
    }
  }
  return smallestOverRanks(available / ranksOnThisNode(comm), comm);
}

double availableDeviceBytesPerRank(MPI_Comm comm) {
  const int devices = deviceCount();
  const int nodeRanks = ranksOnThisNode(comm);
  const int sharing = devices > 0 ? (nodeRanks + devices - 1) / devices : 1;
  return smallestOverRanks(double(deviceFreeBytes()) / sharing, comm);
}

void refuseIfTooLarge(const io::Config& cfg, const PatchRunSize& size, MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const std::string sized = io::formatNumber(size.patches) + " patches of " +
                            io::formatNumber(size.storedCells) +
                            " cells with their halo, from mesh.patches, mesh.cells_per_patch and "
                            "amr.min_level";
  if (size.space == MemorySpace::Device) {
    // On the device: the state and the stages' copies (the output's copy stays on the host), each
    // a rank's patches in one allocation, which the pool rounds up (pooledAllocationBytes).
    const double patchesPerRank = size.patches / ranks;
    const double storeBytes = patchesPerRank * stateBytesPerPatch(size);
    const double pooled = storeBytes < 0x1p62 // beyond, far more than any device anyway
                              ? double(pooledAllocationBytes(std::size_t(storeBytes)))
                              : storeBytes;
    const double neededOnDevice =
        (size.stateCopies - 1) * pooled + patchesPerRank * kBytesPerPatchBesidesState;
    const double availableOnDevice = availableDeviceBytesPerRank(comm);
    if (neededOnDevice > availableOnDevice)
      cfg.fail(io::ConfigErrorKind::OutOfRange, "mesh.patches",
               "the run would need at least " + gigabytes(neededOnDevice) +
                   " of device memory a rank (" + sized + "), but " + gigabytes(availableOnDevice) +
                   " is free on each rank's device; use fewer or smaller patches, more devices, or "
                   "run.backend = \"host\"");
  }
  const double needed = patchRunBytes(size) / ranks;
  const double available = availableBytesPerRank(comm);
  if (needed > available)
    cfg.fail(io::ConfigErrorKind::OutOfRange, "mesh.patches",
             "the run would need at least " + gigabytes(needed) + " a rank (" + sized + "), but " +
                 gigabytes(available) +
                 " is available to each rank here; use fewer or smaller patches, or more nodes");
}

} // namespace tessera::cli
