#pragma once
// Host-device agreement to a fraction of each quantity's scale: the device's divisions and roots
// are within one unit in the last place of the host's (engine/arithmetic.hpp), and where a
// difference of nearly equal values cancels (q - dt/dx dF of a near-uniform state), that is large
// relative to the value itself but not to the variable's scale.
#include <cmath>
#include <cstddef>
#include <vector>

namespace tessera::test {

// The largest magnitude of each variable over the patches' interiors (NaN skipped).
template <class Layout>
std::vector<double> variableScales(const std::vector<double>& q, const Layout& layout,
                                   int numPatches) {
  std::vector<double> scale(std::size_t(layout.numVars), 0.0);
  for (int p = 0; p < numPatches; ++p)
    for (int v = 0; v < layout.numVars; ++v)
      for (int c = 0; c < layout.interiorCells(); ++c) {
        const double x = std::fabs(q[layout.index(p, v, layout.interiorCell(c))]);
        if (x > scale[std::size_t(v)])
          scale[std::size_t(v)] = x;
      }
  return scale;
}

// The largest magnitude of the values (NaN skipped).
inline double largestMagnitude(const std::vector<double>& values) {
  double m = 0.0;
  for (double x : values)
    if (std::fabs(x) > m)
      m = std::fabs(x);
  return m;
}

// |device - host| <= 1e-12 scale; NaN must be NaN on both.
inline bool agreeToScale(double device, double host, double scale) {
  if (std::isnan(host) || std::isnan(device))
    return std::isnan(host) && std::isnan(device);
  return std::fabs(device - host) <= 1e-12 * (scale + 1e-300);
}

} // namespace tessera::test
