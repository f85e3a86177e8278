#pragma once
// A small nonsymmetric system for the Krylov solvers' tests: a 1D convection-diffusion operator
// of kConvectionDiffusionSize unknowns, upwinded (-1.3, 2.5, -0.7 on the three diagonals) with a
// far coupling 0.2 ten rows up; its Jacobi preconditioner divides by 2.5.
#include <cstddef>

namespace tessera::test {

inline constexpr std::size_t kConvectionDiffusionSize = 60;

// w = A v, host vectors of kConvectionDiffusionSize values.
inline void applyConvectionDiffusion(const double* v, double* w) {
  constexpr std::size_t n = kConvectionDiffusionSize;
  for (std::size_t i = 0; i < n; ++i) {
    w[i] = 2.5 * v[i];
    if (i > 0)
      w[i] -= 1.3 * v[i - 1];
    if (i + 1 < n)
      w[i] -= 0.7 * v[i + 1];
    if (i + 10 < n)
      w[i] += 0.2 * v[i + 10];
  }
}

} // namespace tessera::test
