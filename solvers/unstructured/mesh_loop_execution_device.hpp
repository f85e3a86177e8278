#pragma once
// The device execution policy of the mesh loops (solvers/unstructured/mesh_loops.hpp): one thread
// per item, hardware atomics, the face scatters through the atomics library's device strategies.
// For .cu files only: the device loops of the mesh kernels and of the unstructured residual.
#include <cstddef>

#include "engine/atomics/atomic_add_device.hpp"
#include "engine/atomics/scatter_device.hpp"
#include "engine/gpu_runtime.hpp"
#include "engine/memory.hpp"

namespace tessera::unstructured {
namespace device_loops {

constexpr int kLoopThreads = 256;

// Atomic min and max on doubles by compare-and-swap on the bit pattern: HIP has no signed 64-bit
// atomicMax, on which the ordered-integer trick would rest, and a compare-and-swap can skip the
// atomic altogether. Skipping on a plain, possibly stale read is safe because the stored minimum
// only decreases: a stale value is no smaller than the current one, so v >= stale implies
// v >= current. A failed swap returns the current value and the loop tests it again. Finite
// values (and -0.0 against +0.0, which compare equal, so either may stay) only.
template <class Better>
__device__ inline void atomicImprove(double* p, double v, Better better) {
  auto* bits = reinterpret_cast<unsigned long long*>(p);
  unsigned long long seen = *bits;
  while (better(v, __longlong_as_double(static_cast<long long>(seen)))) {
    const unsigned long long wanted = static_cast<unsigned long long>(__double_as_longlong(v));
    const unsigned long long found = atomicCAS(bits, seen, wanted);
    if (found == seen)
      return;
    seen = found;
  }
}

struct DeviceAtomics {
  __device__ static void add(double* p, double v) { atomics::atomicAddTo(p, v); }
  __device__ static void min(double* p, double v) {
    atomicImprove(p, v, [](double a, double b) { return a < b; });
  }
  __device__ static void max(double* p, double v) {
    atomicImprove(p, v, [](double a, double b) { return a > b; });
  }
};

template <class Body>
__global__ void __launch_bounds__(kLoopThreads) forEachKernel(int count, Body body) {
  const int i = int(blockIdx.x) * kLoopThreads + int(threadIdx.x);
  if (i < count)
    body(i);
}

static __global__ void __launch_bounds__(kLoopThreads)
    fillKernel(double* p, std::size_t n, double value) {
  const std::size_t i = std::size_t(blockIdx.x) * kLoopThreads + threadIdx.x;
  if (i < n)
    p[i] = value;
}

struct DeviceExecution {
  using Atomics = DeviceAtomics;
  static constexpr MemorySpace kSpace = MemorySpace::Device;

  template <class Body>
  static void forEach(int count, const Body& body) {
    if (count == 0)
      return;
    forEachKernel<<<(count + kLoopThreads - 1) / kLoopThreads, kLoopThreads>>>(count, body);
    TESSERA_GPU_CHECK_LAUNCH();
  }
  static void fill(double* p, std::size_t n, double value) {
    if (n == 0)
      return;
    fillKernel<<<unsigned((n + kLoopThreads - 1) / kLoopThreads), kLoopThreads>>>(p, n, value);
    TESSERA_GPU_CHECK_LAUNCH();
  }
  template <int K, class Contribution>
  static void scatter(const atomics::FaceScatterPlan& plan, atomics::Strategy strategy,
                      const Contribution& f, double* target) {
    atomics::scatterFacesDevice<K>(plan, strategy, f, target);
  }
};

} // namespace device_loops

using device_loops::DeviceExecution;

} // namespace tessera::unstructured
