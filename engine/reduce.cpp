#include "engine/reduce.hpp"

#include <cstddef>
#include <stdexcept>

namespace tessera {

#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
double reduceDevice(const double* values, std::size_t n, ReduceKind kind); // reduce_device.cu
void dotProductsDevice(const double* a, const double* const* b, int count, std::size_t n,
                       double* out); // reduce_device.cu
#endif

namespace {

template <class Op>
double reduceHostWith(std::span<const double> values) {
  double result = Op::identity();
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(values.size());
  const double* v = values.data();
#pragma omp parallel
  {
    double local = Op::identity();
#pragma omp for schedule(static) nowait
    for (std::ptrdiff_t i = 0; i < n; ++i)
      local = Op::combine(local, v[i]);
#pragma omp critical(tessera_reduce_host)
    result = Op::combine(result, local);
  }
  return result;
}

} // namespace

double reduceHost(std::span<const double> values, ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Min:
    return reduceHostWith<MinOp>(values);
  case ReduceKind::Max:
    return reduceHostWith<MaxOp>(values);
  case ReduceKind::Sum:
    return reduceHostWith<SumOp>(values);
  }
  return 0.0;
}

double reduce(const DeviceArray<double>& values, ReduceKind kind) {
  if (values.space() == MemorySpace::Host)
    return reduceHost(values.hostSpan(), kind);
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
  return reduceDevice(values.data(), values.size(), kind);
#else
  throw std::logic_error("reduce: device array in a host-only build");
#endif
}

double dotProduct(MemorySpace space, const double* a, const double* b, std::size_t n) {
  if (space == MemorySpace::Host) {
    double sum = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
    for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(n); ++i)
      sum += a[i] * b[i];
    return sum;
  }
  double sum = 0.0;
  dotProducts(space, a, &b, 1, n, &sum);
  return sum;
}

void dotProducts(MemorySpace space, const double* a, const double* const* b, int count,
                 std::size_t n, double* out) {
  if (space == MemorySpace::Host) {
    for (int i = 0; i < count; ++i)
      out[i] = dotProduct(space, a, b[i], n);
    return;
  }
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
  dotProductsDevice(a, b, count, n, out);
#else
  throw std::logic_error("dotProducts: device vectors in a host-only build");
#endif
}

} // namespace tessera
