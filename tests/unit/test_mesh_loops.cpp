// The host mesh loop modes (solvers/unstructured/mesh_loops.hpp): every mode of every kernel
// against the serial reference on a shuffled Mixed box mesh and its RCM renumbering (face loops
// under every scatter strategy), and against values known without the code: Green-Gauss of a
// constant field and a constant flux tensor's residual vanish in interior cells, Green-Gauss of a
// linear field is exact in the interior cells of hex and prism boxes, interpolation of a linear
// field at the interior nodes of a uniform hex box, min/max of monotone fields.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/atomics/strategy.hpp"
#include "engine/unstructured/box_mesh.hpp"
#include "engine/unstructured/mesh.hpp"
#include "solvers/unstructured/mesh_loops.hpp"
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

// Uniform cubes of 0.5 x 0.25 x 0.5 (hexahedra unless said), shuffled.
constexpr Point kHexLo{-1.0, 0.5, 2.0}, kHexHi{2.0, 1.5, 4.5};
constexpr Point kHexSpacing{0.5, 0.25, 0.5};
Mesh hexMesh(BoxCells cells = BoxCells::Hexahedra) {
  BoxMeshSpec spec;
  spec.lo = kHexLo;
  spec.hi = kHexHi;
  spec.nx = 6;
  spec.ny = 4;
  spec.nz = 5;
  spec.cells = cells;
  spec.shuffle = true;
  spec.seed = 11;
  return buildMesh(boxMesh(spec));
}

bool isInteriorCell(const Mesh& mesh, int c) {
  const auto faces = mesh.cellFaces.row(c);
  return std::all_of(faces.begin(), faces.end(),
                     [&](int f) { return mesh.neighbour[std::size_t(f)] >= 0; });
}

class MeshLoopModes : public ::testing::TestWithParam<MeshOrdering> {
protected:
  const Mesh mesh = mixedMesh(GetParam());
  const MeshLoopPlan plan{mesh, MemorySpace::Host};
  const std::vector<double> q = sample(mesh.cellCentroid, smoothField);
};

TEST_P(MeshLoopModes, InterpolationMatchesTheReference) {
  const std::vector<double> expected = interpolateToNodesReference(mesh, q);
  for (LoopMode mode : kAllLoopModes) {
    std::vector<double> qNode(expected.size(), kPoison);
    interpolateToNodesHost(plan, mode, q.data(), qNode.data());
    EXPECT_LE(relativeError(qNode, expected, kCellVars), kTolerance) << loopModeName(mode);
  }
}

TEST_P(MeshLoopModes, GradientMatchesTheReference) {
  const std::vector<double> expected = greenGaussGradientReference(mesh, q);
  forEachModeAndStrategy(LoopKernel::Gradient, [&](LoopMode mode, atomics::Strategy s) {
    std::vector<double> grad(expected.size(), kPoison);
    greenGaussGradientHost(plan, mode, s, q.data(), grad.data());
    EXPECT_LE(relativeError(grad, expected, kGradientValues), kTolerance) << label(mode, s);
  });
}

TEST_P(MeshLoopModes, FluxSumMatchesTheReference) {
  const std::vector<double> flux = sample(mesh.faceCentroid, smoothField);
  const std::vector<double> expected = sumFluxesReference(mesh, flux);
  forEachModeAndStrategy(LoopKernel::FluxSum, [&](LoopMode mode, atomics::Strategy s) {
    std::vector<double> residual(expected.size(), kPoison);
    sumFluxesHost(plan, mode, s, flux.data(), residual.data());
    EXPECT_LE(relativeError(residual, expected, kCellVars), kTolerance) << label(mode, s);
  });
}

TEST_P(MeshLoopModes, MinMaxEqualsTheReferenceExactly) {
  const std::vector<double> expected = localMinMaxReference(mesh, q);
  for (LoopMode mode : {LoopMode::Face, LoopMode::Cell}) {
    std::vector<double> minMax(expected.size(), kPoison);
    localMinMaxHost(plan, mode, q.data(), minMax.data());
    EXPECT_EQ(minMax, expected) << loopModeName(mode);
  }
}

