#pragma once
// Reductions over an array in host or device memory. The operation types are shared by the host
// loop and the device kernel, so both combine values the same way.
#include <cmath>
#include <cstddef>
#include <span>

#include "engine/backend.hpp"
#include "engine/device_array.hpp"

namespace tessera {

struct MinOp {
  TESSERA_HOST_DEVICE static constexpr double identity() { return INFINITY; }
  TESSERA_INLINE static double combine(double a, double b) { return b < a ? b : a; }
};
struct MaxOp {
  TESSERA_HOST_DEVICE static constexpr double identity() { return -INFINITY; }
  TESSERA_INLINE static double combine(double a, double b) { return b > a ? b : a; }
};
struct SumOp {
  TESSERA_HOST_DEVICE static constexpr double identity() { return 0.0; }
  TESSERA_INLINE static double combine(double a, double b) { return a + b; }
};

enum class ReduceKind { Min, Max, Sum };

// Host reduction (OpenMP). Min and Max are exact; Sum depends on the thread count's partition,
// and is the same from call to call for a given thread count.
double reduceHost(std::span<const double> values, ReduceKind kind);

// Reduction on the array's own memory space; a device array is reduced on the device and only
// the scalar result crosses to the host.
double reduce(const DeviceArray<double>& values, ReduceKind kind);

// The sum of a[i] b[i] over n values of the given memory space (device pointers for a device
// space), reduced where the values are; only the scalar crosses to the host. As with Sum, the order
// of the additions depends on the back end and the thread count (on the host, the same from call to
// call for a given thread count).
double dotProduct(MemorySpace space, const double* a, const double* b, std::size_t n);

// out[i] = the dot product of a with b[i] for i < count, with one crossing to the host for all of
// them (out is host memory; b a host array of pointers into the space).
void dotProducts(MemorySpace space, const double* a, const double* const* b, int count,
                 std::size_t n, double* out);

} // namespace tessera
