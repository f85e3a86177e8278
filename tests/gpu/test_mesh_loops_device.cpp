// The device mesh loop modes (solvers/unstructured/mesh_loops_device.hpp) against the host's serial
// references: every mode of every kernel, face loops that add under every scatter strategy, on a
// shuffled Mixed box mesh and its RCM renumbering; to 1e-12 of each value column's largest entry
// (min/max exactly, as min and max do not round). Skipped where no device is visible.
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
#include "solvers/unstructured/mesh_loops.hpp"
#include "solvers/unstructured/mesh_loops_device.hpp"
#include "tests/support/mesh_loop_checks.hpp"
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

class MeshLoopDevice : public ::testing::TestWithParam<MeshOrdering> {
protected:
  void SetUp() override {
    if (!deviceAvailable())
      GTEST_SKIP() << "no device";
    plan.emplace(mesh, MemorySpace::Device, GradientStencil::NodeNeighbours);
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

  const Mesh mesh = mixedMesh(GetParam());
  std::optional<MeshLoopPlan> plan;
  const std::vector<double> q = sample(mesh.cellCentroid, smoothField);
};

TEST_P(MeshLoopDevice, InterpolationMatchesTheHostReference) {
  const std::vector<double> expected = interpolateToNodesReference(mesh, q);
  forEachModeAndStrategy(LoopKernel::Interpolation, [&](LoopMode mode, atomics::Strategy strategy) {
    const auto qNode = onDevice(q, expected.size(), [&](const auto& p, auto in, auto out) {
      interpolateToNodesDevice(p, mode, in, out);
    });
    EXPECT_LE(relativeError(qNode, expected, kCellVars), kTolerance) << label(mode, strategy);
  });
}

TEST_P(MeshLoopDevice, GradientMatchesTheHostReference) {
  const std::vector<double> qNode = interpolateToNodesReference(mesh, q);
  const std::vector<double> expected = greenGaussGradientReference(mesh, qNode);
  forEachModeAndStrategy(LoopKernel::Gradient, [&](LoopMode mode, atomics::Strategy strategy) {
    const auto grad = onDevice(qNode, expected.size(), [&](const auto& p, auto in, auto out) {
      greenGaussGradientDevice(p, mode, strategy, in, out);
    });
    EXPECT_LE(relativeError(grad, expected, kGradientValues), kTolerance) << label(mode, strategy);
  });
}

TEST_P(MeshLoopDevice, LeastSquaresMatchesTheHostReference) {
  const std::vector<double> expected = leastSquaresGradientReference(mesh, q);
  forEachModeAndStrategy(LoopKernel::LeastSquares, [&](LoopMode mode, atomics::Strategy strategy) {
    const auto grad = onDevice(q, expected.size(), [&](const auto& p, auto in, auto out) {
      leastSquaresGradientDevice(p, mode, strategy, in, out);
    });
    EXPECT_LE(relativeError(grad, expected, kGradientValues), kTolerance) << label(mode, strategy);
  });
}

TEST_P(MeshLoopDevice, NodeLeastSquaresMatchesTheHostReference) {
  const std::vector<double> expected = nodeLeastSquaresGradientReference(mesh, q);
  forEachModeAndStrategy(LoopKernel::NodeLeastSquares, [&](LoopMode mode,
                                                           atomics::Strategy strategy) {
    const auto grad = onDevice(q, expected.size(), [&](const auto& p, auto in, auto out) {
      nodeLeastSquaresGradientDevice(p, mode, strategy, in, out);
    });
    EXPECT_LE(relativeError(grad, expected, kGradientValues), kTolerance) << label(mode, strategy);
  });
}

TEST_P(MeshLoopDevice, FluxSumMatchesTheHostReference) {
  const std::vector<double> flux = sample(mesh.faceCentroid, smoothField);
  const std::vector<double> expected = sumFluxesReference(mesh, flux);
  forEachModeAndStrategy(LoopKernel::FluxSum, [&](LoopMode mode, atomics::Strategy strategy) {
    const auto residual = onDevice(flux, expected.size(), [&](const auto& p, auto in, auto out) {
      sumFluxesDevice(p, mode, strategy, in, out);
    });
    EXPECT_LE(relativeError(residual, expected, kCellVars), kTolerance) << label(mode, strategy);
  });
}

TEST_P(MeshLoopDevice, MinMaxEqualsTheHostReferenceExactly) {
  const std::vector<double> expected = localMinMaxReference(mesh, q);
  forEachModeAndStrategy(LoopKernel::MinMax, [&](LoopMode mode, atomics::Strategy strategy) {
    const auto minMax = onDevice(q, expected.size(), [&](const auto& p, auto in, auto out) {
      localMinMaxDevice(p, mode, in, out);
    });
    EXPECT_EQ(minMax, expected) << label(mode, strategy);
  });
}

INSTANTIATE_TEST_SUITE_P(Orderings, MeshLoopDevice,
                         ::testing::Values(MeshOrdering::Shuffled, MeshOrdering::Rcm),
                         [](const ::testing::TestParamInfo<MeshOrdering>& p) {
                           return std::string(p.param == MeshOrdering::Shuffled ? "Shuffled"
                                                                                : "Rcm");
                         });

} // namespace
} // namespace tessera::unstructured
