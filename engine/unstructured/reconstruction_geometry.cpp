#include "engine/unstructured/reconstruction_geometry.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace tessera::unstructured {
namespace {

using Matrix = std::array<double, 9>;

Point minus(const Point& a, const Point& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}

Point times(const Matrix& m, const Point& v) {
  return {m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
          m[6] * v[0] + m[7] * v[1] + m[8] * v[2]};
}

void addOuter(Matrix& m, double w, const Point& a, const Point& b) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      m[std::size_t(3 * i + j)] += w * a[std::size_t(i)] * b[std::size_t(j)];
}

Matrix inverse(const Matrix& m, int cell) {
  const Matrix cof{m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                   m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                   m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]};
  const double det = m[0] * cof[0] + m[1] * cof[3] + m[2] * cof[6];
  if (!(std::fabs(det) > 0.0) || !std::isfinite(det))
    throw std::invalid_argument("cell " + std::to_string(cell) +
                                ": its faces enclose no volume (singular Green-Gauss matrix)");
  Matrix inv;
  for (std::size_t i = 0; i < 9; ++i)
    inv[i] = cof[i] / det;
  return inv;
}

// The mean of a face's nodes.
Point nodeMean(const Mesh& mesh, int face) {
  Point mean{0.0, 0.0, 0.0};
  const std::span<const int> nodes = mesh.faceNodes.row(face);
  for (int n : nodes)
    for (std::size_t a = 0; a < 3; ++a)
      mean[a] += mesh.nodes[std::size_t(n)][a];
  for (double& x : mean)
    x /= double(nodes.size());
  return mean;
}

} // namespace

Matrix symmetricPseudoInverse(const Matrix& a) {
  // Cyclic Jacobi: a = V diag(d) V^T.
  Matrix d = a, v{1, 0, 0, 0, 1, 0, 0, 0, 1};
  const auto at = [](Matrix& m, int i, int j) -> double& { return m[std::size_t(3 * i + j)]; };
  for (int sweep = 0; sweep < 50; ++sweep) {
    const double off = std::fabs(at(d, 0, 1)) + std::fabs(at(d, 0, 2)) + std::fabs(at(d, 1, 2));
    const double diag = std::fabs(at(d, 0, 0)) + std::fabs(at(d, 1, 1)) + std::fabs(at(d, 2, 2));
    if (off <= 1e-18 * diag || off == 0.0)
      break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        if (at(d, p, q) == 0.0)
          continue;
        const double theta = (at(d, q, q) - at(d, p, p)) / (2.0 * at(d, p, q));
        const double t =
            (theta >= 0.0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < 3; ++k) { // columns p, q of d
          const double dkp = at(d, k, p), dkq = at(d, k, q);
          at(d, k, p) = c * dkp - s * dkq;
          at(d, k, q) = s * dkp + c * dkq;
        }
        for (int k = 0; k < 3; ++k) { // rows p, q
          const double dpk = at(d, p, k), dqk = at(d, q, k);
          at(d, p, k) = c * dpk - s * dqk;
          at(d, q, k) = s * dpk + c * dqk;
        }
        for (int k = 0; k < 3; ++k) {
          const double vkp = at(v, k, p), vkq = at(v, k, q);
          at(v, k, p) = c * vkp - s * vkq;
          at(v, k, q) = s * vkp + c * vkq;
        }
      }
  }
  const double largest =
      std::max({std::fabs(at(d, 0, 0)), std::fabs(at(d, 1, 1)), std::fabs(at(d, 2, 2))});
  Matrix inv{};
  for (int k = 0; k < 3; ++k) {
    const double lambda = at(d, k, k);
    if (!(std::fabs(lambda) > 1e-10 * largest))
      continue;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        at(inv, i, j) += at(v, i, k) * at(v, j, k) / lambda;
  }
  return inv;
}

