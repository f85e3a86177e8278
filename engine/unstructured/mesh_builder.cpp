#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/unstructured/mesh.hpp"

namespace tessera::unstructured {
namespace {

struct LocalFace {
  int size;
  std::array<int, 4> nodes;
};

constexpr std::array<LocalFace, 4> kTetFaces{
    {{3, {0, 2, 1, 0}}, {3, {0, 1, 3, 0}}, {3, {1, 2, 3, 0}}, {3, {0, 3, 2, 0}}}};
constexpr std::array<LocalFace, 5> kPyramidFaces{{{4, {0, 3, 2, 1}},
                                                  {3, {0, 1, 4, 0}},
                                                  {3, {1, 2, 4, 0}},
                                                  {3, {2, 3, 4, 0}},
                                                  {3, {3, 0, 4, 0}}}};
constexpr std::array<LocalFace, 5> kPrismFaces{{{3, {0, 2, 1, 0}},
                                                {3, {3, 4, 5, 0}},
                                                {4, {0, 1, 4, 3}},
                                                {4, {1, 2, 5, 4}},
                                                {4, {2, 0, 3, 5}}}};
constexpr std::array<LocalFace, 6> kHexFaces{{{4, {0, 3, 2, 1}},
                                              {4, {4, 5, 6, 7}},
                                              {4, {0, 1, 5, 4}},
                                              {4, {1, 2, 6, 5}},
                                              {4, {2, 3, 7, 6}},
                                              {4, {3, 0, 4, 7}}}};

std::span<const LocalFace> faceTable(CellShape s) {
  switch (s) {
  case CellShape::Tetrahedron:
    return kTetFaces;
  case CellShape::Pyramid:
    return kPyramidFaces;
  case CellShape::Prism:
    return kPrismFaces;
  default:
    return kHexFaces;
  }
}

Point operator-(const Point& a, const Point& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Point operator+(const Point& a, const Point& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
Point operator*(double s, const Point& a) {
  return {s * a[0], s * a[1], s * a[2]};
}
double dot(const Point& a, const Point& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
Point cross(const Point& a, const Point& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

struct FaceGeometry {
  Point centroid, area;
};

FaceGeometry faceGeometry(std::span<const Point> p) {
  if (p.size() == 3)
    return {(1.0 / 3.0) * (p[0] + p[1] + p[2]), 0.5 * cross(p[1] - p[0], p[2] - p[0])};
  const Point area = 0.5 * cross(p[2] - p[0], p[3] - p[1]);
  const Point mid = 0.25 * (p[0] + p[1] + p[2] + p[3]);
  const double norm = std::sqrt(dot(area, area));
  if (norm == 0.0)
    return {mid, area};
  const Point unit = (1.0 / norm) * area;
  Point weighted{0.0, 0.0, 0.0};
  double total = 0.0;
  for (std::size_t i = 0; i < 4; ++i) {
    const Point& a = p[i];
    const Point& b = p[(i + 1) % 4];
    // Projected on the face normal so that a triangle folded back over a warped quad counts
    // negatively, as it does in the area vector.
    const double w = 0.5 * dot(cross(a - mid, b - mid), unit);
    weighted = weighted + (w / 3.0) * (mid + a + b);
    total += w;
  }
  return {(1.0 / total) * weighted, area};
}

using FaceKey = std::array<int, 4>;

// Triangles are padded with kNoNode, so every key sorts four entries and no quad matches one.
constexpr int kNoNode = std::numeric_limits<int>::max();

FaceKey sortedKey(std::span<const int> nodes) {
  FaceKey key{kNoNode, kNoNode, kNoNode, kNoNode};
  std::copy(nodes.begin(), nodes.end(), key.begin());
  std::sort(key.begin(), key.end());
  return key;
}

std::string nodeList(std::span<const int> nodes) {
  std::string s = "(";
  for (int n : nodes) {
    if (n == kNoNode)
      continue;
    if (s.size() > 1)
      s += ' ';
    s += std::to_string(n);
  }
  return s + ")";
}

// The mean of a cell's nodes: the apex of the pyramids on its faces that give its volume.
Point nodeAverage(const MeshDescription& d, int cell) {
  const auto nodes = d.cellNodes.row(cell);
  Point sum{0.0, 0.0, 0.0};
  for (int n : nodes)
    sum = sum + d.nodes[std::size_t(n)];
  return (1.0 / double(nodes.size())) * sum;
}

// Signed volume of a cell from its template faces, for the orientation check.
double templateVolume(const MeshDescription& d, int cell) {
  const auto nodes = d.cellNodes.row(cell);
  const Point ref = nodeAverage(d, cell);
  double volume = 0.0;
  for (const LocalFace& f : faceTable(d.cellShapes[std::size_t(cell)])) {
    std::array<Point, 4> p;
    for (int i = 0; i < f.size; ++i)
      p[std::size_t(i)] = d.nodes[std::size_t(nodes[std::size_t(f.nodes[std::size_t(i)])])];
    const FaceGeometry g = faceGeometry({p.data(), std::size_t(f.size)});
    volume += dot(g.centroid - ref, g.area) / 3.0;
  }
  return volume;
}

void validate(const MeshDescription& d) {
  const int numNodes = int(d.nodes.size());
  if (d.cellNodes.rows() != int(d.cellShapes.size()))
    throw std::invalid_argument("buildMesh: " + std::to_string(d.cellShapes.size()) +
                                " cell shapes but " + std::to_string(d.cellNodes.rows()) +
                                " cell node rows");
  for (int c = 0; c < d.cellNodes.rows(); ++c) {
    const auto nodes = d.cellNodes.row(c);
    if (int(nodes.size()) != nodeCount(d.cellShapes[std::size_t(c)]))
      throw std::invalid_argument("buildMesh: cell " + std::to_string(c) + " has " +
                                  std::to_string(nodes.size()) + " nodes, its shape needs " +
                                  std::to_string(nodeCount(d.cellShapes[std::size_t(c)])));
    for (int n : nodes)
      if (n < 0 || n >= numNodes)
        throw std::invalid_argument("buildMesh: cell " + std::to_string(c) + " has node " +
                                    std::to_string(n) + ", out of range [0, " +
                                    std::to_string(numNodes) + ")");
  }
  if (d.boundaryFaceNodes.rows() != int(d.boundaryTags.size()))
    throw std::invalid_argument("buildMesh: " + std::to_string(d.boundaryFaceNodes.rows()) +
                                " boundary faces but " + std::to_string(d.boundaryTags.size()) +
                                " boundary tags");
  for (int b = 0; b < d.boundaryFaceNodes.rows(); ++b) {
    const auto nodes = d.boundaryFaceNodes.row(b);
    if (nodes.size() != 3 && nodes.size() != 4)
      throw std::invalid_argument("buildMesh: boundary face " + std::to_string(b) + " has " +
                                  std::to_string(nodes.size()) + " nodes (3 or 4 expected)");
    for (int n : nodes)
      if (n < 0 || n >= numNodes)
        throw std::invalid_argument("buildMesh: boundary face " + std::to_string(b) + " has node " +
                                    std::to_string(n) + ", out of range");
  }
}

// Checks the cells after the indices (validate): degenerate cells have no usable geometry.
void validateGeometry(const MeshDescription& d) {
  if (const auto defect = firstDegenerateCell(d))
    throw std::invalid_argument("buildMesh: " + defect->reason);
}

struct CellFace {
  FaceKey key;
  int cell, local;
};

} // namespace

std::optional<CellDefect> firstDegenerateCell(const MeshDescription& d) {
  for (int c = 0; c < d.cellNodes.rows(); ++c) {
    const auto nodes = d.cellNodes.row(c);
    Point lower = d.nodes[std::size_t(nodes[0])], upper = lower;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const Point& p = d.nodes[std::size_t(nodes[i])];
      for (int a = 0; a < 3; ++a) {
        lower[std::size_t(a)] = std::min(lower[std::size_t(a)], p[std::size_t(a)]);
        upper[std::size_t(a)] = std::max(upper[std::size_t(a)], p[std::size_t(a)]);
      }
      for (std::size_t j = 0; j < i; ++j)
        if (p == d.nodes[std::size_t(nodes[j])])
          return CellDefect{c, "cell " + std::to_string(c) + ": its nodes " +
                                   std::to_string(nodes[j]) + " and " + std::to_string(nodes[i]) +
                                   " are at the same point"};
    }
    double side = 0.0;
    for (int a = 0; a < 3; ++a)
      side = std::max(side, upper[std::size_t(a)] - lower[std::size_t(a)]);
    if (std::fabs(templateVolume(d, c)) <= 1e-12 * side * side * side)
      return CellDefect{c, "cell " + std::to_string(c) +
                               " has no volume (its nodes lie in a plane "
                               "or on a line)"};
  }
  return std::nullopt;
}

int faceCount(CellShape s) {
  return int(faceTable(s).size());
}

std::span<const int> localFaceNodes(CellShape s, int face) {
  const LocalFace& f = faceTable(s)[std::size_t(face)];
  return {f.nodes.data(), std::size_t(f.size)};
}

Mesh buildMesh(const MeshDescription& d) {
  validate(d);
  validateGeometry(d);
  const int numCells = int(d.cellShapes.size());
  std::vector<char> mirrored(static_cast<std::size_t>(numCells));
  for (int c = 0; c < numCells; ++c)
    mirrored[std::size_t(c)] = templateVolume(d, c) < 0.0;

  std::vector<CellFace> all;
  std::vector<int> cellFaceOffset(std::size_t(numCells) + 1, 0);
  for (int c = 0; c < numCells; ++c) {
    const CellShape s = d.cellShapes[std::size_t(c)];
    const auto nodes = d.cellNodes.row(c);
    for (int f = 0; f < faceCount(s); ++f) {
      std::array<int, 4> global{};
      const auto local = localFaceNodes(s, f);
      for (std::size_t i = 0; i < local.size(); ++i)
        global[i] = nodes[std::size_t(local[i])];
      all.push_back({sortedKey({global.data(), local.size()}), c, f});
    }
    cellFaceOffset[std::size_t(c) + 1] = int(all.size());
  }
  // Cell faces of one cell are consecutive in `all`; remember where each lands before sorting.
  std::vector<int> order(all.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const CellFace& x = all[std::size_t(a)];
    const CellFace& y = all[std::size_t(b)];
    return x.key != y.key ? x.key < y.key : a < b;
  });

  // Faces in key order first, with the key kept for matching the boundary faces.
  std::vector<FaceKey> keys;
  std::vector<int> owner, neighbour;
  std::vector<int> faceOfCellFace(all.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i + 1;
    while (j < order.size() && all[std::size_t(order[j])].key == all[std::size_t(order[i])].key)
      ++j;
    const CellFace& first = all[std::size_t(order[i])];
    if (j - i > 2) {
      std::string cells;
      for (std::size_t k = i; k < j; ++k) {
        cells += ' ';
        cells += std::to_string(all[std::size_t(order[k])].cell);
      }
      throw std::invalid_argument("buildMesh: face " + nodeList(first.key) + " of cell " +
                                  std::to_string(first.cell) + " is shared by " +
                                  std::to_string(j - i) + " cells:" + cells);
    }
    if (j - i == 2 && all[std::size_t(order[i + 1])].cell == first.cell)
      throw std::invalid_argument("buildMesh: cell " + std::to_string(first.cell) +
                                  " has the face " + nodeList(first.key) + " twice");
    const int face = int(keys.size());
    keys.push_back(first.key);
    owner.push_back(first.cell);
    neighbour.push_back(j - i == 2 ? all[std::size_t(order[i + 1])].cell : -1);
    for (std::size_t k = i; k < j; ++k)
      faceOfCellFace[std::size_t(order[k])] = face;
    i = j;
  }
  const int numFaces = int(keys.size());

  std::vector<int> tag(std::size_t(numFaces), -1);
  for (int b = 0; b < d.boundaryFaceNodes.rows(); ++b) {
    const FaceKey key = sortedKey(d.boundaryFaceNodes.row(b));
    const auto it = std::lower_bound(keys.begin(), keys.end(), key);
    const std::string name = "buildMesh: boundary face " + std::to_string(b) + " " +
                             nodeList(d.boundaryFaceNodes.row(b));
    if (it == keys.end() || *it != key)
      throw std::invalid_argument(name + " is no cell's face");
    const auto f = std::size_t(it - keys.begin());
    if (neighbour[f] >= 0)
      throw std::invalid_argument(name + " is the interior face between cells " +
                                  std::to_string(owner[f]) + " and " +
                                  std::to_string(neighbour[f]));
    if (tag[f] != -1)
      throw std::invalid_argument(name + " repeats a tagged face of cell " +
                                  std::to_string(owner[f]));
    tag[f] = d.boundaryTags[std::size_t(b)];
  }

  // Final order: by owner, then interior faces by neighbour, then the boundary faces.
  std::vector<int> sorted(static_cast<std::size_t>(numFaces));
  std::iota(sorted.begin(), sorted.end(), 0);
  const auto rank = [&](int f) {
    const int n = neighbour[std::size_t(f)];
    return std::array<int, 3>{owner[std::size_t(f)], n < 0 ? numCells : n, f};
  };
  std::sort(sorted.begin(), sorted.end(), [&](int a, int b) { return rank(a) < rank(b); });
  std::vector<int> newIndex(static_cast<std::size_t>(numFaces));
  for (int f = 0; f < numFaces; ++f)
    newIndex[std::size_t(sorted[std::size_t(f)])] = f;

  Mesh m;
  m.nodes = d.nodes;
  m.cellShapes = d.cellShapes;
  m.cellNodes = d.cellNodes;
  m.tagNames = d.tagNames;
  m.owner.resize(std::size_t(numFaces));
  m.neighbour.resize(std::size_t(numFaces));
  m.faceTag.resize(std::size_t(numFaces));
  std::vector<int> ownerCellFace(std::size_t(numFaces), -1);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const int f = faceOfCellFace[i];
    if (all[i].cell == owner[std::size_t(f)] && ownerCellFace[std::size_t(f)] < 0)
      ownerCellFace[std::size_t(f)] = int(i);
  }
  for (int f = 0; f < numFaces; ++f) {
    const int old = sorted[std::size_t(f)];
    m.owner[std::size_t(f)] = owner[std::size_t(old)];
    m.neighbour[std::size_t(f)] = neighbour[std::size_t(old)];
    m.faceTag[std::size_t(f)] = tag[std::size_t(old)];
    const CellFace& cf = all[std::size_t(ownerCellFace[std::size_t(old)])];
    const auto cellNodes = d.cellNodes.row(cf.cell);
    const auto local = localFaceNodes(d.cellShapes[std::size_t(cf.cell)], cf.local);
    std::array<int, 4> nodes{};
    for (std::size_t i = 0; i < local.size(); ++i)
      nodes[i] = cellNodes[std::size_t(local[i])];
    // Reversing all but the first node flips the normal of a mirrored cell's face.
    if (mirrored[std::size_t(cf.cell)])
      std::reverse(nodes.begin() + 1, nodes.begin() + std::ptrdiff_t(local.size()));
    m.faceNodes.appendRow({nodes.data(), local.size()});
  }

  m.cellFaces.offsets = cellFaceOffset;
  m.cellFaces.indices.resize(all.size());
  for (std::size_t i = 0; i < all.size(); ++i)
    m.cellFaces.indices[i] = newIndex[std::size_t(faceOfCellFace[i])];

  m.nodeCells = transposed(d.cellNodes, int(d.nodes.size())); // cells of a row in increasing order

  m.faceCentroid.resize(std::size_t(numFaces));
  m.faceArea.resize(std::size_t(numFaces));
  for (int f = 0; f < numFaces; ++f) {
    const auto nodes = m.faceNodes.row(f);
    std::array<Point, 4> p;
    for (std::size_t i = 0; i < nodes.size(); ++i)
      p[i] = d.nodes[std::size_t(nodes[i])];
    const FaceGeometry g = faceGeometry({p.data(), nodes.size()});
    m.faceCentroid[std::size_t(f)] = g.centroid;
    m.faceArea[std::size_t(f)] = g.area;
  }
  m.cellVolume.resize(std::size_t(numCells));
  m.cellCentroid.resize(std::size_t(numCells));
  for (int c = 0; c < numCells; ++c) {
    const Point ref = nodeAverage(d, c);
    double volume = 0.0;
    Point moment{0.0, 0.0, 0.0};
    for (int f : m.cellFaces.row(c)) {
      const double sign = m.owner[std::size_t(f)] == c ? 1.0 : -1.0;
      const Point offset = m.faceCentroid[std::size_t(f)] - ref;
      const double v = sign * dot(offset, m.faceArea[std::size_t(f)]) / 3.0;
      volume += v;
      moment = moment + (0.75 * v) * offset;
    }
    m.cellVolume[std::size_t(c)] = volume;
    m.cellCentroid[std::size_t(c)] = ref + (1.0 / volume) * moment;
  }
  return m;
}

MeshDescription describe(const Mesh& m) {
  MeshDescription d;
  d.nodes = m.nodes;
  d.cellShapes = m.cellShapes;
  d.cellNodes = m.cellNodes;
  d.tagNames = m.tagNames;
  for (int f = 0; f < m.numFaces(); ++f) {
    if (m.neighbour[std::size_t(f)] >= 0 || m.faceTag[std::size_t(f)] < 0)
      continue;
    d.boundaryFaceNodes.appendRow(m.faceNodes.row(f));
    d.boundaryTags.push_back(m.faceTag[std::size_t(f)]);
  }
  return d;
}

} // namespace tessera::unstructured
