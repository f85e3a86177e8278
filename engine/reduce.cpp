#include "engine/reduce.hpp"

#include <cstddef>
#include <omp.h>
#include <stdexcept>
#include <vector>

namespace tessera {

#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
double reduceDevice(const double* values, std::size_t n, ReduceKind kind); // reduce_device.cu
void dotProductsDevice(const double* a, const double* const* b, int count, std::size_t n,
                       double* out); // reduce_device.cu
#endif

namespace {

// Op over term(0), ..., term(n - 1): each thread combines a static block of the terms, and the
// blocks' results are combined in thread order, so that a sum is the same from call to call for a
// given thread count (OpenMP's reduction clause and a critical section combine in the order the
// threads arrive, which differs from call to call with more than two threads).
template <class Op, class Term>
double reduceInThreadOrder(std::ptrdiff_t n, const Term& term) {
  std::vector<double> partial(std::size_t(omp_get_max_threads()), Op::identity());
#pragma omp parallel
  {
    double local = Op::identity();
#pragma omp for schedule(static) nowait
    for (std::ptrdiff_t i = 0; i < n; ++i)
      local = Op::combine(local, term(i));
    partial[std::size_t(omp_get_thread_num())] = local;
  }
  double result = Op::identity();
  for (double p : partial)
    result = Op::combine(result, p);
  return result;
}

template <class Op>
double reduceHostWith(std::span<const double> values) {
  const double* v = values.data();
  return reduceInThreadOrder<Op>(std::ptrdiff_t(values.size()),
                                 [v](std::ptrdiff_t i) { return v[i]; });
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
  if (space == MemorySpace::Host)
    return reduceInThreadOrder<SumOp>(std::ptrdiff_t(n),
                                      [a, b](std::ptrdiff_t i) { return a[i] * b[i]; });
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
