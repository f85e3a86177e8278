#pragma once
// Device twins of the halo packing (halo_pack.hpp), one thread per value: the same layouts and
// results. Plain declarations: host translation units include it. All pointers are device
// pointers; both calls are asynchronous on the default stream.

namespace tessera::mpi {

#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
// packHaloValues on the device: items holds numItems local item indices.
void packHaloValuesDevice(const double* values, const int* items, int numItems, int width,
                          double* packed);

// unpackHaloValues on the device, under the same condition on repeated items.
void unpackHaloValuesDevice(const double* packed, const int* items, int numItems, int width,
                            double* values);
#endif

} // namespace tessera::mpi
