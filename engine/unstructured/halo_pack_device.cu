// Device halo packing: thread i moves value i of the message, value i % width of cell
// cells[i / width], so consecutive threads read or write the consecutive values of one cell.
#include <cstddef>

#include "engine/gpu_runtime.hpp"
#include "engine/unstructured/halo_pack_device.hpp"

namespace tessera::unstructured {
namespace {

constexpr int kThreadsPerBlock = 256;

__global__ void packKernel(const double* values, const int* cells, std::size_t count, int width,
                           double* packed) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count)
    return;
  const std::size_t w = std::size_t(width);
  packed[i] = values[std::size_t(cells[i / w]) * w + i % w];
}

__global__ void unpackKernel(const double* packed, const int* cells, std::size_t count, int width,
                             double* values) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count)
    return;
  const std::size_t w = std::size_t(width);
  values[std::size_t(cells[i / w]) * w + i % w] = packed[i];
}

int blocksFor(std::size_t count) {
  return int((count + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

} // namespace

void packHaloValuesDevice(const double* values, const int* cells, int numCells, int width,
                          double* packed) {
  const std::size_t count = std::size_t(numCells) * std::size_t(width);
  if (count == 0)
    return;
  packKernel<<<blocksFor(count), kThreadsPerBlock>>>(values, cells, count, width, packed);
  TESSERA_GPU_CHECK_LAUNCH();
}

void unpackHaloValuesDevice(const double* packed, const int* cells, int numCells, int width,
                            double* values) {
  const std::size_t count = std::size_t(numCells) * std::size_t(width);
  if (count == 0)
    return;
  unpackKernel<<<blocksFor(count), kThreadsPerBlock>>>(packed, cells, count, width, values);
  TESSERA_GPU_CHECK_LAUNCH();
}

} // namespace tessera::unstructured
