#pragma once
// Mesh readers of the unstructured module. readGmsh reads Gmsh MSH ASCII 2.2 and 4.1 files;
// io/su2_reader.hpp reads SU2 native files. Both produce the MeshDescription that buildMesh takes
// and report a malformed file as a MeshReadError naming the file and the line, never as a crash
// or as data silently left out.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/unstructured/mesh.hpp"
#include "io/mesh_text.hpp"

namespace tessera::io {

// Gmsh MSH ASCII 2.2 or 4.1, told apart by $MeshFormat.
// - Tetrahedra (type 4), hexahedra (5), prisms (6) and pyramids (7) become cells; triangles (2)
//   and quadrangles (3) become boundary faces; lines (1) and points (15) are ignored; any other
//   type is an error, since dropping it would lose part of the mesh.
// - A 2D mesh (no volume elements; triangles and quadrangles in one plane z = const) becomes one
//   layer of prisms and hexahedra a unit thick (engine/unstructured/planar_layer.hpp): its lines
//   are the boundary edges, the layer's two planes one more tag named "layer_planes".
// - A face's (or, in 2D, a line's) tag is its physical tag: in 2.2 the element's first tag (0 if
//   it has none); in 4.1 the first physical tag of its surface (curve) entity in $Entities, or the
//   entity tag when that entity has no physical tag or the file has no $Entities.
// - $PhysicalNames of dimension 2 (2D meshes: 1) become tagNames.
// - Nodes are numbered 0, 1, ... in file order whatever their (possibly sparse) Gmsh tags; nodes
//   that no cell uses are kept.
// - Sections the reader does not need ($Comments, $Periodic, $NodeData, ...) are skipped.
unstructured::MeshDescription readGmsh(const std::filesystem::path& file);

} // namespace tessera::io
