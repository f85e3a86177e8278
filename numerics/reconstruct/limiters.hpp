#pragma once
// Slope limiters of piecewise linear reconstruction: from the backward difference a = v_i - v_i-1
// and the forward difference b = v_i+1 - v_i, the slope of cell i. Each is symmetric in a and b
// and odd (limit(-a, -b) = -limit(a, b)), so mirror-image data get mirror-image slopes, and each
// is zero at an extremum (a b <= 0), which is what keeps the reconstruction from creating new
// extrema (Toro 2009, section 13.8; van Leer 1977).
#include <cmath>

#include "engine/arithmetic.hpp"
#include "engine/backend.hpp"

namespace tessera {

// The most diffusive TVD limiter: the smaller difference.
struct Minmod {
  static constexpr const char* kName = "minmod";
  TESSERA_INLINE static double slope(double a, double b) {
    if (a * b <= 0.0)
      return 0.0;
    return std::fabs(a) < std::fabs(b) ? a : b;
  }
};

// van Leer's harmonic mean 2ab / (a + b).
struct VanLeer {
  static constexpr const char* kName = "van_leer";
  TESSERA_INLINE static double slope(double a, double b) {
    if (a * b <= 0.0)
      return 0.0;
    return divide(2.0 * a * b, a + b);
  }
};

// Monotonized central (van Leer 1977): the central difference, limited to twice either side.
struct MonotonizedCentral {
  static constexpr const char* kName = "mc";
  TESSERA_INLINE static double slope(double a, double b) {
    if (a * b <= 0.0)
      return 0.0;
    const double m =
        std::fmin(std::fmin(2.0 * std::fabs(a), 2.0 * std::fabs(b)), 0.5 * std::fabs(a + b));
    return a > 0.0 ? m : -m;
  }
};

// The central difference, unlimited: second order on smooth data, oscillates at discontinuities
// (for convergence studies of smooth solutions).
struct Unlimited {
  static constexpr const char* kName = "none";
  TESSERA_INLINE static double slope(double a, double b) { return 0.5 * (a + b); }
};

} // namespace tessera
