// The device loop of engine/linalg/vector_ops: one thread per value.
#include "engine/gpu_runtime.hpp"
#include "engine/linalg/vector_ops_device.hpp"

namespace tessera::linalg {
namespace {

constexpr int kThreads = 256;

template <class Op>
__global__ void valuesKernel(std::size_t n, Op op) {
  const std::size_t i = std::size_t(blockIdx.x) * kThreads + threadIdx.x;
  if (i < n)
    op(i);
}

} // namespace

template <class Op>
void forEachValueDevice(std::size_t n, const Op& op) {
  if (n == 0)
    return;
  valuesKernel<<<unsigned((n + kThreads - 1) / kThreads), kThreads>>>(n, op);
  TESSERA_GPU_CHECK_LAUNCH();
}

template void forEachValueDevice<AxpyOp>(std::size_t, const AxpyOp&);
template void forEachValueDevice<ScaledOp>(std::size_t, const ScaledOp&);
template void forEachValueDevice<FillOp>(std::size_t, const FillOp&);
template void forEachValueDevice<ConvertedOp<double, float>>(std::size_t,
                                                             const ConvertedOp<double, float>&);
template void forEachValueDevice<ConvertedOp<float, double>>(std::size_t,
                                                             const ConvertedOp<float, double>&);
template void forEachValueDevice<ConvertedOp<double, double>>(std::size_t,
                                                              const ConvertedOp<double, double>&);

} // namespace tessera::linalg
