// The unstructured limiters (numerics/reconstruct/cell_limiters.hpp) applied by the residual's cell
// loop (solvers/unstructured/muscl_bodies.hpp, LimitGradients) to the mesh-loop gradients: on
// random data no face value leaves the range of its cell and face neighbours (Barth-Jespersen,
// and Venkatakrishnan with K = 0), or leaves it by more than Venkatakrishnan's bound
// eps / (2 sqrt 2) with K > 0; a linear field is left unlimited where the cells around a face
// reach beyond it; and the pointwise functions on their own.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "engine/unstructured/box_mesh.hpp"
#include "engine/unstructured/mesh.hpp"
#include "numerics/reconstruct/cell_limiters.hpp"
#include "solvers/unstructured/mesh_loops.hpp"
#include "solvers/unstructured/muscl_bodies.hpp"
#include "tests/support/mixed_box_mesh.hpp"

namespace tessera {
namespace {

using unstructured::HostExecution;
using unstructured::LoopMode;
using unstructured::Mesh;
using unstructured::MeshLoopPlan;

// Deterministic values in [-1, 1).
struct Random {
  std::uint64_t state;
  double operator()() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return double(state >> 11) * 0x1.0p-52 - 1.0;
  }
};

TEST(CellLimiters, KeepTheFaceValueInItsRoomOnRandomData) {
  Random random{7};
  double worstVenkatakrishnan = 0.0;
  for (int i = 0; i < 100000; ++i) {
    const double d = 2.0 * random(), up = 1.0 + random(), down = -1.0 - random();
    for (double phi : {BarthJespersen::faceLimit(d, up, down, 0.0),
                       Venkatakrishnan::faceLimit(d, up, down, 0.0)}) {
      ASSERT_GE(phi, 0.0);
      ASSERT_LE(phi, 1.0);
      ASSERT_LE(phi * d, up * (1.0 + 1e-15));
      ASSERT_GE(phi * d, down * (1.0 + 1e-15));
    }
    // With a threshold eps the smooth limiter may pass the room, by at most eps / (2 sqrt 2).
    const double eps = 0.3, phi = Venkatakrishnan::faceLimit(d, up, down, eps * eps);
    worstVenkatakrishnan = std::max({worstVenkatakrishnan, phi * d - up, down - phi * d});
  }
  EXPECT_LE(worstVenkatakrishnan, 0.3 / (2.0 * std::sqrt(2.0)));
  // Where the room is twice the increment or more (a linear field on a uniform grid), neither
  // limits; Barth-Jespersen not even at exactly the room.
  EXPECT_EQ(BarthJespersen::faceLimit(0.5, 1.0, -1.0, 0.0), 1.0);
  EXPECT_EQ(BarthJespersen::faceLimit(1.0, 1.0, -1.0, 0.0), 1.0);
  EXPECT_EQ(Venkatakrishnan::faceLimit(0.5, 1.0, -1.0, 0.0), 1.0);
  EXPECT_EQ(Venkatakrishnan::faceLimit(-0.5, 1.0, -1.0, 0.0), 1.0);
  EXPECT_LT(Venkatakrishnan::faceLimit(1.0, 1.0, -1.0, 0.0), 1.0);
}

// The residual's limiting step on a mesh: gradients of w (both methods), min/max, LimitGradients.
struct Limited {
  std::vector<double> grad, minMax;
};

template <class Limiter>
Limited limitedGradients(const MeshLoopPlan& plan, const Mesh& mesh, const std::vector<double>& w,
                         bool leastSquares, double k) {
  const std::size_t cells = std::size_t(mesh.numCells());
  Limited out{std::vector<double>(15 * cells), std::vector<double>(10 * cells)};
  std::vector<double> qNode(5 * std::size_t(mesh.numNodes())), phi(5 * cells);
  if (leastSquares) {
    unstructured::leastSquaresGradientHost(plan, LoopMode::Cell, atomics::Strategy::GlobalAtomic,
                                           w.data(), out.grad.data());
  } else {
    unstructured::interpolateToNodesHost(plan, LoopMode::Node, w.data(), qNode.data());
    unstructured::greenGaussGradientHost(plan, LoopMode::Cell, atomics::Strategy::GlobalAtomic,
                                         qNode.data(), out.grad.data());
  }
  unstructured::localMinMaxHost(plan, LoopMode::Cell, w.data(), out.minMax.data());
  HostExecution::forEach(mesh.numCells(),
                         LimitGradients<Limiter>{plan.view(), w.data(), out.minMax.data(), k,
                                                 out.grad.data(), phi.data()});
  return out;
}

// The largest amount by which a reconstructed face value w_c + grad_c.(x_f - x_c) leaves its
// cell's [min, max].
double largestExcursion(const Mesh& mesh, const std::vector<double>& w, const Limited& l) {
  double worst = 0.0;
  for (int c = 0; c < mesh.numCells(); ++c)
    for (int f : mesh.cellFaces.row(c))
      for (std::size_t k = 0; k < 5; ++k) {
        const std::size_t cc = std::size_t(c);
        double value = w[5 * cc + k];
        for (std::size_t a = 0; a < 3; ++a)
          value += l.grad[15 * cc + 3 * k + a] *
                   (mesh.faceCentroid[std::size_t(f)][a] - mesh.cellCentroid[cc][a]);
        worst = std::max({worst, value - l.minMax[10 * cc + 5 + k], l.minMax[10 * cc + k] - value});
      }
  return worst;
}

TEST(CellLimiters, CreateNoNewExtremumOnRandomDataOnAMixedMesh) {
  const Mesh mesh = test::mixedBoxMesh({});
  const MeshLoopPlan plan(mesh, MemorySpace::Host);
  Random random{3};
  std::vector<double> w(5 * std::size_t(mesh.numCells()));
  for (double& v : w)
    v = random();
  for (bool leastSquares : {false, true}) {
    const std::string method = leastSquares ? "least squares" : "Green-Gauss";
    EXPECT_LE(largestExcursion(mesh, w,
                               limitedGradients<BarthJespersen>(plan, mesh, w, leastSquares, 0.0)),
              1e-15)
        << method;
    EXPECT_LE(largestExcursion(mesh, w,
                               limitedGradients<Venkatakrishnan>(plan, mesh, w, leastSquares, 0.0)),
              1e-15)
        << method;
    // K = 1 on cells about 0.5 across: eps = (K h)^(3/2).
    double bound = 0.0;
    for (double v : mesh.cellVolume)
      bound = std::max(bound, std::pow(std::cbrt(v), 1.5) / (2.0 * std::sqrt(2.0)));
    EXPECT_LE(largestExcursion(mesh, w,
                               limitedGradients<Venkatakrishnan>(plan, mesh, w, leastSquares, 1.0)),
              bound)
        << method;
    // Random data need limiting: the unlimited gradients do leave the range.
    EXPECT_GT(largestExcursion(mesh, w,
                               limitedGradients<NoCellLimiter>(plan, mesh, w, leastSquares, 0.0)),
              0.1)
        << method;
  }
}

// A linear field's reconstruction is exact away from the boundary, and the face values are within
// the range wherever the face centroid lies within the hull of the cell's and its neighbours'
// centroids: in the inner cells of the hexahedral and prismatic boxes. There both limiters leave
// the gradient whole.
TEST(CellLimiters, LeaveALinearFieldUnlimitedInInnerCells) {
  for (auto cells : {unstructured::BoxCells::Hexahedra, unstructured::BoxCells::Prisms}) {
    unstructured::BoxMeshSpec spec;
    spec.hi = {3.0, 1.0, 2.5};
    spec.nx = 6;
    spec.ny = 4;
    spec.nz = 5;
    spec.cells = cells;
    spec.shuffle = true;
    spec.seed = 9;
    const Mesh mesh = unstructured::buildMesh(unstructured::boxMesh(spec));
    const MeshLoopPlan plan(mesh, MemorySpace::Host);
    std::vector<double> w;
    for (const auto& x : mesh.cellCentroid)
      for (int k = 0; k < 5; ++k)
        w.push_back(1.0 + k + (0.5 - k) * x[0] + 0.25 * k * x[1] - x[2]);
    for (bool leastSquares : {false, true}) {
      const Limited unlimited = limitedGradients<NoCellLimiter>(plan, mesh, w, leastSquares, 0.0);
      const Limited bj = limitedGradients<BarthJespersen>(plan, mesh, w, leastSquares, 0.0);
      const Limited venkat = limitedGradients<Venkatakrishnan>(plan, mesh, w, leastSquares, 0.0);
      int inner = 0;
      for (int c = 0; c < mesh.numCells(); ++c) {
        // Where the gradient is exact: cells without a boundary face (least squares), cells
        // without a boundary node (Green-Gauss, whose boundary nodes average).
        bool touchesBoundary = false;
        for (int f = 0; f < mesh.numFaces(); ++f) {
          if (mesh.neighbour[std::size_t(f)] >= 0)
            continue;
          if (leastSquares) {
            touchesBoundary = touchesBoundary || mesh.owner[std::size_t(f)] == c;
          } else {
            const auto cellNodes = mesh.cellNodes.row(c);
            for (int n : mesh.faceNodes.row(f))
              touchesBoundary = touchesBoundary ||
                                std::find(cellNodes.begin(), cellNodes.end(), n) != cellNodes.end();
          }
        }
        if (touchesBoundary)
          continue;
        ++inner;
        for (std::size_t i = 0; i < 15; ++i) {
          const std::size_t at = 15 * std::size_t(c) + i;
          // Barth-Jespersen's factor is 1 exactly; Venkatakrishnan's is 1 where the room is twice
          // the increment, here up to the round-off of the two.
          EXPECT_EQ(bj.grad[at], unlimited.grad[at]) << "cell " << c;
          EXPECT_NEAR(venkat.grad[at], unlimited.grad[at], 1e-12 * std::fabs(unlimited.grad[at]))
              << "cell " << c;
        }
      }
      EXPECT_GT(inner, 20);
    }
  }
}

} // namespace
} // namespace tessera