std::vector<double> nodeWeights(const Mesh& mesh) {
  std::vector<double> weight(mesh.nodeCells.indices.size());
  std::vector<bool> onBoundary(std::size_t(mesh.numNodes()), false);
  for (int f = 0; f < mesh.numFaces(); ++f)
    if (mesh.neighbour[std::size_t(f)] < 0)
      for (int n : mesh.faceNodes.row(f))
        onBoundary[std::size_t(n)] = true;
  for (int n = 0; n < mesh.numNodes(); ++n) {
    const std::span<const int> cells = mesh.nodeCells.row(n);
    if (cells.empty())
      continue;
    const std::size_t first = std::size_t(mesh.nodeCells.offsets[std::size_t(n)]);
    Point mean{0.0, 0.0, 0.0};
    for (int c : cells)
      for (std::size_t a = 0; a < 3; ++a)
        mean[a] += mesh.cellCentroid[std::size_t(c)][a] / double(cells.size());
    Matrix spread{};
    for (int c : cells) {
      const Point d = minus(mesh.cellCentroid[std::size_t(c)], mean);
      addOuter(spread, 1.0, d, d);
    }
    // phi_node = mean(phi) + g.(x_node - mean), g = spread^+ sum_c d_c phi_c.
    const Point toNode =
        times(symmetricPseudoInverse(spread), minus(mesh.nodes[std::size_t(n)], mean));
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const Point d = minus(mesh.cellCentroid[std::size_t(cells[i])], mean);
      weight[first + i] =
          1.0 / double(cells.size()) + d[0] * toNode[0] + d[1] * toNode[1] + d[2] * toNode[2];
    }
    const bool extrapolates = std::any_of(weight.begin() + std::ptrdiff_t(first),
                                          weight.begin() + std::ptrdiff_t(first + cells.size()),
                                          [](double w) { return w < 0.0; });
    if (onBoundary[std::size_t(n)] && extrapolates) { // inverse-distance weights
      double sum = 0.0;
      for (std::size_t i = 0; i < cells.size(); ++i) {
        const Point d = minus(mesh.cellCentroid[std::size_t(cells[i])], mesh.nodes[std::size_t(n)]);
        weight[first + i] = 1.0 / std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        sum += weight[first + i];
      }
      for (std::size_t i = 0; i < cells.size(); ++i)
        weight[first + i] /= sum;
      continue;
    }
  }
  return weight;
}

ReconstructionGeometry reconstructionGeometry(const Mesh& mesh) {
  const std::size_t cells = std::size_t(mesh.numCells()), faces = std::size_t(mesh.numFaces());
  ReconstructionGeometry g;
  g.greenGaussMatrix.resize(9 * cells);
  g.leastSquaresMatrix.resize(9 * cells);
  g.leastSquaresFace.assign(3 * faces, 0.0);
  g.faceOffset.assign(6 * faces, 0.0);
  g.cellSize.resize(cells);

  std::vector<Matrix> greenGauss(cells, Matrix{}), leastSquares(cells, Matrix{});
  for (std::size_t f = 0; f < faces; ++f) {
    const int owner = mesh.owner[f], neighbour = mesh.neighbour[f];
    const Point& area = mesh.faceArea[f];
    const Point mean = nodeMean(mesh, int(f));
    const Point& xo = mesh.cellCentroid[std::size_t(owner)];
    addOuter(greenGauss[std::size_t(owner)], 1.0, area, minus(mean, xo));
    const Point toFaceO = minus(mesh.faceCentroid[f], xo);
    std::copy(toFaceO.begin(), toFaceO.end(), g.faceOffset.begin() + std::ptrdiff_t(6 * f));
    if (neighbour < 0)
      continue;
    const Point& xn = mesh.cellCentroid[std::size_t(neighbour)];
    addOuter(greenGauss[std::size_t(neighbour)], -1.0, area, minus(mean, xn));
    const Point toFaceN = minus(mesh.faceCentroid[f], xn);
    std::copy(toFaceN.begin(), toFaceN.end(), g.faceOffset.begin() + std::ptrdiff_t(6 * f + 3));
    const Point d = minus(xn, xo);
    const double w = 1.0 / (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    addOuter(leastSquares[std::size_t(owner)], w, d, d);
    addOuter(leastSquares[std::size_t(neighbour)], w, d, d);
    for (std::size_t a = 0; a < 3; ++a)
      g.leastSquaresFace[3 * f + a] = w * d[a];
  }
  for (std::size_t c = 0; c < cells; ++c) {
    const Matrix gg = inverse(greenGauss[c], int(c));
    const Matrix ls = symmetricPseudoInverse(leastSquares[c]);
    std::copy(gg.begin(), gg.end(), g.greenGaussMatrix.begin() + std::ptrdiff_t(9 * c));
    std::copy(ls.begin(), ls.end(), g.leastSquaresMatrix.begin() + std::ptrdiff_t(9 * c));
    g.cellSize[c] = std::cbrt(mesh.cellVolume[c]);
  }
  return g;
}

std::vector<double> nodeLeastSquaresMatrices(const Mesh& mesh, const CellPairs& pairs) {
  std::vector<Matrix> sums(std::size_t(mesh.numCells()), Matrix{});
  for (int p = 0; p < pairs.numPairs(); ++p) {
    const std::size_t a = std::size_t(pairs.first[std::size_t(p)]);
    const std::size_t b = std::size_t(pairs.second[std::size_t(p)]);
    const Point d = minus(mesh.cellCentroid[b], mesh.cellCentroid[a]);
    const double w = 1.0 / (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    addOuter(sums[a], w, d, d);
    addOuter(sums[b], w, d, d);
  }
  std::vector<double> matrices(9 * sums.size());
  for (std::size_t c = 0; c < sums.size(); ++c) {
    const Matrix inverse = symmetricPseudoInverse(sums[c]);
    std::copy(inverse.begin(), inverse.end(), matrices.begin() + std::ptrdiff_t(9 * c));
  }
  return matrices;
}

} // namespace tessera::unstructured
