#include "io/su2_reader.hpp"

#include <array>
#include <climits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/unstructured/planar_layer.hpp"

namespace tessera::io {
namespace {

using unstructured::CellShape;
using unstructured::MeshDescription;

struct CellType {
  CellShape shape;
  const char* name;
};

std::optional<CellType> cellType(long long vtkType) {
  switch (vtkType) {
  case 10:
    return CellType{CellShape::Tetrahedron, "tetrahedron"};
  case 12:
    return CellType{CellShape::Hexahedron, "hexahedron"};
  case 13:
    return CellType{CellShape::Prism, "prism"};
  case 14:
    return CellType{CellShape::Pyramid, "pyramid"};
  default:
    return std::nullopt;
  }
}

class Su2Reader {
public:
  explicit Su2Reader(const std::filesystem::path& file) : text_(file, '%') {}

  MeshDescription read() {
    while (text_.next()) {
      const auto [key, value] = keyword();
      if (key == "NDIME")
        readDimension(value);
      else if (key == "NELEM")
        readCells(value);
      else if (key == "NPOIN")
        readNodes(value);
      else if (key == "NMARK")
        readMarkers(value);
      else
        text_.fail("unknown keyword " + std::string(key) +
                   "= (NDIME, NELEM, NPOIN, NMARK are read)");
    }
    if (!cellsLine_ || !nodesLine_)
      text_.fail(std::string("the file has no ") + (cellsLine_ ? "NPOIN=" : "NELEM=") + " section");
    if (dimension_ == 2)
      return layerOfPlanarMesh();
    if (mesh_.cellShapes.empty())
      text_.failAt(*cellsLine_, "NELEM= 0: the mesh has no cells");
    // Elements may come before the nodes, so their indices are checked once NPOIN is known.
    checkIndices(mesh_.cellNodes, cellLines_);
    checkIndices(mesh_.boundaryFaceNodes, faceLines_);
    if (const auto defect = unstructured::firstDegenerateCell(mesh_))
      text_.failAt(cellLines_[std::size_t(defect->cell)], defect->reason);
    return std::move(mesh_);
  }

private:
  // A 2D mesh (NDIME= 2): its triangles and quadrilaterals are the cells of a planar mesh, its
  // lines the marked boundary edges; one layer of it (engine/unstructured/planar_layer.hpp), a
  // unit thick, so that forces are per unit span.
  MeshDescription layerOfPlanarMesh() {
    if (planar_.cellNodes.rows() == 0)
      text_.failAt(*cellsLine_, "NELEM= 0: the mesh has no cells");
    checkIndices(planar_.cellNodes, cellLines_);
    checkIndices(planar_.boundaryEdgeNodes, faceLines_);
    for (const auto& node : mesh_.nodes)
      planar_.nodes.push_back({node[0], node[1]});
    planar_.tagNames = std::move(mesh_.tagNames);
    MeshDescription layer = unstructured::planarLayer(planar_, 1.0);
    if (const auto defect = unstructured::firstDegenerateCell(layer))
      text_.failAt(cellLines_[std::size_t(defect->cell)], defect->reason);
    return layer;
  }

  std::pair<std::string_view, std::string_view> keyword() const {
    const auto line = text_.line();
    const auto equals = line.find('=');
    if (equals == std::string_view::npos)
      text_.fail("expected a keyword such as NELEM=, found '" + std::string(line) + "'");
    return {detail::trim(line.substr(0, equals)), detail::trim(line.substr(equals + 1))};
  }

  // The integer count after a keyword; `values` is how many numbers the keyword may carry.
  int count(std::string_view value, std::size_t values = 1) const {
    const auto tokens = detail::splitTokens(value);
    if (tokens.empty() || tokens.size() > values)
      text_.fail("expected a count after '=', found '" + std::string(value) + "'");
    const long long n = text_.integer(tokens[0]);
    if (n < 0 || n > INT_MAX)
      text_.fail("count " + std::to_string(n) + " out of range");
    if (n > text_.linesLeft())
      text_.fail("count " + std::to_string(n) + " is more than the " +
                 std::to_string(text_.linesLeft()) + " lines left in the file");
    return int(n);
  }

  void once(std::optional<int>& line, const char* key) {
    if (line)
      text_.fail(std::string("a second ") + key + "= section");
    line = text_.lineNumber();
  }

  // The next data line; a keyword here means the section's count was too large.
  void record(const std::string& what, int index, int total) {
    const std::string expected =
        what + " " + std::to_string(index + 1) + " of " + std::to_string(total);
    text_.require(expected);
    if (text_.line().find('=') != std::string_view::npos)
      text_.fail("expected " + expected + ", found '" + std::string(text_.line()) +
                 "': the section ends before its count says");
  }

  void readDimension(std::string_view value) {
    if (dimension_ != 0)
      text_.fail("a second NDIME= line");
    const int dim = count(value);
    if (dim != 2 && dim != 3)
      text_.fail("NDIME= " + std::to_string(dim) + ": a mesh is 2D or 3D");
    dimension_ = dim;
  }

  void requireDimension(const char* key) const {
    if (dimension_ == 0)
      text_.fail(std::string(key) + "= before NDIME=");
  }

  // Node indices of the current line from token `first` on; range-checked later.
  void appendNodes(unstructured::Csr& csr, std::size_t first, int nodes) {
    std::array<int, 8> row{};
    for (std::size_t i = 0; i < std::size_t(nodes); ++i) {
      const long long n = text_.integer(first + i);
      if (n < 0 || n > INT_MAX)
        text_.fail("node index " + std::to_string(n) + " out of range");
      row[i] = int(n);
    }
    csr.appendRow(std::span<const int>(row.data(), std::size_t(nodes)));
  }

