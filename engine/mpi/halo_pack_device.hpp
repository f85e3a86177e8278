#pragma once
// Device twins of the halo packing (halo_pack.hpp), one thread per value: the same layouts and
// results. Host translation units of a device build include it. All pointers are device
// pointers; both calls are asynchronous on the given stream (the default stream unless named).

#include "engine/mpi/halo_pack.hpp"
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
#include "engine/gpu_runtime.hpp"
#endif

namespace tessera::mpi {

#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
// packHaloValues on the device: items holds numItems local item indices. On `stream`. For
// double and float.
template <class T>
void packHaloValuesDevice(const T* values, const int* items, int numItems, ItemLayout layout,
                          T* packed, gpuStream_t stream = 0);

// unpackHaloValues on the device, under the same condition on repeated items. On `stream`.
template <class T>
void unpackHaloValuesDevice(const T* packed, const int* items, int numItems, ItemLayout layout,
                            T* values, gpuStream_t stream = 0);
#endif

} // namespace tessera::mpi
