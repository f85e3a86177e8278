#pragma once
// The pointwise NB x NB LU factorization and forward/backward substitution of the diagonal blocks
// D, written once for the host and the device. Blocks are row-major. No pivoting: the point
// implicit solver's D blocks are diagonally dominant (or otherwise safely factorizable), which is
// the documented requirement of BlockMatrix::factorizeDiagonal.
#include "engine/backend.hpp"

namespace tessera::linalg {

// Doolittle LU in place: U above the diagonal, L's multipliers below it (L's unit diagonal is
// implied), and on the diagonal the reciprocals of U's pivots, so that solving multiplies where it
// would divide: a division is a long instruction sequence on GPUs, and the sweeps solve with each
// D many times per factorization.
template <int NB>
TESSERA_INLINE void luFactorize(double* a) {
  for (int p = 0; p < NB; ++p) {
    const double inversePivot = 1.0 / a[p * NB + p];
    a[p * NB + p] = inversePivot;
    for (int i = p + 1; i < NB; ++i) {
      const double m = a[i * NB + p] * inversePivot;
      a[i * NB + p] = m;
      for (int j = p + 1; j < NB; ++j)
        a[i * NB + j] -= m * a[p * NB + j];
    }
  }
}

// Solves (LU) x = b in place in x, with lu from luFactorize. Each x_i takes its terms in the order
// in which the x_j it needs become final (ascending j forward, descending j backward): the order of
// the device sweep, whose lanes subtract x_j's term as soon as x_j is broadcast.
template <int NB>
TESSERA_INLINE void luSolve(const double* lu, double (&x)[NB]) {
  for (int i = 1; i < NB; ++i)
    for (int j = 0; j < i; ++j)
      x[i] -= lu[i * NB + j] * x[j];
  for (int i = NB - 1; i >= 0; --i) {
    for (int j = NB - 1; j > i; --j)
      x[i] -= lu[i * NB + j] * x[j];
    x[i] *= lu[i * NB + i];
  }
}

} // namespace tessera::linalg
