// The device mesh loop modes (solvers/mesh_loops_device.hpp) against the host's serial references:
// every mode of every kernel, face loops that add under every scatter strategy, on a shuffled
// Mixed box mesh and its RCM renumbering; to 1e-12 of each value column's largest entry (min/max
// exactly, as min and max do not round). Skipped where no device is visible.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "engine/atomics/strategy.hpp"
#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "engine/unstructured/mesh.hpp"
#include "solvers/mesh_loops.hpp"
#include "solvers/mesh_loops_device.hpp"
#include "tests/support/mesh_loop_references.hpp"
#include "tests/support/mixed_box_mesh.hpp"

namespace tessera::unstructured {
namespace {

constexpr double kTolerance = 1e-12;
constexpr double kPoison = std::numeric_limits<double>::quiet_NaN();

using test::MeshOrdering;

Mesh mixedMesh(MeshOrdering ordering) {
  return test::mixedBoxMesh({.seed = 3, .ordering = ordering});
}

// Smooth, nonlinear, of both signs, AoS at each point.
std::vector<double> smoothField(const std::vector<Point>& points) {
  std::vector<double> out;
  for (const Point& x : points)
    for (int k = 0; k < kCellVars; ++k)
      out.push_back((k == 3 ? -2.0 : 1.0 + 0.3 * k) +
                    std::sin(1.3 * x[0] + 0.7 * k) * std::cos(0.9 * x[1]) +
                    0.5 * x[2] * x[2] * (k % 2 == 0 ? 1.0 : -1.0));
  return out;
}

// The largest error, each relative to the largest |expected| of its value column (as in
// tests/unit/test_mesh_loops.cpp).
double relativeError(const std::vector<double>& actual, const std::vector<double>& expected,
                     int width) {
  double worst = 0.0;
  for (std::size_t j = 0; j < std::size_t(width); ++j) {
    double scale = 0.0, error = 0.0;
    for (std::size_t i = j; i < expected.size(); i += std::size_t(width)) {
      scale = std::max(scale, std::abs(expected[i]));
      error = std::max(error, std::abs(actual[i] - expected[i]));
    }
    worst = std::max(worst, std::isnan(error) ? kPoison : error / scale);
  }
  return worst;
}

class MeshLoopDevice : public ::testing::TestWithParam<MeshOrdering> {
protected:
  void SetUp() override {
    if (!deviceAvailable())
      GTEST_SKIP() << "no device";
    plan.emplace(mesh, MemorySpace::Device);
  }

  // Runs `loop(plan, input, output)` on the device, output poisoned first; returns it on the host.
  template <class Loop>
  std::vector<double> onDevice(const std::vector<double>& input, std::size_t outputSize,
                               Loop loop) const {
    const DeviceArray<double> in = toDevice(input);
    DeviceArray<double> out = toDevice(std::vector<double>(outputSize, kPoison));
    loop(*plan, in.data(), out.data());
    std::vector<double> result(outputSize);
    out.copyToHost(result);
    return result;
  }

  // The face loops that add under every strategy, every other mode once.
  struct Run {
    LoopMode mode;
    atomics::Strategy strategy;
  };
  static std::vector<Run> runs(LoopKernel kernel) {
    std::vector<Run> r;
    for (LoopMode mode : kAllLoopModes) {
      if (!hasLoopMode(kernel, mode))
        continue;
      if (mode == LoopMode::Face &&
          (kernel == LoopKernel::Gradient || kernel == LoopKernel::FluxSum))
        for (atomics::Strategy s : atomics::kAllStrategies)
          r.push_back({mode, s});
      else
        r.push_back({mode, atomics::Strategy::GlobalAtomic});
    }
    return r;
  }

  static std::string label(const Run& r) {
    std::string text(loopModeName(r.mode));
    text += " loop";
    if (r.mode == LoopMode::Face) {
      text += ", ";
      text += atomics::strategyName(r.strategy);
    }
    return text;
  }

  const Mesh mesh = mixedMesh(GetParam());
  std::optional<MeshLoopPlan> plan;
  const std::vector<double> q = smoothField(mesh.cellCentroid);
};

TEST_P(MeshLoopDevice, InterpolationMatchesTheHostReference) {
  const std::vector<double> expected = interpolateToNodesReference(mesh, q);
  for (const Run& r : runs(LoopKernel::Interpolation)) {
    const auto qNode = onDevice(q, expected.size(), [&](const auto& p, auto in, auto out) {
      interpolateToNodesDevice(p, r.mode, in, out);
    });
    EXPECT_LE(relativeError(qNode, expected, kCellVars), kTolerance) << label(r);
  }
}

TEST_P(MeshLoopDevice, GradientMatchesTheHostReference) {
  const std::vector<double> expected = greenGaussGradientReference(mesh, q);
  for (const Run& r : runs(LoopKernel::Gradient)) {
    const auto grad = onDevice(q, expected.size(), [&](const auto& p, auto in, auto out) {
      greenGaussGradientDevice(p, r.mode, r.strategy, in, out);
    });
    EXPECT_LE(relativeError(grad, expected, kGradientValues), kTolerance) << label(r);
  }
}

TEST_P(MeshLoopDevice, FluxSumMatchesTheHostReference) {
  const std::vector<double> flux = smoothField(mesh.faceCentroid);
  const std::vector<double> expected = sumFluxesReference(mesh, flux);
  for (const Run& r : runs(LoopKernel::FluxSum)) {
    const auto residual = onDevice(flux, expected.size(), [&](const auto& p, auto in, auto out) {
      sumFluxesDevice(p, r.mode, r.strategy, in, out);
    });
    EXPECT_LE(relativeError(residual, expected, kCellVars), kTolerance) << label(r);
  }
}

TEST_P(MeshLoopDevice, MinMaxEqualsTheHostReferenceExactly) {
  const std::vector<double> expected = localMinMaxReference(mesh, q);
  for (const Run& r : runs(LoopKernel::MinMax)) {
    const auto minMax = onDevice(q, expected.size(), [&](const auto& p, auto in, auto out) {
      localMinMaxDevice(p, r.mode, in, out);
    });
    EXPECT_EQ(minMax, expected) << label(r);
  }
}

INSTANTIATE_TEST_SUITE_P(Orderings, MeshLoopDevice,
                         ::testing::Values(MeshOrdering::Shuffled, MeshOrdering::Rcm),
                         [](const ::testing::TestParamInfo<MeshOrdering>& p) {
                           return std::string(p.param == MeshOrdering::Shuffled ? "Shuffled"
                                                                                : "Rcm");
                         });

} // namespace
} // namespace tessera::unstructured
