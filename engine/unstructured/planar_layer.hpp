#pragma once
// 2D meshes for the 3D unstructured solver: a planar mesh of triangles and quadrilaterals, as a
// 2D Gmsh or SU2 file holds it, becomes one layer of prisms and hexahedra between two planes, so
// that cases users bring as 2D meshes (airfoils, channels) run unchanged. The two planes are one
// boundary tag, kLayerPlanesName, which the case reader takes as symmetry unless the case says
// otherwise: with nothing entering or leaving through them, the layer's flow is the 2D flow.
#include <array>
#include <map>
#include <string>
#include <vector>

#include "engine/unstructured/csr.hpp"
#include "engine/unstructured/mesh.hpp"

namespace tessera::unstructured {

// The name of the boundary tag of the layer's two planes.
inline constexpr const char* kLayerPlanesName = "layer_planes";

struct PlanarMeshDescription {
  std::vector<std::array<double, 2>> nodes;
  Csr cellNodes;                       // one row per cell: 3 nodes (triangle) or 4 (quadrilateral)
  Csr boundaryEdgeNodes;               // one row per tagged boundary edge: 2 nodes
  std::vector<int> boundaryTags;       // one per boundary edge
  std::map<int, std::string> tagNames; // e.g. Gmsh physical names of curves, SU2 markers
};

// The layer z in [0, thickness] over the planar mesh: node n at z = 0 and, as node n + N, at
// z = thickness (N planar nodes); a triangle becomes a prism and a quadrilateral a hexahedron
// (cell c of the layer is planar cell c: the file's cell order is kept); a boundary edge becomes
// the quadrilateral face above it with its tag; both planes' faces get a new tag (one above the
// largest tag) named kLayerPlanesName. Cells whose planar nodes run clockwise come out mirrored,
// which buildMesh accepts. Throws std::invalid_argument for a cell of other than 3 or 4 nodes, an
// edge of other than 2, a node index out of range, or a thickness that is not positive.
MeshDescription planarLayer(const PlanarMeshDescription& planar, double thickness);

} // namespace tessera::unstructured
