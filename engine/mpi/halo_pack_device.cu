// Device halo packing: thread i moves value i of the message, value i % width of item
// items[i / width], so consecutive threads write or read the consecutive values of the message.
#include <cstddef>

#include "engine/gpu_runtime.hpp"
#include "engine/mpi/halo_pack_device.hpp"

namespace tessera::mpi {
namespace {

constexpr int kThreadsPerBlock = 256;

template <class T>
__global__ void packKernel(const T* values, const int* items, std::size_t count, ItemLayout layout,
                           T* packed) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count)
    return;
  const std::size_t w = std::size_t(layout.width);
  packed[i] = values[layout.index(items[i / w], int(i % w))];
}

template <class T>
__global__ void unpackKernel(const T* packed, const int* items, std::size_t count,
                             ItemLayout layout, T* values) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count)
    return;
  const std::size_t w = std::size_t(layout.width);
  values[layout.index(items[i / w], int(i % w))] = packed[i];
}

int blocksFor(std::size_t count) {
  return int((count + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

} // namespace

template <class T>
void packHaloValuesDevice(const T* values, const int* items, int numItems, ItemLayout layout,
                          T* packed, gpuStream_t stream) {
  const std::size_t count = std::size_t(numItems) * std::size_t(layout.width);
  if (count == 0)
    return;
  packKernel<<<blocksFor(count), kThreadsPerBlock, 0, stream>>>(values, items, count, layout,
                                                                packed);
  TESSERA_GPU_CHECK_LAUNCH();
}

template <class T>
void unpackHaloValuesDevice(const T* packed, const int* items, int numItems, ItemLayout layout,
                            T* values, gpuStream_t stream) {
  const std::size_t count = std::size_t(numItems) * std::size_t(layout.width);
  if (count == 0)
    return;
  unpackKernel<<<blocksFor(count), kThreadsPerBlock, 0, stream>>>(packed, items, count, layout,
                                                                  values);
  TESSERA_GPU_CHECK_LAUNCH();
}

#define TESSERA_INSTANTIATE_HALO_PACK(T)                                                           \
  template void packHaloValuesDevice(const T*, const int*, int, ItemLayout, T*, gpuStream_t);      \
  template void unpackHaloValuesDevice(const T*, const int*, int, ItemLayout, T*, gpuStream_t);
TESSERA_INSTANTIATE_HALO_PACK(double)
TESSERA_INSTANTIATE_HALO_PACK(float)
#undef TESSERA_INSTANTIATE_HALO_PACK

} // namespace tessera::mpi
