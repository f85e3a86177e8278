#include "engine/unstructured/planar_layer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tessera::unstructured {

MeshDescription planarLayer(const PlanarMeshDescription& planar, double thickness) {
  if (!(thickness > 0.0) || !std::isfinite(thickness))
    throw std::invalid_argument("planarLayer: the thickness must be positive, got " +
                                std::to_string(thickness));
  const int n = int(planar.nodes.size());
  const auto checkNodes = [&](std::span<const int> row, const char* what, int index) {
    for (const int node : row)
      if (node < 0 || node >= n)
        throw std::invalid_argument(std::string("planarLayer: ") + what + " " +
                                    std::to_string(index) + " names node " + std::to_string(node) +
                                    " of " + std::to_string(n));
  };
  MeshDescription layer;
  layer.nodes.reserve(2 * planar.nodes.size());
  for (const double z : {0.0, thickness})
    for (const auto& [x, y] : planar.nodes)
      layer.nodes.push_back({x, y, z});

  int planesTag = 0;
  for (const int tag : planar.boundaryTags)
    planesTag = std::max(planesTag, tag);
  for (const auto& [tag, name] : planar.tagNames)
    planesTag = std::max(planesTag, tag);
  ++planesTag;

  for (int c = 0; c < planar.cellNodes.rows(); ++c) {
    const std::span<const int> corners = planar.cellNodes.row(c);
    if (corners.size() != 3 && corners.size() != 4)
      throw std::invalid_argument("planarLayer: cell " + std::to_string(c) + " has " +
                                  std::to_string(corners.size()) +
                                  " nodes; a planar cell has 3 or 4");
    checkNodes(corners, "cell", c);
    // Gmsh's prism and hexahedron: the lower face's nodes, then the upper face's in the same order.
    std::vector<int> nodes(corners.begin(), corners.end());
    for (const int corner : corners)
      nodes.push_back(corner + n);
    layer.cellShapes.push_back(corners.size() == 3 ? CellShape::Prism : CellShape::Hexahedron);
    layer.cellNodes.appendRow(nodes);
    layer.boundaryFaceNodes.appendRow(corners);
    layer.boundaryTags.push_back(planesTag);
    std::vector<int> upper(nodes.begin() + std::ptrdiff_t(corners.size()), nodes.end());
    layer.boundaryFaceNodes.appendRow(upper);
    layer.boundaryTags.push_back(planesTag);
  }
  for (int e = 0; e < planar.boundaryEdgeNodes.rows(); ++e) {
    const std::span<const int> ends = planar.boundaryEdgeNodes.row(e);
    if (ends.size() != 2)
      throw std::invalid_argument("planarLayer: boundary edge " + std::to_string(e) + " has " +
                                  std::to_string(ends.size()) + " nodes; an edge has 2");
    checkNodes(ends, "boundary edge", e);
    const int face[] = {ends[0], ends[1], ends[1] + n, ends[0] + n};
    layer.boundaryFaceNodes.appendRow(face);
    layer.boundaryTags.push_back(planar.boundaryTags[std::size_t(e)]);
  }
  layer.tagNames = planar.tagNames;
  layer.tagNames[planesTag] = kLayerPlanesName;
  return layer;
}

} // namespace tessera::unstructured