// A constant flux tensor G (5 x 3) gives face fluxes G S_f; the faces of a closed cell have
// area vectors summing to zero, so every interior cell's residual vanishes, on any mesh.
TEST_P(MeshLoopModes, ConstantFluxTensorLeavesNoResidualInInteriorCells) {
  const auto g = [](int k, std::size_t a) { return 1.0 + k - 0.7 * double(a) * (k % 2 ? 1 : -1); };
  std::vector<double> flux;
  double scale = 0.0; // the largest flux, what the residual is a sum of
  for (const Point& s : mesh.faceArea)
    for (int k = 0; k < kCellVars; ++k) {
      flux.push_back(g(k, 0) * s[0] + g(k, 1) * s[1] + g(k, 2) * s[2]);
      scale = std::max(scale, std::abs(flux.back()));
    }
  forEachModeAndStrategy(LoopKernel::FluxSum, [&](LoopMode mode, atomics::Strategy s) {
    std::vector<double> residual(std::size_t(kCellVars) * std::size_t(mesh.numCells()), kPoison);
    sumFluxesHost(plan, mode, s, flux.data(), residual.data());
    double worst = 0.0;
    for (int c = 0; c < mesh.numCells(); ++c)
      if (isInteriorCell(mesh, c))
        for (std::size_t k = 0; k < kCellVars; ++k)
          worst = std::max(worst, std::abs(residual[kCellVars * std::size_t(c) + k]));
    EXPECT_LE(worst, kTolerance * scale) << label(mode, s);
  });
}

// A constant field has zero gradient in every interior cell of any mesh (the same closure).
TEST_P(MeshLoopModes, GradientOfAConstantVanishesInInteriorCells) {
  const std::vector<double> constant =
      sample(mesh.cellCentroid, [](const Point&, int k) { return 2.0 - k; });
  forEachModeAndStrategy(LoopKernel::Gradient, [&](LoopMode mode, atomics::Strategy s) {
    std::vector<double> grad(std::size_t(kGradientValues) * std::size_t(mesh.numCells()), kPoison);
    greenGaussGradientHost(plan, mode, s, constant.data(), grad.data());
    double worst = 0.0;
    for (int c = 0; c < mesh.numCells(); ++c) {
      if (!isInteriorCell(mesh, c))
        continue;
      double faceSum = 0.0; // sum of |S_f| / V_c: the size of the terms that cancel, per unit q
      for (int f : mesh.cellFaces.row(c))
        faceSum += std::hypot(mesh.faceArea[std::size_t(f)][0], mesh.faceArea[std::size_t(f)][1],
                              mesh.faceArea[std::size_t(f)][2]);
      faceSum /= mesh.cellVolume[std::size_t(c)];
      for (std::size_t i = 0; i < kGradientValues; ++i)
        worst = std::max(worst, std::abs(grad[kGradientValues * std::size_t(c) + i]) /
                                    (2.0 * faceSum)); // |q| <= 2
    }
    EXPECT_LE(worst, kTolerance) << label(mode, s);
  });
}

INSTANTIATE_TEST_SUITE_P(Orderings, MeshLoopModes,
                         ::testing::Values(MeshOrdering::Shuffled, MeshOrdering::Rcm),
                         [](const ::testing::TestParamInfo<MeshOrdering>& p) {
                           return std::string(p.param == MeshOrdering::Shuffled ? "Shuffled"
                                                                                : "Rcm");
                         });

// Linear fields q_k = b_k + a_k . x, a_k of every sign and some zero components.
constexpr double kSlope[kCellVars][3] = {
    {1.0, 2.0, 3.0}, {-1.0, 0.5, 0.25}, {0.0, 0.0, -2.0}, {3.0, -1.0, 1.0}, {0.1, 0.2, -0.3}};
double linearField(const Point& x, int k) {
  return 0.5 * k - 1.0 + kSlope[k][0] * x[0] + kSlope[k][1] * x[1] + kSlope[k][2] * x[2];
}

// Where every interior face's centroid is the midpoint of its two cells' centroids, as in hex and
// prism boxes, the owner-neighbour average is the value at the face centroid and Green-Gauss is
// exact for a linear field in cells without a boundary face (which takes the owner's value). Not
// so on the tetrahedra of Kuhn's split, whose centroid midpoints miss the face centroids by up to
// h / 12: there the averaged face value is only first-order accurate.
TEST(MeshLoopAnalytic, GradientOfALinearFieldIsExactInInteriorCellsOfHexAndPrismBoxes) {
  for (BoxCells cells : {BoxCells::Hexahedra, BoxCells::Prisms}) {
    const Mesh mesh = hexMesh(cells);
    const MeshLoopPlan plan(mesh, MemorySpace::Host);
    const std::vector<double> q = sample(mesh.cellCentroid, linearField);
    forEachModeAndStrategy(LoopKernel::Gradient, [&](LoopMode mode, atomics::Strategy s) {
      std::vector<double> grad(std::size_t(kGradientValues) * std::size_t(mesh.numCells()),
                               kPoison);
      greenGaussGradientHost(plan, mode, s, q.data(), grad.data());
      double worst = 0.0;
      int interior = 0;
      for (int c = 0; c < mesh.numCells(); ++c) {
        if (!isInteriorCell(mesh, c))
          continue;
        ++interior;
        for (std::size_t k = 0; k < kCellVars; ++k)
          for (std::size_t a = 0; a < 3; ++a)
            worst = std::max(
                worst, std::abs(grad[kGradientValues * std::size_t(c) + 3 * k + a] - kSlope[k][a]));
      }
      EXPECT_GE(interior, 4 * 2 * 3);
      EXPECT_LE(worst, kTolerance * 3.0) << label(mode, s); // 3: the largest slope
    });
  }
}

