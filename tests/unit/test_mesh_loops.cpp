// The host mesh loop modes (solvers/unstructured/mesh_loops.hpp): every mode of every kernel
// against the serial reference on a shuffled Mixed box mesh and its RCM renumbering (face loops
// under every scatter strategy), and against values known without the code: the gradients of a
// constant field and a constant flux tensor's residual vanish, both gradients and the
// interpolation of a linear field are exact away from the boundary on every cell shape and on
// warped hexahedra, min/max of monotone fields.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/atomics/strategy.hpp"
#include "engine/unstructured/box_mesh.hpp"
#include "engine/unstructured/mesh.hpp"
#include "engine/unstructured/reconstruction_geometry.hpp"
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

// Uniform cubes of 0.5 x 0.25 x 0.5 (hexahedra unless said), shuffled; their nodes moved at random
// by up to `jitter` of the spacing where asked.
constexpr Point kHexLo{-1.0, 0.5, 2.0}, kHexHi{2.0, 1.5, 4.5};
constexpr Point kHexSpacing{0.5, 0.25, 0.5};
Mesh hexMesh(BoxCells cells = BoxCells::Hexahedra, double jitter = 0.0) {
  BoxMeshSpec spec;
  spec.lo = kHexLo;
  spec.hi = kHexHi;
  spec.nx = 6;
  spec.ny = 4;
  spec.nz = 5;
  spec.cells = cells;
  spec.shuffle = true;
  spec.seed = jitter > 0.0 ? 17 : 11;
  spec.jitter = jitter;
  return buildMesh(boxMesh(spec));
}

bool isInteriorCell(const Mesh& mesh, int c) {
  const auto faces = mesh.cellFaces.row(c);
  return std::all_of(faces.begin(), faces.end(),
                     [&](int f) { return mesh.neighbour[std::size_t(f)] >= 0; });
}

// A gradient kernel into grad: Green-Gauss from node values, least squares (over the face or the
// node neighbours) from cell values.
void gradientHost(const MeshLoopPlan& plan, LoopKernel kernel, LoopMode mode, atomics::Strategy s,
                  const std::vector<double>& qNode, const std::vector<double>& qCell,
                  std::vector<double>& grad) {
  if (kernel == LoopKernel::Gradient)
    greenGaussGradientHost(plan, mode, s, qNode.data(), grad.data());
  else if (kernel == LoopKernel::LeastSquares)
    leastSquaresGradientHost(plan, mode, s, qCell.data(), grad.data());
  else
    nodeLeastSquaresGradientHost(plan, mode, s, qCell.data(), grad.data());
}

constexpr auto kGradientKernels = {LoopKernel::Gradient, LoopKernel::LeastSquares,
                                   LoopKernel::NodeLeastSquares};

class MeshLoopModes : public ::testing::TestWithParam<MeshOrdering> {
protected:
  const Mesh mesh = mixedMesh(GetParam());
  const MeshLoopPlan plan{mesh, MemorySpace::Host, GradientStencil::NodeNeighbours};
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
  const std::vector<double> qNode = interpolateToNodesReference(mesh, q);
  const std::vector<double> expected = greenGaussGradientReference(mesh, qNode);
  forEachModeAndStrategy(LoopKernel::Gradient, [&](LoopMode mode, atomics::Strategy s) {
    std::vector<double> grad(expected.size(), kPoison);
    greenGaussGradientHost(plan, mode, s, qNode.data(), grad.data());
    EXPECT_LE(relativeError(grad, expected, kGradientValues), kTolerance) << label(mode, s);
  });
}

TEST_P(MeshLoopModes, LeastSquaresMatchesTheReference) {
  const std::vector<double> expected = leastSquaresGradientReference(mesh, q);
  forEachModeAndStrategy(LoopKernel::LeastSquares, [&](LoopMode mode, atomics::Strategy s) {
    std::vector<double> grad(expected.size(), kPoison);
    leastSquaresGradientHost(plan, mode, s, q.data(), grad.data());
    EXPECT_LE(relativeError(grad, expected, kGradientValues), kTolerance) << label(mode, s);
  });
}

