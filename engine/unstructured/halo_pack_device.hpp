#pragma once
// Device twins of the halo packing (halo_pack.hpp), one thread per value: the same layouts and
// results. Plain declarations: host translation units include it. All pointers are device
// pointers; both calls are asynchronous on the default stream.

namespace tessera::unstructured {

#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
// packHaloValues on the device: cells holds numCells local cell indices.
void packHaloValuesDevice(const double* values, const int* cells, int numCells, int width,
                          double* packed);

// unpackHaloValues on the device, under the same condition on repeated cells.
void unpackHaloValuesDevice(const double* packed, const int* cells, int numCells, int width,
                            double* values);
#endif

} // namespace tessera::unstructured
