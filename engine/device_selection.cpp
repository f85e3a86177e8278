#include "engine/device_selection.hpp"

#include "engine/memory.hpp"

#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
#include "engine/gpu_runtime.hpp"
#endif

namespace tessera {

DeviceSelection selectDeviceByNodeRank(MPI_Comm comm) {
  DeviceSelection s;
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &s.nodeRank);
  MPI_Comm_size(node, &s.nodeRanks);
  MPI_Comm_free(&node);
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
  if (deviceAvailable()) {
    TESSERA_GPU_CHECK(gpuGetDeviceCount(&s.devices));
    s.device = deviceForNodeRank(s.nodeRank, s.devices);
    TESSERA_GPU_CHECK(gpuSetDevice(s.device));
  }
#endif
  return s;
}

} // namespace tessera
