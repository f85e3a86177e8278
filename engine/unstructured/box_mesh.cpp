#include "engine/unstructured/box_mesh.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace tessera::unstructured {
namespace {

// Cube corners are numbered by bits: bit 0 = +x, bit 1 = +y, bit 2 = +z.
constexpr std::array<int, 3> bits(int corner) {
  return {corner & 1, (corner >> 1) & 1, corner >> 2};
}

// Orientation of the tetrahedron (a, b, c, d) of cube corners: the sign of the triple product.
int orientation(int a, int b, int c, int d) {
  const auto pa = bits(a), pb = bits(b), pc = bits(c), pd = bits(d);
  std::array<int, 3> u{}, v{}, w{};
  for (std::size_t i = 0; i < 3; ++i) {
    u[i] = pb[i] - pa[i];
    v[i] = pc[i] - pa[i];
    w[i] = pd[i] - pa[i];
  }
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
         u[2] * (v[0] * w[1] - v[1] * w[0]);
}

class Builder {
public:
  Builder(const BoxMeshSpec& spec) : spec_(spec) {}

  int node(int i, int j, int k) const { return i + (spec_.nx + 1) * (j + (spec_.ny + 1) * k); }

  void cube(int i, int j, int k, BoxCells kind) {
    // Corner 8 is the centre node of a cube cut into pyramids.
    std::array<int, 9> corner{};
    for (int c = 0; c < 8; ++c) {
      const auto b = bits(c);
      corner[std::size_t(c)] = node(i + b[0], j + b[1], k + b[2]);
    }
    const auto emit = [&](CellShape s, std::initializer_list<int> corners) {
      d.cellShapes.push_back(s);
      for (int c : corners)
        d.cellNodes.indices.push_back(corner[std::size_t(c)]);
      d.cellNodes.offsets.push_back(int(d.cellNodes.indices.size()));
    };
    // Tetrahedra are listed by geometry; the node order is fixed here to be positive.
    const auto tet = [&](int a, int b, int c, int e) {
      if (orientation(a, b, c, e) > 0)
        emit(CellShape::Tetrahedron, {a, b, c, e});
      else
        emit(CellShape::Tetrahedron, {a, c, b, e});
    };
    switch (kind) {
    case BoxCells::Hexahedra:
      emit(CellShape::Hexahedron, {0, 1, 3, 2, 4, 5, 7, 6});
      break;
    case BoxCells::Prisms:
      emit(CellShape::Prism, {0, 1, 3, 4, 5, 7});
      emit(CellShape::Prism, {0, 3, 2, 4, 7, 6});
      break;
    case BoxCells::Tetrahedra: {
      // One tetrahedron per path 0 -> +e_a -> +e_a +e_b -> 7 along the cube's edges.
      constexpr std::array<std::array<int, 2>, 6> paths{
          {{1, 3}, {1, 5}, {2, 3}, {2, 6}, {4, 5}, {4, 6}}};
      for (const auto& p : paths)
        tet(0, p[0], p[1], 7);
      break;
    }
    case BoxCells::Pyramids: {
      Point centre{0.0, 0.0, 0.0};
      for (int c = 0; c < 8; ++c)
        for (std::size_t a = 0; a < 3; ++a)
          centre[a] += d.nodes[std::size_t(corner[std::size_t(c)])][a] / 8.0;
      corner[8] = int(d.nodes.size());
      d.nodes.push_back(centre);
      // Each base cyclic, seen from the centre counter-clockwise (Gmsh's positive pyramid).
      emit(CellShape::Pyramid, {0, 2, 3, 1, 8});
      emit(CellShape::Pyramid, {4, 5, 7, 6, 8});
      emit(CellShape::Pyramid, {0, 1, 5, 4, 8});
      emit(CellShape::Pyramid, {2, 6, 7, 3, 8});
      emit(CellShape::Pyramid, {0, 4, 6, 2, 8});
      emit(CellShape::Pyramid, {1, 3, 7, 5, 8});
      break;
    }
    case BoxCells::Mixed:
      // The transition cube: the pyramid on the bottom quad, and the pyramids on the x = 0 and
      // y = 0 faces each cut into two tetrahedra along their face's low-to-high diagonal.
      emit(CellShape::Pyramid, {0, 1, 3, 2, 7});
      tet(0, 2, 6, 7);
      tet(0, 6, 4, 7);
      tet(0, 1, 5, 7);
      tet(0, 5, 4, 7);
      break;
    }
  }

  BoxCells kindOfLayer(int k) const {
    if (spec_.cells != BoxCells::Mixed)
      return spec_.cells;
    const int hexLayers = std::max(1, spec_.nz / 4);
    const int tetLayers = std::max(1, (spec_.nz - hexLayers - 1) / 2);
    if (k < hexLayers)
      return BoxCells::Hexahedra;
    if (k == hexLayers)
      return BoxCells::Mixed;
    if (k <= hexLayers + tetLayers)
      return BoxCells::Tetrahedra;
    return BoxCells::Prisms;
  }

  MeshDescription d;

private:
  const BoxMeshSpec& spec_;
};

} // namespace

