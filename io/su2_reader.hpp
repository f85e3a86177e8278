#pragma once
// SU2 native ASCII meshes ('%' starts a comment), 3D (NDIME= 3) or 2D (NDIME= 2).
// - NELEM= elements by VTK type: 10 tetrahedron, 12 hexahedron, 13 prism, 14 pyramid, then their
//   0-based node indices and optionally the element's index.
// - NPOIN= nodes: x y z and optionally the node's index (an NPOIN= line may also carry the
//   number of domain nodes, which is ignored).
// - NMARK= markers, each MARKER_TAG= name and MARKER_ELEMS= count, then triangles (5) and
//   quadrangles (9); the markers become tags 1 .. NMARK in file order, named in tagNames.
// A 2D mesh has triangles (5) and quadrilaterals (9) as elements, nodes x y (then optionally the
// index) and lines (3) as marker elements; it becomes one layer of prisms and hexahedra a unit
// thick (engine/unstructured/planar_layer.hpp), its planes the tag named "layer_planes".
// Any other keyword or element type is a MeshReadError naming the file and the line
// (io/mesh_text.hpp).
#include <filesystem>

#include "engine/unstructured/mesh.hpp"
#include "io/mesh_text.hpp"

namespace tessera::io {

unstructured::MeshDescription readSu2(const std::filesystem::path& file);

} // namespace tessera::io
