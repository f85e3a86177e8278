#pragma once
// The mixed-element mesh of the unstructured module: tetrahedra, pyramids, prisms and hexahedra.
// A MeshDescription is what a reader or a generator produces (nodes, cells by their nodes,
// tagged boundary faces); buildMesh derives the faces with owner and neighbour, the CSR
// connectivities and the geometry the finite-volume kernels need.
//
// Node order of each shape follows Gmsh. VTK's is the same for tetrahedra, pyramids and
// hexahedra; its wedge is the mirror image of Gmsh's prism (the VTK output reorders prisms).
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/unstructured/csr.hpp"

namespace tessera::unstructured {

enum class CellShape : std::uint8_t { Tetrahedron, Pyramid, Prism, Hexahedron };

constexpr int nodeCount(CellShape s) {
  switch (s) {
  case CellShape::Tetrahedron:
    return 4;
  case CellShape::Pyramid:
    return 5;
  case CellShape::Prism:
    return 6;
  default:
    return 8;
  }
}

using Point = std::array<double, 3>;

// Points as x0 y0 z0 x1 y1 z1 ...: the layout the kernels read areas and coordinates in.
inline std::vector<double> flattened(const std::vector<Point>& points) {
  std::vector<double> flat;
  flat.reserve(3 * points.size());
  for (const Point& p : points)
    flat.insert(flat.end(), p.begin(), p.end());
  return flat;
}

struct MeshDescription {
  std::vector<Point> nodes;
  std::vector<CellShape> cellShapes;
  Csr cellNodes;                       // one row per cell, nodeCount(shape) nodes
  Csr boundaryFaceNodes;               // one row per tagged boundary face (3 or 4 nodes)
  std::vector<int> boundaryTags;       // one per boundary face
  std::map<int, std::string> tagNames; // e.g. Gmsh physical names, SU2 markers
};

struct Mesh {
  std::vector<Point> nodes;
  std::vector<CellShape> cellShapes;
  Csr cellNodes;
  // Faces sorted by owner; within one owner, interior faces by neighbour, then its boundary
  // faces. Neighbour -1 on the boundary, where faceTag is the boundary face's tag (-1 inside and
  // on untagged boundary faces). faceNodes are ordered so that their normal leaves the owner.
  Csr faceNodes;
  std::vector<int> owner, neighbour, faceTag;
  Csr cellFaces, nodeCells; // cellFaces rows follow localFaceNodes' order of the cell's shape
  // Geometry: cell centroids and volumes; face centroids and area vectors (|S| = area, pointing
  // from owner to neighbour, outward on the boundary).
  std::vector<Point> cellCentroid, faceCentroid, faceArea;
  std::vector<double> cellVolume;
  std::map<int, std::string> tagNames;

  int numCells() const { return int(cellShapes.size()); }
  int numFaces() const { return int(owner.size()); }
  int numNodes() const { return int(nodes.size()); }
};

// Faces of a shape as local node indices, in Gmsh order: tetrahedron 4 triangles, pyramid the
// base quad then 4 triangles, prism 2 triangles then 3 quads, hexahedron 6 quads. Each face's
// normal points out of a positively oriented cell (Gmsh's reference elements).
int faceCount(CellShape s);
std::span<const int> localFaceNodes(CellShape s, int face);

// The first cell of a description that no solver can use, and why: two of its nodes at one point,
// or no volume (at most 1e-12 of its bounding box's largest side cubed). None where every cell
// is sound. The node indices must be in range.
struct CellDefect {
  int cell;
  std::string reason;
};
std::optional<CellDefect> firstDegenerateCell(const MeshDescription& description);

// Derives faces, connectivities and geometry. Faces are found by their sorted node sets: seen
// twice, interior (owner = lower cell index); once, boundary (tag from the matching boundary face
// of the description, -1 when untagged). A cell whose template faces enclose a negative volume
// (mirrored node order, e.g. the opposite prism convention) has its faces reversed. Throws
// std::invalid_argument naming the cell or boundary face for: a wrong node count, a node out of
// range, a face shared by 3+ cells or twice by one cell, a boundary face that is not a boundary
// face of some cell or is given twice.
//
// Geometry: a quad's area vector is 0.5 (p2 - p0) x (p3 - p1), which equals the sum of the four
// triangles around its centre (and of the two triangles of either diagonal); its centroid is the
// area-weighted centroid of those four triangles. Cell volumes come from the divergence theorem,
// sum over faces of (x_f - x_ref) . S_f / 3 with x_ref the node average (the reference point
// only lessens round-off since the face areas of a closed cell sum to zero); centroids from the
// same pyramids, each with its centroid 3/4 of the way from x_ref to x_f.
Mesh buildMesh(const MeshDescription& description);

// The description a mesh was built from, up to cell-face order: nodes, cells and the tagged
// boundary faces (untagged ones are left out, buildMesh finds them again).
MeshDescription describe(const Mesh& mesh);

} // namespace tessera::unstructured