TEST_P(MeshLoopModes, NodeLeastSquaresMatchesTheReference) {
  const std::vector<double> expected = nodeLeastSquaresGradientReference(mesh, q);
  forEachModeAndStrategy(LoopKernel::NodeLeastSquares, [&](LoopMode mode, atomics::Strategy s) {
    std::vector<double> grad(expected.size(), kPoison);
    nodeLeastSquaresGradientHost(plan, mode, s, q.data(), grad.data());
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

// A constant field has zero gradient in every cell of any mesh: the area vectors of a closed cell
// sum to zero (Green-Gauss), and no face or pair sees a difference (least squares).
TEST_P(MeshLoopModes, GradientsOfAConstantVanish) {
  const auto constantField = [](const Point&, int k) { return 2.0 - k; };
  const std::vector<double> qNode = sample(mesh.nodes, constantField);
  const std::vector<double> qCell = sample(mesh.cellCentroid, constantField);
  for (LoopKernel kernel : kGradientKernels)
    forEachModeAndStrategy(kernel, [&](LoopMode mode, atomics::Strategy s) {
      std::vector<double> grad(std::size_t(kGradientValues) * std::size_t(mesh.numCells()),
                               kPoison);
      gradientHost(plan, kernel, mode, s, qNode, qCell, grad);
      double worst = 0.0;
      for (int c = 0; c < mesh.numCells(); ++c) {
        // |q| <= 2 over the cell's size: the size of the terms that cancel.
        const double scale = 2.0 / std::cbrt(mesh.cellVolume[std::size_t(c)]);
        for (std::size_t i = 0; i < kGradientValues; ++i)
          worst = std::max(worst, std::abs(grad[kGradientValues * std::size_t(c) + i]) / scale);
      }
      EXPECT_LE(worst, kTolerance) << loopKernelName(kernel) << ", " << label(mode, s);
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

// The box meshes of every shape, shuffled, tetrahedra and pyramids also on jittered nodes, and a
// hexahedral box whose inner nodes are moved at random by up to a fifth of the spacing, so that
// its quadrilateral faces are warped (not planar).
std::vector<std::pair<std::string, Mesh>> shapeMeshes() {
  std::vector<std::pair<std::string, Mesh>> meshes;
  for (auto [name, cells] :
       {std::pair{"hexahedra", BoxCells::Hexahedra}, std::pair{"prisms", BoxCells::Prisms},
        std::pair{"tetrahedra", BoxCells::Tetrahedra}, std::pair{"pyramids", BoxCells::Pyramids}})
    meshes.emplace_back(name, hexMesh(cells));
  for (auto [name, cells] : {std::pair{"jittered tetrahedra", BoxCells::Tetrahedra},
                             std::pair{"jittered pyramids", BoxCells::Pyramids}})
    meshes.emplace_back(name, hexMesh(cells, 0.15));
  meshes.emplace_back("mixed (pyramids)", test::mixedBoxMesh({}));
  BoxMeshSpec spec;
  spec.lo = kHexLo;
  spec.hi = kHexHi;
  spec.nx = 6;
  spec.ny = 4;
  spec.nz = 5;
  spec.shuffle = true;
  spec.seed = 5;
  MeshDescription warped = boxMesh(spec);
  std::uint64_t state = 12345;
  const auto random = [&state] { // in [-1, 1)
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return double(state >> 11) * 0x1.0p-52 - 1.0;
  };
  for (Point& x : warped.nodes) {
    bool inner = true;
    for (std::size_t a = 0; a < 3; ++a)
      inner = inner && x[a] > kHexLo[a] + 1e-9 && x[a] < kHexHi[a] - 1e-9;
    if (inner)
      for (std::size_t a = 0; a < 3; ++a)
        x[a] += 0.2 * kHexSpacing[a] * random();
  }
  meshes.emplace_back("warped hexahedra", buildMesh(warped));
  return meshes;
}

std::vector<bool> boundaryNodes(const Mesh& mesh) {
  std::vector<bool> onBoundary(std::size_t(mesh.numNodes()), false);
  for (int f = 0; f < mesh.numFaces(); ++f)
    if (mesh.neighbour[std::size_t(f)] < 0)
      for (int n : mesh.faceNodes.row(f))
        onBoundary[std::size_t(n)] = true;
  return onBoundary;
}

// The gradients are exact for linear fields by construction wherever their data determine a
// linear field: Green-Gauss in cells whose nodes are all inner nodes (a boundary node's fit sees
// cells on one side only, in a corner a single cell), face-neighbour least squares in cells
// without a boundary face, node-neighbour least squares in every cell (its neighbours' centroids
// span space even in a corner). Checked against the field's own slopes.
TEST(MeshLoopAnalytic, GradientsOfALinearFieldAreExactOnEveryShape) {
  for (const auto& shaped : shapeMeshes()) {
    const std::string& name = shaped.first; // not a structured binding: lambdas capture these
    const Mesh& mesh = shaped.second;
    const MeshLoopPlan plan(mesh, MemorySpace::Host, GradientStencil::NodeNeighbours);
    const std::vector<double> q = sample(mesh.cellCentroid, linearField);
    std::vector<double> qNode(std::size_t(kCellVars) * std::size_t(mesh.numNodes()), kPoison);
    interpolateToNodesHost(plan, LoopMode::Node, q.data(), qNode.data());
    const std::vector<bool> onBoundary = boundaryNodes(mesh);
    for (LoopKernel kernel : kGradientKernels)
      forEachModeAndStrategy(kernel, [&](LoopMode mode, atomics::Strategy s) {
        std::vector<double> grad(std::size_t(kGradientValues) * std::size_t(mesh.numCells()),
                                 kPoison);
        gradientHost(plan, kernel, mode, s, qNode, q, grad);
        double worst = 0.0;
        int checked = 0;
        for (int c = 0; c < mesh.numCells(); ++c) {
          const auto nodes = mesh.cellNodes.row(c);
          const bool inner =
              kernel == LoopKernel::Gradient
                  ? std::none_of(nodes.begin(), nodes.end(),
                                 [&](int n) { return bool(onBoundary[std::size_t(n)]); })
              : kernel == LoopKernel::LeastSquares ? isInteriorCell(mesh, c)
                                                   : true;
          if (!inner)
            continue;
          ++checked;
          for (std::size_t k = 0; k < kCellVars; ++k)
            for (std::size_t a = 0; a < 3; ++a)
              worst = std::max(worst, std::abs(grad[kGradientValues * std::size_t(c) + 3 * k + a] -
                                               kSlope[k][a]));
        }
        EXPECT_GE(checked, 4 * 2 * 3) << name;
        EXPECT_LE(worst, kTolerance * 3.0) // 3: the largest slope
            << name << ", " << loopKernelName(kernel) << ", " << label(mode, s);
      });
  }
}

// The interpolation's linear fit is exact at every node whose cells' centroids span space: the
// inner nodes, whatever the cells' shapes.
TEST(MeshLoopAnalytic, InterpolationOfALinearFieldIsExactAtInnerNodesOfEveryShape) {
  for (const auto& shaped : shapeMeshes()) {
    const std::string& name = shaped.first; // not a structured binding: lambdas capture these
    const Mesh& mesh = shaped.second;
    const MeshLoopPlan plan(mesh, MemorySpace::Host);
    const std::vector<double> q = sample(mesh.cellCentroid, linearField);
    const std::vector<double> exact = sample(mesh.nodes, linearField);
    const std::vector<bool> onBoundary = boundaryNodes(mesh);
    for (LoopMode mode : kAllLoopModes) {
      std::vector<double> qNode(exact.size(), kPoison);
      interpolateToNodesHost(plan, mode, q.data(), qNode.data());
      double worst = 0.0;
      int inner = 0;
      for (std::size_t n = 0; n < mesh.nodes.size(); ++n) {
        if (onBoundary[n])
          continue;
        ++inner;
        for (std::size_t k = 0; k < kCellVars; ++k)
          worst = std::max(worst, std::abs(qNode[kCellVars * n + k] - exact[kCellVars * n + k]) /
                                      (1.0 + std::abs(exact[kCellVars * n + k])));
      }
      EXPECT_GE(inner, 5 * 3 * 4) << name;
      EXPECT_LE(worst, kTolerance) << name << ", " << loopModeName(mode);
    }
  }
}

// The pseudo-inverse of a singular symmetric matrix (the spread of points in a plane) satisfies
// Moore and Penrose's conditions A A+ A = A and A+ A A+ = A+, and inverts a regular one.
TEST(MeshLoopAnalytic, SymmetricPseudoInverseMeetsItsDefinition) {
  using M = std::array<double, 9>;
  const auto product = [](const M& a, const M& b) {
    M c{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k)
          c[std::size_t(3 * i + j)] += a[std::size_t(3 * i + k)] * b[std::size_t(3 * k + j)];
    return c;
  };
  // u u^T + v v^T with u, v spanning a tilted plane; and a regular matrix.
  const double u[3] = {1.0, 2.0, -0.5}, v[3] = {0.3, -1.0, 2.0};
  M planar{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      planar[std::size_t(3 * i + j)] = u[i] * u[j] + v[i] * v[j];
  const M regular{4.0, 1.0, -0.5, 1.0, 3.0, 0.25, -0.5, 0.25, 2.0};
  for (const M& a : {planar, regular}) {
    const M p = symmetricPseudoInverse(a);
    const M apa = product(product(a, p), a), pap = product(product(p, a), p);
    for (std::size_t i = 0; i < 9; ++i) {
      EXPECT_NEAR(apa[i], a[i], 1e-12 * 6.0);
      EXPECT_NEAR(pap[i], p[i], 1e-12 * 6.0);
    }
  }
  const M identity = product(regular, symmetricPseudoInverse(regular));
  for (std::size_t i = 0; i < 9; ++i)
    EXPECT_NEAR(identity[i], i % 4 == 0 ? 1.0 : 0.0, 1e-14);
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
