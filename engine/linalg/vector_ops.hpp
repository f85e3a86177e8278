#pragma once
// The vector operations of a Krylov solver (engine/linalg/flexible_gmres.hpp) on vectors in one
// memory space, spread over MPI ranks: each rank holds `size` values of its own (its owned rows,
// say), and dot products sum over every rank of the communicator. Host loops (OpenMP) and device
// kernels (vector_ops_device.cu) apply the same pointwise operations below.
#include <cstddef>
#include <mpi.h>

#include "engine/backend.hpp"
#include "engine/memory.hpp"

namespace tessera::linalg {

struct VectorSpace {
  MemorySpace space = MemorySpace::Host;
  std::size_t size = 0; // this rank's values
  MPI_Comm comm = MPI_COMM_SELF;
};

// Collective: sum over every rank of a[i] b[i], and its square root for a with itself.
double dot(const VectorSpace& vs, const double* a, const double* b);
double norm(const VectorSpace& vs, const double* a);
// Collective: out[i] = dot(vs, a, b[i]) for i < count, with one synchronisation and one
// MPI_Allreduce for all of them (b: host array of pointers to vectors of vs).
void dots(const VectorSpace& vs, const double* a, const double* const* b, int count, double* out);

// y += alpha x
void axpy(const VectorSpace& vs, double alpha, const double* x, double* y);
// y = alpha x (y may be x)
void scaled(const VectorSpace& vs, double alpha, const double* x, double* y);
// y = value
void fill(const VectorSpace& vs, double value, double* y);
// out = To(in): vectors of another precision (the fp32 updates of mixed-precision sweeps),
// instantiated for float and double each way.
template <class From, class To>
void converted(const VectorSpace& vs, const From* in, To* out);

// The pointwise operations, shared by the host loops and the device kernels.
struct AxpyOp {
  double alpha;
  const double* x;
  double* y;
  TESSERA_INLINE void operator()(std::size_t i) const { y[i] += alpha * x[i]; }
};
struct ScaledOp {
  double alpha;
  const double* x;
  double* y;
  TESSERA_INLINE void operator()(std::size_t i) const { y[i] = alpha * x[i]; }
};
struct FillOp {
  double value;
  double* y;
  TESSERA_INLINE void operator()(std::size_t i) const { y[i] = value; }
};
template <class From, class To>
struct ConvertedOp {
  const From* in;
  To* out;
  TESSERA_INLINE void operator()(std::size_t i) const { out[i] = To(in[i]); }
};

} // namespace tessera::linalg
