#include "engine/linalg/vector_ops.hpp"

#include <cmath>
#include <stdexcept>

#include "engine/mpi/rank_count.hpp"
#include "engine/reduce.hpp"
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
#include "engine/linalg/vector_ops_device.hpp"
#endif

namespace tessera::linalg {
namespace {

// op(i) for every value, in the vectors' memory space.
template <class Op>
void forEachValue(const VectorSpace& vs, const Op& op) {
  if (vs.space == MemorySpace::Host) {
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(vs.size); ++i)
      op(std::size_t(i));
    return;
  }
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
  forEachValueDevice(vs.size, op);
#else
  throw std::logic_error("vector operations: device vectors in a host-only build");
#endif
}

} // namespace

void dots(const VectorSpace& vs, const double* a, const double* const* b, int count, double* out) {
  dotProducts(vs.space, a, b, count, vs.size, out);
  if (mpi::rankCount(vs.comm) > 1 && count > 0)
    MPI_Allreduce(MPI_IN_PLACE, out, count, MPI_DOUBLE, MPI_SUM, vs.comm);
}

double dot(const VectorSpace& vs, const double* a, const double* b) {
  double sum = 0.0;
  dots(vs, a, &b, 1, &sum);
  return sum;
}

double norm(const VectorSpace& vs, const double* a) {
  return std::sqrt(dot(vs, a, a));
}

void axpy(const VectorSpace& vs, double alpha, const double* x, double* y) {
  forEachValue(vs, AxpyOp{alpha, x, y});
}

void scaled(const VectorSpace& vs, double alpha, const double* x, double* y) {
  forEachValue(vs, ScaledOp{alpha, x, y});
}

void fill(const VectorSpace& vs, double value, double* y) {
  forEachValue(vs, FillOp{value, y});
}

template <class From, class To>
void converted(const VectorSpace& vs, const From* in, To* out) {
  forEachValue(vs, ConvertedOp<From, To>{in, out});
}

template void converted<double, float>(const VectorSpace&, const double*, float*);
template void converted<float, double>(const VectorSpace&, const float*, double*);
template void converted<double, double>(const VectorSpace&, const double*, double*);

} // namespace tessera::linalg