  // Element lines hold the nodes and optionally the element's index.
  void expectNodes(int nodes, const char* what) const {
    const auto size = text_.tokens().size();
    if (size != std::size_t(nodes) + 1 && size != std::size_t(nodes) + 2)
      text_.fail(std::string("a ") + what + " needs its type and " + std::to_string(nodes) +
                 " node indices (then optionally its index), found " + std::to_string(size) +
                 " values in '" + std::string(text_.line()) + "'");
  }

  void readCells(std::string_view value) {
    requireDimension("NELEM");
    once(cellsLine_, "NELEM");
    const int n = count(value);
    for (int e = 0; e < n; ++e) {
      record("element", e, n);
      const long long vtkType = text_.integer(std::size_t{0});
      cellLines_.push_back(text_.lineNumber());
      if (dimension_ == 2) {
        if (vtkType != 5 && vtkType != 9)
          text_.fail("element type " + std::to_string(vtkType) +
                     " is not a 2D cell (5 triangle, 9 quadrilateral)");
        const int nodes = vtkType == 5 ? 3 : 4;
        expectNodes(nodes, vtkType == 5 ? "triangle" : "quadrilateral");
        appendNodes(planar_.cellNodes, 1, nodes);
        continue;
      }
      const auto cell = cellType(vtkType);
      if (!cell)
        text_.fail("element type " + std::to_string(vtkType) +
                   " is not a 3D cell (10 tetrahedron, 12 hexahedron, 13 prism, 14 pyramid)");
      const auto [shape, name] = *cell;
      const int nodes = unstructured::nodeCount(shape);
      expectNodes(nodes, name);
      mesh_.cellShapes.push_back(shape);
      appendNodes(mesh_.cellNodes, 1, nodes);
    }
  }

  void readNodes(std::string_view value) {
    requireDimension("NPOIN");
    once(nodesLine_, "NPOIN");
    // "NPOIN= total [domain]": older files also give the number of non-halo nodes.
    const int n = count(value, 2);
    mesh_.nodes.reserve(std::size_t(n));
    for (int i = 0; i < n; ++i) {
      record("node", i, n);
      const auto size = text_.tokens().size();
      const std::size_t d = std::size_t(dimension_);
      if (size != d && size != d + 1)
        text_.fail(std::string("a node needs ") + (d == 2 ? "x y" : "x y z") +
                   " (then optionally its index), found " + std::to_string(size) + " values in '" +
                   std::string(text_.line()) + "'");
      mesh_.nodes.push_back({text_.real(std::size_t{0}), text_.real(std::size_t{1}),
                             d == 3 ? text_.real(std::size_t{2}) : 0.0});
      if (size == d + 1)
        text_.integer(d);
    }
  }

  void readMarkers(std::string_view value) {
    requireDimension("NMARK");
    once(markersLine_, "NMARK");
    const int n = count(value);
    for (int m = 0; m < n; ++m) {
      const int tag = m + 1;
      text_.require("MARKER_TAG= of marker " + std::to_string(tag));
      auto [key, name] = keyword();
      if (key != "MARKER_TAG")
        text_.fail("expected MARKER_TAG= of marker " + std::to_string(tag) + ", found '" +
                   std::string(text_.line()) + "'");
      if (name.empty())
        text_.fail("a marker without a name");
      mesh_.tagNames[tag] = std::string(name);
      text_.require("MARKER_ELEMS= of marker " + std::string(name));
      const auto [elemsKey, elems] = keyword();
      if (elemsKey != "MARKER_ELEMS")
        text_.fail("expected MARKER_ELEMS= of marker " + std::string(name) + ", found '" +
                   std::string(text_.line()) + "'");
      const int faces = count(elems);
      for (int f = 0; f < faces; ++f) {
        record("boundary element", f, faces);
        const long long vtkType = text_.integer(std::size_t{0});
        faceLines_.push_back(text_.lineNumber());
        if (dimension_ == 2) {
          if (vtkType != 3)
            text_.fail("boundary element type " + std::to_string(vtkType) +
                       " is not an edge of a 2D mesh (3 line)");
          expectNodes(2, "line");
          appendNodes(planar_.boundaryEdgeNodes, 1, 2);
          planar_.boundaryTags.push_back(tag);
          continue;
        }
        if (vtkType != 5 && vtkType != 9)
          text_.fail("boundary element type " + std::to_string(vtkType) +
                     " is not a face of a 3D mesh (5 triangle, 9 quadrangle)");
        const int nodes = vtkType == 5 ? 3 : 4;
        expectNodes(nodes, vtkType == 5 ? "triangle" : "quadrangle");
        appendNodes(mesh_.boundaryFaceNodes, 1, nodes);
        mesh_.boundaryTags.push_back(tag);
      }
    }
  }

  void checkIndices(const unstructured::Csr& csr, const std::vector<int>& lines) const {
    const int nodes = int(mesh_.nodes.size());
    for (int r = 0; r < csr.rows(); ++r)
      for (const int n : csr.row(r))
        if (n >= nodes)
          text_.failAt(lines[std::size_t(r)],
                       "node index " + std::to_string(n) +
                           " does not exist (NPOIN= " + std::to_string(nodes) + ")");
  }

  detail::MeshText text_;
  MeshDescription mesh_;
  unstructured::PlanarMeshDescription planar_; // the cells and edges of a 2D mesh
  int dimension_ = 0;                          // NDIME, 0 before its line
  std::optional<int> cellsLine_, nodesLine_, markersLine_;
  std::vector<int> cellLines_, faceLines_; // line of each cell and face, for later checks
};

} // namespace

unstructured::MeshDescription readSu2(const std::filesystem::path& file) {
  return Su2Reader(file).read();
}

} // namespace tessera::io
