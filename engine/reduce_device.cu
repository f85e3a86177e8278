// Device reduction: a grid-stride pass leaves one value per block (shared-memory tree), and a
// second single-block pass reduces those. Only the final scalar is copied to the host. The first
// pass loads either the values themselves or the products of two arrays' (a dot product).
#include <algorithm>

#include "engine/device_array.hpp"
#include "engine/gpu_runtime.hpp"
#include "engine/reduce.hpp"

namespace tessera {
namespace {

constexpr int kReduceThreads = 256;
constexpr int kReduceMaxBlocks = 1024;

struct Values {
  const double* in;
  __device__ double operator()(std::size_t i) const { return in[i]; }
};
struct Products {
  const double *a, *b;
  __device__ double operator()(std::size_t i) const { return a[i] * b[i]; }
};

template <class Op, class Load>
__global__ void reduceKernel(Load load, std::size_t n, double* out) {
  __shared__ double partial[kReduceThreads];
  double local = Op::identity();
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    local = Op::combine(local, load(i));
  partial[threadIdx.x] = local;
  __syncthreads();
  for (int s = kReduceThreads / 2; s > 0; s /= 2) {
    if (static_cast<int>(threadIdx.x) < s)
      partial[threadIdx.x] = Op::combine(partial[threadIdx.x], partial[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}

int blocksFor(std::size_t n) {
  const std::size_t wanted = (n + kReduceThreads - 1) / kReduceThreads;
  return static_cast<int>(wanted < kReduceMaxBlocks ? wanted : kReduceMaxBlocks);
}

template <class Op, class Load>
double reduceWith(Load load, std::size_t n) {
  if (n == 0)
    return Op::identity();
  const int blocks = blocksFor(n);
  DeviceArray<double> partials(static_cast<std::size_t>(blocks), MemorySpace::Device);
  DeviceArray<double> result(1, MemorySpace::Device);
  reduceKernel<Op><<<blocks, kReduceThreads>>>(load, n, partials.data());
  TESSERA_GPU_CHECK_LAUNCH();
  reduceKernel<Op><<<1, kReduceThreads>>>(Values{partials.data()}, partials.size(), result.data());
  TESSERA_GPU_CHECK_LAUNCH();
  double host = 0.0;
  result.copyToHost({&host, 1});
  return host;
}

} // namespace

double reduceDevice(const double* values, std::size_t n, ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Min:
    return reduceWith<MinOp>(Values{values}, n);
  case ReduceKind::Max:
    return reduceWith<MaxOp>(Values{values}, n);
  case ReduceKind::Sum:
    return reduceWith<SumOp>(Values{values}, n);
  }
  return 0.0;
}

// Each product's two passes into its own slots, then one copy of all the results.
void dotProductsDevice(const double* a, const double* const* b, int count, std::size_t n,
                       double* out) {
  if (count <= 0)
    return;
  if (n == 0) {
    std::fill(out, out + count, 0.0);
    return;
  }
  const int blocks = blocksFor(n);
  DeviceArray<double> partials(std::size_t(blocks) * std::size_t(count), MemorySpace::Device);
  DeviceArray<double> results(std::size_t(count), MemorySpace::Device);
  for (int i = 0; i < count; ++i) {
    double* mine = partials.data() + std::size_t(i) * std::size_t(blocks);
    reduceKernel<SumOp><<<blocks, kReduceThreads>>>(Products{a, b[i]}, n, mine);
    TESSERA_GPU_CHECK_LAUNCH();
    reduceKernel<SumOp>
        <<<1, kReduceThreads>>>(Values{mine}, std::size_t(blocks), results.data() + i);
    TESSERA_GPU_CHECK_LAUNCH();
  }
  results.copyToHost({out, std::size_t(count)});
}

} // namespace tessera