MeshDescription boxMesh(const BoxMeshSpec& spec) {
  if (spec.nx < 1 || spec.ny < 1 || spec.nz < 1)
    throw std::invalid_argument("boxMesh: cell counts must be positive");
  for (std::size_t a = 0; a < 3; ++a)
    if (!(spec.hi[a] > spec.lo[a]))
      throw std::invalid_argument("boxMesh: empty box");
  if (spec.cells == BoxCells::Mixed && spec.nz < 4)
    throw std::invalid_argument("boxMesh: a mixed box needs nz >= 4 for its four layers");
  if (!(spec.jitter >= 0.0 && spec.jitter <= 0.15))
    throw std::invalid_argument("boxMesh: jitter must be in [0, 0.15]");

  Builder b(spec);
  MeshDescription& d = b.d;
  const std::array<int, 3> n{spec.nx, spec.ny, spec.nz};
  for (int k = 0; k <= spec.nz; ++k)
    for (int j = 0; j <= spec.ny; ++j)
      for (int i = 0; i <= spec.nx; ++i) {
        const std::array<int, 3> ijk{i, j, k};
        Point p{};
        for (std::size_t a = 0; a < 3; ++a)
          // The last plane is hi itself so that the sides lie exactly on the box.
          p[a] =
              ijk[a] == n[a] ? spec.hi[a] : spec.lo[a] + (spec.hi[a] - spec.lo[a]) * ijk[a] / n[a];
        d.nodes.push_back(p);
      }
  if (spec.jitter > 0.0) {
    std::mt19937_64 rng(spec.seed ^ 0x9e3779b97f4a7c15ULL);
    std::uniform_real_distribution<double> offset(-spec.jitter, spec.jitter);
    for (int k = 0; k <= spec.nz; ++k)
      for (int j = 0; j <= spec.ny; ++j)
        for (int i = 0; i <= spec.nx; ++i) {
          const std::array<int, 3> ijk{i, j, k};
          Point& p = d.nodes[std::size_t(b.node(i, j, k))];
          for (std::size_t a = 0; a < 3; ++a) {
            const double shift = offset(rng) * (spec.hi[a] - spec.lo[a]) / n[a];
            if (ijk[a] > 0 && ijk[a] < n[a])
              p[a] += shift;
          }
        }
  }
  for (int k = 0; k < spec.nz; ++k)
    for (int j = 0; j < spec.ny; ++j)
      for (int i = 0; i < spec.nx; ++i)
        b.cube(i, j, k, b.kindOfLayer(k));

  // Boundary faces: the cell faces whose nodes all lie on one side of the grid.
  std::vector<std::array<int, 3>> gridOf(d.nodes.size(), {-1, -1, -1}); // centres: none
  for (int k = 0; k <= spec.nz; ++k)
    for (int j = 0; j <= spec.ny; ++j)
      for (int i = 0; i <= spec.nx; ++i)
        gridOf[std::size_t(b.node(i, j, k))] = {i, j, k};
  for (int c = 0; c < d.cellNodes.rows(); ++c) {
    const CellShape s = d.cellShapes[std::size_t(c)];
    const auto nodes = d.cellNodes.row(c);
    for (int f = 0; f < faceCount(s); ++f) {
      std::vector<int> face;
      for (int l : localFaceNodes(s, f))
        face.push_back(nodes[std::size_t(l)]);
      for (std::size_t a = 0; a < 3; ++a)
        for (int side = 0; side < 2; ++side) {
          const int plane = side == 0 ? 0 : n[a];
          if (std::all_of(face.begin(), face.end(),
                          [&](int v) { return gridOf[std::size_t(v)][a] == plane; })) {
            d.boundaryFaceNodes.appendRow(face);
            d.boundaryTags.push_back(int(2 * a) + side + 1);
          }
        }
    }
  }
  d.tagNames = {{1, "xlo"}, {2, "xhi"}, {3, "ylo"}, {4, "yhi"}, {5, "zlo"}, {6, "zhi"}};

  if (spec.shuffle) {
    std::mt19937_64 rng(spec.seed);
    std::vector<int> cellOrder(d.cellShapes.size());
    std::iota(cellOrder.begin(), cellOrder.end(), 0);
    std::shuffle(cellOrder.begin(), cellOrder.end(), rng);
    std::vector<int> newNode(d.nodes.size());
    std::iota(newNode.begin(), newNode.end(), 0);
    std::shuffle(newNode.begin(), newNode.end(), rng);

    MeshDescription s;
    s.tagNames = d.tagNames;
    s.boundaryTags = d.boundaryTags;
    s.nodes.resize(d.nodes.size());
    for (std::size_t v = 0; v < d.nodes.size(); ++v)
      s.nodes[std::size_t(newNode[v])] = d.nodes[v];
    std::vector<int> row;
    for (int c : cellOrder) {
      s.cellShapes.push_back(d.cellShapes[std::size_t(c)]);
      row.clear();
      for (int v : d.cellNodes.row(c))
        row.push_back(newNode[std::size_t(v)]);
      s.cellNodes.appendRow(row);
    }
    for (int f = 0; f < d.boundaryFaceNodes.rows(); ++f) {
      row.clear();
      for (int v : d.boundaryFaceNodes.row(f))
        row.push_back(newNode[std::size_t(v)]);
      s.boundaryFaceNodes.appendRow(row);
    }
    return s;
  }
  return std::move(b.d);
}

} // namespace tessera::unstructured
