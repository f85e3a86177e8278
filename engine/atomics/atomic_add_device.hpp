#pragma once
// The library's fp64 atomic addition: every strategy's global additions and the patch engine's
// refluxing go through it. Included only from .cu translation units.
#include "engine/gpu_runtime.hpp"

namespace tessera::atomics {

__device__ inline void atomicAddTo(double* address, double value) {
#if defined(TESSERA_BACKEND_HIP)
  // The hardware fp64 atomic of gfx90a; plain atomicAdd is a compare-and-swap loop there unless
  // the build passes -munsafe-fp-atomics. The hardware one is wrong only on fine-grained
  // (host-coherent) memory, and Tessera's device arrays are hipMalloc'd, coarse-grained.
  unsafeAtomicAdd(address, value);
#else
  atomicAdd(address, value);
#endif
}

} // namespace tessera::atomics