// An interior node of a uniform hex box is the mean of the 8 equal cells' centroids around it.
TEST(MeshLoopAnalytic, InterpolationOfALinearFieldIsExactAtInteriorNodesOfAUniformHexBox) {
  const Mesh mesh = hexMesh();
  const MeshLoopPlan plan(mesh, MemorySpace::Host);
  const std::vector<double> q = sample(mesh.cellCentroid, linearField);
  const std::vector<double> exact = sample(mesh.nodes, linearField);
  const auto inside = [](const Point& x) {
    for (std::size_t a = 0; a < 3; ++a)
      if (x[a] < kHexLo[a] + 0.5 * kHexSpacing[a] || x[a] > kHexHi[a] - 0.5 * kHexSpacing[a])
        return false;
    return true;
  };
  for (LoopMode mode : kAllLoopModes) {
    std::vector<double> qNode(exact.size(), kPoison);
    interpolateToNodesHost(plan, mode, q.data(), qNode.data());
    double worst = 0.0;
    int interior = 0;
    for (std::size_t n = 0; n < mesh.nodes.size(); ++n) {
      if (!inside(mesh.nodes[n]))
        continue;
      ++interior;
      for (std::size_t k = 0; k < kCellVars; ++k)
        worst = std::max(worst, std::abs(qNode[kCellVars * n + k] - exact[kCellVars * n + k]) /
                                    (1.0 + std::abs(exact[kCellVars * n + k])));
    }
    EXPECT_EQ(interior, 5 * 3 * 4);
    EXPECT_LE(worst, kTolerance) << loopModeName(mode);
  }
}

// A linear field is monotone along each axis: a cell's face neighbours in a hex box sit one
// spacing away along one axis each, so its extremes are its own value shifted by the largest
// |a_k,i| h_i over the directions where the box has a neighbour. Computed from the box, not the
// mesh.
TEST(MeshLoopAnalytic, MinMaxOfMonotoneFieldsAreTheNeighboursExtremes) {
  const Mesh mesh = hexMesh();
  const MeshLoopPlan plan(mesh, MemorySpace::Host);
  const std::vector<double> q = sample(mesh.cellCentroid, linearField);
  for (LoopMode mode : {LoopMode::Face, LoopMode::Cell}) {
    std::vector<double> minMax(std::size_t(kMinMaxValues) * std::size_t(mesh.numCells()), kPoison);
    localMinMaxHost(plan, mode, q.data(), minMax.data());
    double worst = 0.0;
    for (std::size_t c = 0; c < std::size_t(mesh.numCells()); ++c) {
      const Point& x = mesh.cellCentroid[c];
      for (int k = 0; k < kCellVars; ++k) {
        double lo = linearField(x, k), hi = lo;
        for (std::size_t a = 0; a < 3; ++a)
          for (double step : {-kHexSpacing[a], kHexSpacing[a]}) {
            Point y = x;
            y[a] += step;
            if (y[a] < kHexLo[a] || y[a] > kHexHi[a])
              continue;
            lo = std::min(lo, linearField(y, k));
            hi = std::max(hi, linearField(y, k));
          }
        const std::size_t at = kMinMaxValues * c + std::size_t(k);
        worst = std::max({worst, std::abs(minMax[at] - lo) / (1.0 + std::abs(lo)),
                          std::abs(minMax[at + kCellVars] - hi) / (1.0 + std::abs(hi))});
      }
    }
    EXPECT_LE(worst, kTolerance) << loopModeName(mode);
  }
}

TEST(MeshLoopAnalytic, ModesAKernelDoesNotHaveAreRefused) {
  const Mesh mesh = hexMesh();
  const MeshLoopPlan plan(mesh, MemorySpace::Host);
  std::vector<double> in(std::size_t(kCellVars) * std::size_t(mesh.numFaces())),
      out(std::size_t(kMinMaxValues) * std::size_t(mesh.numCells()));
  EXPECT_THROW(
      sumFluxesHost(plan, LoopMode::Node, atomics::Strategy::GlobalAtomic, in.data(), out.data()),
      std::invalid_argument);
  EXPECT_THROW(localMinMaxHost(plan, LoopMode::Node, in.data(), out.data()), std::invalid_argument);
}

} // namespace
} // namespace tessera::unstructured
