#pragma once
// Serial references of seed 003's four kernels (solvers/mesh_loops.hpp gives the definitions),
// straight from the Mesh and written plainly, for the loop-mode tests.
#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "engine/unstructured/mesh.hpp"
#include "solvers/unstructured/mesh_loop_plan.hpp"

namespace tessera::unstructured {

inline std::vector<double> interpolateToNodesReference(const Mesh& mesh,
                                                       std::span<const double> q) {
  std::vector<double> sum(std::size_t(kCellVars) * std::size_t(mesh.numNodes()), 0.0);
  std::vector<double> weight(std::size_t(mesh.numNodes()), 0.0);
  for (int c = 0; c < mesh.numCells(); ++c)
    for (int n : mesh.cellNodes.row(c)) {
      const double w = 1.0 / mesh.cellVolume[std::size_t(c)];
      weight[std::size_t(n)] += w;
      for (std::size_t k = 0; k < kCellVars; ++k)
        sum[kCellVars * std::size_t(n) + k] += w * q[kCellVars * std::size_t(c) + k];
    }
  for (std::size_t i = 0; i < sum.size(); ++i)
    sum[i] /= weight[i / kCellVars];
  return sum;
}

inline std::vector<double> greenGaussGradientReference(const Mesh& mesh,
                                                       std::span<const double> q) {
  std::vector<double> grad(std::size_t(kGradientValues) * std::size_t(mesh.numCells()), 0.0);
  for (std::size_t f = 0; f < std::size_t(mesh.numFaces()); ++f) {
    const std::size_t o = std::size_t(mesh.owner[f]);
    const int n = mesh.neighbour[f];
    for (std::size_t k = 0; k < kCellVars; ++k) {
      const double qo = q[kCellVars * o + k];
      const double phi = n < 0 ? qo : (qo + q[kCellVars * std::size_t(n) + k]) / 2.0;
      for (std::size_t a = 0; a < 3; ++a) {
        grad[kGradientValues * o + 3 * k + a] += phi * mesh.faceArea[f][a];
        if (n >= 0)
          grad[kGradientValues * std::size_t(n) + 3 * k + a] -= phi * mesh.faceArea[f][a];
      }
    }
  }
  for (std::size_t i = 0; i < grad.size(); ++i)
    grad[i] /= mesh.cellVolume[i / kGradientValues];
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
