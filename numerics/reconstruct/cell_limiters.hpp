#pragma once
// Multidimensional slope limiters of a cell-centred gradient on unstructured meshes: a cell's
// gradient g is scaled by phi in [0, 1] (per variable) so that the reconstructed face values
// q_c + phi g.(x_f - x_c) stay within the range [q_min, q_max] of the cell and its face
// neighbours. Each limiter gives a face's phi from
//   d   = g.(x_f - x_c), the unlimited increment to the face,
//   up  = q_max - q_c >= 0 and down = q_min - q_c <= 0, the room in either direction,
// and the cell's phi is the smallest over its faces.
//
// Barth and Jespersen (1989): phi = min(1, room / d), the largest phi that keeps every face value
// in range: no new extremum, but not differentiable, which stalls steady convergence.
//
// Venkatakrishnan (1995): phi = (r^2 + eps^2 + 2 r d) / (r^2 + 2 d^2 + r d + eps^2), r the room
// on the side of d, a smooth version of the above, with eps^2 = (K h)^3 (h the cell's size, K a
// user constant) switching the limiter off where the variation is below eps, in smooth regions.
// With eps = 0 it keeps face values in range (phi d <= r: phi <= 1 for r <= 2 d, and
// phi d < r beyond); with eps > 0 a face value may pass the range by at most eps / (2 sqrt 2),
// the price of not limiting smooth extrema.
#include "engine/backend.hpp"

namespace tessera {

struct BarthJespersen {
  static constexpr const char* kName = "barth_jespersen";
  TESSERA_INLINE static double faceLimit(double d, double up, double down, double /*eps2*/) {
    if (d > 0.0)
      return up < d ? up / d : 1.0;
    if (d < 0.0)
      return down > d ? down / d : 1.0;
    return 1.0;
  }
};

struct Venkatakrishnan {
  static constexpr const char* kName = "venkatakrishnan";
  TESSERA_INLINE static double faceLimit(double d, double up, double down, double eps2) {
    if (d == 0.0)
      return 1.0;
    const double r = d > 0.0 ? up : down;
    const double phi = (r * r + eps2 + 2.0 * d * r) / (r * r + 2.0 * d * d + r * d + eps2);
    return phi < 1.0 ? phi : 1.0;
  }
};

// No limiting: the unlimited reconstruction, exact for linear fields and for smooth-order tests.
struct NoCellLimiter {
  static constexpr const char* kName = "none";
  TESSERA_INLINE static double faceLimit(double, double, double, double) { return 1.0; }
};

} // namespace tessera
