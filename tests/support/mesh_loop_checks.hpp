#pragma once
// What the host and device loop-mode tests share: a smooth field, AoS sampling, the column-wise
// relative error, and the modes (and, for face loops that add, the strategies) each kernel runs.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "engine/atomics/strategy.hpp"
#include "solvers/unstructured/mesh_loop_plan.hpp"

namespace tessera::unstructured {

// Smooth, nonlinear, of both signs: q_k at a point.
double smoothField(const Point& x, int k) {
  return (k == 3 ? -2.0 : 1.0 + 0.3 * k) + std::sin(1.3 * x[0] + 0.7 * k) * std::cos(0.9 * x[1]) +
         0.5 * x[2] * x[2] * (k % 2 == 0 ? 1.0 : -1.0);
}

// AoS values of a field at the given points: out[i * kCellVars + k] = field(points[i], k).
template <class Field>
std::vector<double> sample(const std::vector<Point>& points, Field field) {
  std::vector<double> out;
  out.reserve(points.size() * kCellVars);
  for (const Point& x : points)
    for (int k = 0; k < kCellVars; ++k)
      out.push_back(field(x, k));
  return out;
}

// The largest error over all values, each relative to the largest |expected| of its column (value
// j of every row of `width`): entries near zero (a gradient component, a residual) are judged
// against the size of what they are made of, not against themselves.
double relativeError(const std::vector<double>& actual, const std::vector<double>& expected,
                     int width) {
  double worst = actual.size() == expected.size() ? 0.0 : std::numeric_limits<double>::quiet_NaN();
  for (std::size_t j = 0; j < std::size_t(width); ++j) {
    double scale = 0.0, error = 0.0;
    for (std::size_t i = j; i < expected.size(); i += std::size_t(width)) {
      scale = std::max(scale, std::abs(expected[i]));
      error = std::max(error, std::abs(actual[i] - expected[i]));
    }
    worst = std::max(worst,
                     std::isnan(error) ? std::numeric_limits<double>::quiet_NaN() : error / scale);
  }
  return worst;
}

std::string label(LoopMode mode, atomics::Strategy strategy) {
  std::string s(loopModeName(mode));
  s += " loop";
  if (mode == LoopMode::Face) {
    s += ", ";
    s += atomics::strategyName(strategy);
  }
  return s;
}

// Face loops of the scatter kernels under every strategy, the other modes once.
template <class F>
void forEachModeAndStrategy(LoopKernel kernel, F&& f) {
  for (LoopMode mode : kAllLoopModes) {
    if (!hasLoopMode(kernel, mode))
      continue;
    if (mode == LoopMode::Face && kernel != LoopKernel::Interpolation &&
        kernel != LoopKernel::MinMax)
      for (atomics::Strategy s : atomics::kAllStrategies)
        f(mode, s);
    else
      f(mode, atomics::Strategy::GlobalAtomic);
  }
}

} // namespace tessera::unstructured
