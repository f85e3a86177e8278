// The device twin of stableTimeStep: one block strides over the patches (there are at most some
// 1e5, a few microseconds), min-reduces dx / lambda in shared memory and flags bad eigenvalues.
#include <span>
#include <vector>

#include "engine/gpu_runtime.hpp"
#include "solvers/patch/time_step.hpp"
#include "solvers/patch/time_step_device.hpp"

namespace tessera {
namespace {

constexpr int kTimeStepThreads = 1024;

template <int Dim>
__global__ void __launch_bounds__(kTimeStepThreads)
    smallestStepKernel(const double* patchLambda, const PatchGeometry<Dim>* geometry,
                       int numPatches, double* result) {
  __shared__ double smallest[kTimeStepThreads];
  __shared__ int bad[kTimeStepThreads];
  double local = INFINITY;
  int localBad = 0;
  for (int p = threadIdx.x; p < numPatches; p += kTimeStepThreads) {
    const double lambda = patchLambda[p];
    if (!isfinite(lambda) || lambda < 0.0)
      localBad = 1;
    else if (lambda > 0.0)
      local = std::fmin(local, geometry[p].minSpacing() / lambda);
  }
  smallest[threadIdx.x] = local;
  bad[threadIdx.x] = localBad;
  __syncthreads();
  for (int s = kTimeStepThreads / 2; s > 0; s /= 2) {
    if (int(threadIdx.x) < s) {
      smallest[threadIdx.x] = std::fmin(smallest[threadIdx.x], smallest[threadIdx.x + s]);
      bad[threadIdx.x] |= bad[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    result[0] = smallest[0];
    result[1] = bad[0];
  }
}

} // namespace

template <int Dim>
DeviceTimeStep<Dim>::DeviceTimeStep() : result_(2, MemorySpace::Device), arrived_(2) {
  gpuEvent_t copied;
  TESSERA_GPU_CHECK(gpuEventCreateWithFlags(&copied, gpuEventDisableTiming));
  copied_ = static_cast<void*>(copied);
}

template <int Dim>
DeviceTimeStep<Dim>::~DeviceTimeStep() {
  (void)gpuEventDestroy(static_cast<gpuEvent_t>(copied_)); // nothing to do about a failure
}

template <int Dim>
double DeviceTimeStep<Dim>::operator()(double cfl, const double* patchLambda,
                                       const PatchGeometry<Dim>* geometry, int numPatches,
                                       const std::function<void()>& beside) {
  smallestStepKernel<Dim>
      <<<1, kTimeStepThreads>>>(patchLambda, geometry, numPatches, result_.data());
  TESSERA_GPU_CHECK_LAUNCH();
  double* const result = arrived_.data();
  TESSERA_GPU_CHECK(
      gpuMemcpyAsync(result, result_.data(), 2 * sizeof(double), gpuMemcpyDeviceToHost, 0));
  const auto copied = static_cast<gpuEvent_t>(copied_);
  TESSERA_GPU_CHECK(gpuEventRecord(copied, 0));
  if (beside)
    beside();
  TESSERA_GPU_CHECK(gpuEventSynchronize(copied));
  if (result[1] == 0.0 && std::isfinite(result[0]))
    return cfl * result[0];
  // The error path: the host twin finds the patch and says what is wrong with it.
  std::vector<double> lambda(numPatches);
  std::vector<PatchGeometry<Dim>> hostGeometry(numPatches);
  copyBytes(lambda.data(), MemorySpace::Host, patchLambda, MemorySpace::Device,
            sizeof(double) * numPatches);
  copyBytes(hostGeometry.data(), MemorySpace::Host, geometry, MemorySpace::Device,
            sizeof(PatchGeometry<Dim>) * numPatches);
  return stableTimeStep<Dim>(cfl, lambda, std::span<const PatchGeometry<Dim>>(hostGeometry));
}

template class DeviceTimeStep<2>;
template class DeviceTimeStep<3>;

} // namespace tessera
