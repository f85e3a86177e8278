#pragma once
// Serial references of the mesh-loop kernels (solvers/mesh_loops.hpp gives the definitions),
// straight from the Mesh and written plainly, for the loop-mode tests.
#include <algorithm>
#include <array>
#include <cstddef>
#include <set>
#include <span>
#include <vector>

#include "engine/unstructured/mesh.hpp"
#include "engine/unstructured/reconstruction_geometry.hpp"
#include "solvers/unstructured/mesh_loop_plan.hpp"

namespace tessera::unstructured {

// The weights and matrices come from engine/unstructured/reconstruction_geometry (whose exactness
// for linear fields the analytic tests check); what is plain here is how they are applied.
inline std::vector<double> interpolateToNodesReference(const Mesh& mesh,
                                                       std::span<const double> q) {
  const std::vector<double> w = nodeWeights(mesh);
  std::vector<double> qNode(std::size_t(kCellVars) * std::size_t(mesh.numNodes()), 0.0);
  for (int n = 0; n < mesh.numNodes(); ++n)
    for (int s = mesh.nodeCells.offsets[std::size_t(n)];
         s < mesh.nodeCells.offsets[std::size_t(n) + 1]; ++s)
      for (std::size_t k = 0; k < kCellVars; ++k)
        qNode[kCellVars * std::size_t(n) + k] +=
            w[std::size_t(s)] *
            q[kCellVars * std::size_t(mesh.nodeCells.indices[std::size_t(s)]) + k];
  return qNode;
}

// grad = M raw per cell and variable, M row-major 3x3 per cell.
inline void applyCellMatrices(const std::vector<double>& matrices, std::vector<double>& grad) {
  for (std::size_t c = 0; c < grad.size() / kGradientValues; ++c)
    for (std::size_t k = 0; k < kCellVars; ++k) {
      double* g = &grad[kGradientValues * c + 3 * k];
      const double raw[3] = {g[0], g[1], g[2]};
      for (std::size_t a = 0; a < 3; ++a)
        g[a] = matrices[9 * c + 3 * a] * raw[0] + matrices[9 * c + 3 * a + 1] * raw[1] +
               matrices[9 * c + 3 * a + 2] * raw[2];
    }
}

inline std::vector<double> greenGaussGradientReference(const Mesh& mesh,
                                                       std::span<const double> qNode) {
  std::vector<double> grad(std::size_t(kGradientValues) * std::size_t(mesh.numCells()), 0.0);
  for (std::size_t f = 0; f < std::size_t(mesh.numFaces()); ++f) {
    const std::size_t o = std::size_t(mesh.owner[f]);
    const int n = mesh.neighbour[f];
    const std::span<const int> nodes = mesh.faceNodes.row(int(f));
    for (std::size_t k = 0; k < kCellVars; ++k) {
      double phi = 0.0;
      for (int node : nodes)
        phi += qNode[kCellVars * std::size_t(node) + k];
      phi /= double(nodes.size());
      for (std::size_t a = 0; a < 3; ++a) {
        grad[kGradientValues * o + 3 * k + a] += phi * mesh.faceArea[f][a];
        if (n >= 0)
          grad[kGradientValues * std::size_t(n) + 3 * k + a] -= phi * mesh.faceArea[f][a];
      }
    }
  }
  applyCellMatrices(reconstructionGeometry(mesh).greenGaussMatrix, grad);
  return grad;
}

inline std::vector<double> leastSquaresGradientReference(const Mesh& mesh,
                                                         std::span<const double> q) {
  const ReconstructionGeometry g = reconstructionGeometry(mesh);
  std::vector<double> grad(std::size_t(kGradientValues) * std::size_t(mesh.numCells()), 0.0);
  for (std::size_t f = 0; f < std::size_t(mesh.numFaces()); ++f) {
    if (mesh.neighbour[f] < 0)
      continue;
    const std::size_t o = std::size_t(mesh.owner[f]), n = std::size_t(mesh.neighbour[f]);
    for (std::size_t k = 0; k < kCellVars; ++k)
      for (std::size_t a = 0; a < 3; ++a) {
        const double term =
            (q[kCellVars * n + k] - q[kCellVars * o + k]) * g.leastSquaresFace[3 * f + a];
        grad[kGradientValues * o + 3 * k + a] += term;
        grad[kGradientValues * n + 3 * k + a] += term;
      }
  }
  applyCellMatrices(g.leastSquaresMatrix, grad);
  return grad;
}

// Cell by cell over the set of cells around its nodes: neither the pair list nor the stencil's
// matrices of the code under test, only its pseudo-inverse.
inline std::vector<double> nodeLeastSquaresGradientReference(const Mesh& mesh,
                                                             std::span<const double> q) {
  std::vector<double> grad(std::size_t(kGradientValues) * std::size_t(mesh.numCells()), 0.0);
  for (int c = 0; c < mesh.numCells(); ++c) {
    std::set<int> stencil;
    for (int n : mesh.cellNodes.row(c))
      for (int other : mesh.nodeCells.row(n))
        if (other != c)
          stencil.insert(other);
    std::array<double, 9> normal{};
    double raw[kCellVars][3] = {};
    const Point& xc = mesh.cellCentroid[std::size_t(c)];
    for (int other : stencil) {
      const Point& xn = mesh.cellCentroid[std::size_t(other)];
      const double d[3] = {xn[0] - xc[0], xn[1] - xc[1], xn[2] - xc[2]};
      const double w = 1.0 / (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      for (std::size_t a = 0; a < 3; ++a)
        for (std::size_t b = 0; b < 3; ++b)
          normal[3 * a + b] += w * d[a] * d[b];
      for (std::size_t k = 0; k < kCellVars; ++k)
        for (std::size_t a = 0; a < 3; ++a)
          raw[k][a] += w * d[a] *
                       (q[kCellVars * std::size_t(other) + k] - q[kCellVars * std::size_t(c) + k]);
    }
    const std::array<double, 9> inverse = symmetricPseudoInverse(normal);
    for (std::size_t k = 0; k < kCellVars; ++k)
      for (std::size_t a = 0; a < 3; ++a)
        grad[kGradientValues * std::size_t(c) + 3 * k + a] = inverse[3 * a] * raw[k][0] +
                                                             inverse[3 * a + 1] * raw[k][1] +
                                                             inverse[3 * a + 2] * raw[k][2];
  }
  return grad;
}

inline std::vector<double> sumFluxesReference(const Mesh& mesh, std::span<const double> flux) {
  std::vector<double> residual(std::size_t(kCellVars) * std::size_t(mesh.numCells()), 0.0);
  for (std::size_t f = 0; f < std::size_t(mesh.numFaces()); ++f)
    for (std::size_t k = 0; k < kCellVars; ++k) {
      residual[kCellVars * std::size_t(mesh.owner[f]) + k] -= flux[kCellVars * f + k];
      if (mesh.neighbour[f] >= 0)
        residual[kCellVars * std::size_t(mesh.neighbour[f]) + k] += flux[kCellVars * f + k];
    }
  return residual;
}

inline std::vector<double> localMinMaxReference(const Mesh& mesh, std::span<const double> q) {
  std::vector<double> minMax(std::size_t(kMinMaxValues) * std::size_t(mesh.numCells()));
  for (std::size_t c = 0; c < std::size_t(mesh.numCells()); ++c)
    for (std::size_t k = 0; k < kCellVars; ++k)
      minMax[kMinMaxValues * c + k] = minMax[kMinMaxValues * c + kCellVars + k] =
          q[kCellVars * c + k];
  for (std::size_t f = 0; f < std::size_t(mesh.numFaces()); ++f) {
    if (mesh.neighbour[f] < 0)
      continue;
    const std::array<std::size_t, 2> cells = {std::size_t(mesh.owner[f]),
                                              std::size_t(mesh.neighbour[f])};
    for (std::size_t side = 0; side < 2; ++side)
      for (std::size_t k = 0; k < kCellVars; ++k) {
        const double other = q[kCellVars * cells[1 - side] + k];
        double& lo = minMax[kMinMaxValues * cells[side] + k];
        double& hi = minMax[kMinMaxValues * cells[side] + kCellVars + k];
        lo = std::min(lo, other);
        hi = std::max(hi, other);
      }
  }
  return minMax;
}

} // namespace tessera::unstructured
