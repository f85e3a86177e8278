#pragma once
// Division and square root for pointwise physics and numerics: correctly rounded on the host; on
// CUDA devices branch-free and faithful (within one unit in the last place of the correctly
// rounded result) for normal operands.
//
// Why: the correctly rounded fp64 division and square root of CUDA end in a test and a call to a
// slow path, which keeps the compiler from interleaving independent divisions and makes it spill
// registers around the call. The fused second-order stage does some 40 divisions and 7 square
// roots a cell; without the calls it ran 1.3x faster on an H100 (benchmarks/RESULTS.md). Host
// and device then agree to a few units in the last place of each operation rather than bitwise,
// which is what the device tests allow (1e-12 of each variable's scale).
//
// On the device: the hardware's approximate reciprocal (or reciprocal square root) refined by
// two Newton steps, then one correction of the quotient (or root) by its residual. The ranges
// where the device differs: subnormal operands count as zero (a root of one is 0, not ~1e-155);
// a zero or infinite divisor, and the root of +infinity, give NaN where the host gives an
// infinity or zero. No state of a gas is that far gone, and NaN is what the solvers' checks of
// unphysical states catch. HIP keeps the correctly rounded operations.
#include <cfloat>
#include <cmath>

#include "engine/backend.hpp"

namespace tessera {

// 1 / b.
TESSERA_INLINE double reciprocal(double b) {
#if defined(__CUDA_ARCH__)
  double r;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(b));
  r = fma(r, fma(-b, r, 1.0), r);
  return fma(r, fma(-b, r, 1.0), r);
#else
  return 1.0 / b;
#endif
}

// a / b.
TESSERA_INLINE double divide(double a, double b) {
#if defined(__CUDA_ARCH__)
  const double r = reciprocal(b), q = a * r;
  return fma(r, fma(-b, q, a), q);
#else
  return a / b;
#endif
}

// sqrt(x).
TESSERA_INLINE double squareRoot(double x) {
#if defined(__CUDA_ARCH__)
  double s;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(s) : "d"(x));
  s = s * fma(-0.5 * x * s, s, 1.5);
  s = s * fma(-0.5 * x * s, s, 1.5);
  const double y = x * s;
  const double root = fma(0.5 * s, fma(-y, y, x), y);
  // rsqrt(0) is infinite (and subnormals are zero to it): the root of 0 would be NaN.
  return x < DBL_MIN && x >= 0.0 ? 0.0 : root;
#else
  return std::sqrt(x);
#endif
}

} // namespace tessera
