#include "io/gmsh_reader.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <unordered_map>

#include "engine/unstructured/planar_layer.hpp"

namespace tessera::io {

namespace {

using unstructured::CellShape;
using unstructured::MeshDescription;

// Cells of a 3D mesh; faces, the cells of a 2D mesh and the boundary of a 3D one; edges, the
// boundary of a 2D mesh.
enum class Role { Cell, Face, Edge, Ignored };

struct ElementType {
  Role role;
  CellShape shape; // cells only
  int nodes;
};

std::optional<ElementType> elementType(long long gmshType) {
  switch (gmshType) {
  case 1:
    return ElementType{Role::Edge, CellShape::Tetrahedron, 2};
  case 15:
    return ElementType{Role::Ignored, CellShape::Tetrahedron, 1};
  case 2:
    return ElementType{Role::Face, CellShape::Tetrahedron, 3};
  case 3:
    return ElementType{Role::Face, CellShape::Tetrahedron, 4};
  case 4:
    return ElementType{Role::Cell, CellShape::Tetrahedron, 4};
  case 5:
    return ElementType{Role::Cell, CellShape::Hexahedron, 8};
  case 6:
    return ElementType{Role::Cell, CellShape::Prism, 6};
  case 7:
    return ElementType{Role::Cell, CellShape::Pyramid, 5};
  default:
    return std::nullopt;
  }
}

class GmshReader {
public:
  explicit GmshReader(const std::filesystem::path& file) : text_(file, '\0') {}

  MeshDescription read() {
    if (!text_.next() || text_.line() != "$MeshFormat")
      text_.fail("not a Gmsh mesh: the file must begin with $MeshFormat");
    readFormat();
    bool seenNodes = false, seenElements = false;
    while (text_.next()) {
      const std::string section(text_.line());
      if (section == "$PhysicalNames") {
        readPhysicalNames();
      } else if (section == "$Entities" && version41_) {
        // Element blocks look up their surface's physical tag, so it must be known first.
        if (seenElements)
          text_.fail("$Entities after $Elements");
        readEntities();
      } else if (section == "$Nodes") {
        if (seenNodes)
          text_.fail("a second $Nodes section");
        seenNodes = true;
        version41_ ? readNodes41() : readNodes22();
      } else if (section == "$Elements") {
        if (seenElements)
          text_.fail("a second $Elements section");
        seenElements = true;
        version41_ ? readElements41() : readElements22();
      } else if (section.starts_with('$') && !section.starts_with("$End")) {
        skipSection(section);
      } else {
        text_.fail("expected a section such as $Nodes, found '" + section + "'");
      }
    }
    if (!seenNodes || !seenElements)
      text_.fail(std::string("the file has no ") + (seenNodes ? "$Elements" : "$Nodes") +
                 " section");
    if (mesh_.cellShapes.empty()) // a 2D mesh: its faces are the cells of one layer
      return layerOfPlanarMesh();
    requireTags(mesh_.boundaryTags, faceLines_, "triangle or quadrangle", "Physical Surface");
    mesh_.tagNames = std::move(names_[2]);
    if (const auto defect = unstructured::firstDegenerateCell(mesh_))
      text_.failAt(cellLines_[std::size_t(defect->cell)], defect->reason);
    return std::move(mesh_);
  }

private:
  // Gmsh's physical tags start at 1: 0 is an element in no physical group (a file saved with
  // Mesh.SaveAll, or a 2.2 element without tags), which no boundary.<tag> can name.
  void requireTags(const std::vector<int>& tags, const std::vector<int>& lines, const char* element,
                   const char* group) const {
    for (std::size_t i = 0; i < tags.size(); ++i)
      if (tags[i] == 0)
        text_.failAt(lines[i], std::string("a boundary ") + element +
                                   " without a physical tag: every boundary face needs one (a " +
                                   group + " in Gmsh), for the case's boundary.<name> to set");
  }

  // A mesh without volume elements: its triangles and quadrangles are the cells of a planar mesh
  // (in a plane z = const), its lines the tagged boundary edges, named by the physical names of
  // dimension 1; one layer of it (engine/unstructured/planar_layer.hpp), a unit thick, so that
  // forces are per unit span.
  MeshDescription layerOfPlanarMesh() {
    if (mesh_.boundaryFaceNodes.rows() == 0)
      text_.fail("no tetrahedra, hexahedra, prisms or pyramids (a 3D mesh) and no triangles or "
                 "quadrangles (a 2D mesh)");
    unstructured::PlanarMeshDescription planar;
    const double z = mesh_.nodes.empty() ? 0.0 : mesh_.nodes.front()[2];
    for (std::size_t n = 0; n < mesh_.nodes.size(); ++n) {
      if (mesh_.nodes[n][2] != z)
        text_.failAt(nodeLines_[n], "a 2D mesh (no volume elements) must lie in one plane "
                                    "z = const; this node has z = " +
                                        std::to_string(mesh_.nodes[n][2]) + ", the first " +
                                        std::to_string(z));
      planar.nodes.push_back({mesh_.nodes[n][0], mesh_.nodes[n][1]});
    }
    requireTags(edgeTags_, edgeLines_, "line", "Physical Curve");
    planar.cellNodes = std::move(mesh_.boundaryFaceNodes);
    planar.boundaryEdgeNodes = std::move(edgeNodes_);
    planar.boundaryTags = std::move(edgeTags_);
    planar.tagNames = std::move(names_[1]);
    MeshDescription layer = unstructured::planarLayer(planar, 1.0);
    if (const auto defect = unstructured::firstDegenerateCell(layer))
      text_.failAt(faceLines_[std::size_t(defect->cell)], defect->reason);
    return layer;
  }

  void readFormat() {
    text_.require("the version line of $MeshFormat");
    text_.expectTokens(3, "version, file type, data size");
    const auto version = text_.tokens()[0];
    if (version != "2.2" && version != "4.1")
      text_.fail("MSH version " + std::string(version) + " is not supported (2.2 and 4.1 are)");
    version41_ = version == "4.1";
    if (text_.integer(std::size_t{1}) != 0)
      text_.fail("a binary MSH file: only ASCII is supported");
    text_.integer(std::size_t{2});
    endSection("$EndMeshFormat", "");
  }

  // The next record of a section; a '$' line here means the section's count was too large.
  void record(const std::string& what) {
    text_.require(what);
    if (text_.line().starts_with('$'))
      text_.fail("expected " + what + ", found '" + std::string(text_.line()) +
                 "': the section ends before its count says");
  }

  void endSection(const std::string& end, const std::string& countNote) {
    text_.require(end);
    if (text_.line() != end)
      text_.fail("expected " + end + countNote + ", found '" + std::string(text_.line()) + "'");
  }

  int count(std::size_t token) const {
    const long long n = text_.integer(token);
    if (n < 0 || n > INT_MAX)
      text_.fail("count " + std::to_string(n) + " out of range");
    return int(n);
  }

  // A count of records of at least a line each: no more than the lines left in the file.
  int recordCount(std::size_t token) const {
    const int n = count(token);
    if (n > text_.linesLeft())
      text_.fail("count " + std::to_string(n) + " is more than the " +
                 std::to_string(text_.linesLeft()) + " lines left in the file");
    return n;
  }

  static std::string afterCount(int n, const std::string& what) {
    return " after the " + std::to_string(n) + " " + what + " the count announces";
  }

  void skipSection(const std::string& section) {
    const std::string end = "$End" + section.substr(1);
    do
      text_.require(end);
    while (text_.line() != end);
  }

  void readPhysicalNames() {
    record("the number of physical names");
    text_.expectTokens(1, "number of physical names");
    const int n = recordCount(0);
    for (int i = 0; i < n; ++i) {
      record("a physical name");
      const auto line = text_.line();
      const auto open = line.find('"'), close = line.rfind('"');
      if (open == std::string_view::npos || close == open)
        text_.fail("expected 'dimension tag \"name\"', found '" + std::string(line) + "'");
      const auto numbers = detail::splitTokens(line.substr(0, open));
      if (numbers.size() != 2)
        text_.fail("expected 'dimension tag \"name\"', found '" + std::string(line) + "'");
      const long long dimension = text_.integer(numbers[0]);
      if (dimension == 1 || dimension == 2) // the boundary of a 2D mesh, of a 3D one
        names_[std::size_t(dimension)][tag(text_.integer(numbers[1]))] =
            std::string(line.substr(open + 1, close - open - 1));
    }
    endSection("$EndPhysicalNames", afterCount(n, "names"));
  }

  int tag(long long value) const {
    if (value < INT_MIN || value > INT_MAX)
      text_.fail("tag " + std::to_string(value) + " out of range");
    return int(value);
  }

  void readEntities() {
    record("the entity counts");
    text_.expectTokens(4, "numbers of points, curves, surfaces and volumes");
    const std::array<int, 4> counts{recordCount(0), recordCount(1), recordCount(2), recordCount(3)};
    for (int dim = 0; dim < 4; ++dim)
      for (int i = 0; i < counts[std::size_t(dim)]; ++i) {
        record("an entity of dimension " + std::to_string(dim));
        // Points: tag x y z nPhysical physical...; others: tag bounding box (6) nPhysical
        // physical... nBounding bounding...
        const std::size_t physicalAt = dim == 0 ? 4 : 7;
        const int physicals = count(physicalAt);
        std::size_t expected = physicalAt + 1 + std::size_t(physicals);
        if (dim > 0)
          expected += 1 + std::size_t(count(expected));
        text_.expectTokens(expected, "an entity of dimension " + std::to_string(dim));
        // Checked although unused: a malformed entity is an error, not data skipped.
        for (std::size_t t = 1; t < expected; ++t)
          if (t < physicalAt)
            text_.real(t);
          else
            text_.integer(t);
        if (dim == 1 || dim == 2)
          physical_[std::size_t(dim)][text_.integer(std::size_t{0})] =
              tag(text_.integer(physicals > 0 ? physicalAt + 1 : 0));
      }
    endSection("$EndEntities", "");
    haveEntities_ = true;
  }

  void addNode(long long gmshTag, std::size_t firstCoordinate) {
    const int index = int(mesh_.nodes.size());
    if (!nodeIndex_.emplace(gmshTag, index).second)
      text_.fail("node tag " + std::to_string(gmshTag) + " appears twice");
    mesh_.nodes.push_back({text_.real(firstCoordinate), text_.real(firstCoordinate + 1),
                           text_.real(firstCoordinate + 2)});
    nodeLines_.push_back(text_.lineNumber());
  }

  void readNodes22() {
    record("the number of nodes");
    text_.expectTokens(1, "number of nodes");
    const int n = recordCount(0);
    mesh_.nodes.reserve(std::size_t(n));
    for (int i = 0; i < n; ++i) {
      record("a node");
      text_.expectTokens(4, "node tag, x, y, z");
      addNode(text_.integer(std::size_t{0}), 1);
    }
    endSection("$EndNodes", afterCount(n, "nodes"));
  }

  void readNodes41() {
    record("the node counts");
    text_.expectTokens(4, "number of blocks, number of nodes, minimum and maximum tags");
    const int headerLine = text_.lineNumber();
    const int blocks = recordCount(0), n = recordCount(1);
    mesh_.nodes.reserve(std::size_t(n));
    std::vector<long long> tags;
    for (int b = 0; b < blocks; ++b) {
      record("a node block");
      text_.expectTokens(4, "entity dimension, entity tag, parametric, number of nodes");
      const long long dim = text_.integer(std::size_t{0});
      const bool parametric = text_.integer(std::size_t{2}) != 0;
      const int inBlock = recordCount(3);
      // Parametric nodes carry one parametric coordinate per dimension of their entity.
      const std::size_t values = 3 + (parametric ? std::size_t(std::clamp(dim, 0LL, 3LL)) : 0);
      tags.clear();
      for (int i = 0; i < inBlock; ++i) {
        record("a node tag");
        text_.expectTokens(1, "node tag");
        tags.push_back(text_.integer(std::size_t{0}));
      }
      for (int i = 0; i < inBlock; ++i) {
        record("node coordinates");
        text_.expectTokens(values, "node coordinates");
        addNode(tags[std::size_t(i)], 0);
      }
    }
    if (mesh_.nodes.size() != std::size_t(n))
      text_.failAt(headerLine, "the header announces " + std::to_string(n) +
                                   " nodes, the blocks hold " + std::to_string(mesh_.nodes.size()));
    endSection("$EndNodes", afterCount(blocks, "node blocks"));
  }

  int node(std::string_view token) const {
    const long long gmshTag = text_.integer(token);
    const auto it = nodeIndex_.find(gmshTag);
    if (it == nodeIndex_.end())
      text_.fail("node tag " + std::to_string(gmshTag) + " does not exist");
    return it->second;
  }

  ElementType type(long long gmshType) const {
    const auto type = elementType(gmshType);
    if (!type)
      text_.fail("element type " + std::to_string(gmshType) +
                 " is not supported (tetrahedra, hexahedra, prisms, pyramids, triangles, "
                 "quadrangles, lines; points are ignored)");
    return *type;
  }

  void addElement(const ElementType& type, std::size_t firstNode, int boundaryTag) {
    if (type.role == Role::Ignored)
      return;
    std::array<int, 8> nodes{};
    for (std::size_t i = 0; i < std::size_t(type.nodes); ++i)
      nodes[i] = node(text_.tokens()[firstNode + i]);
    const std::span<const int> row(nodes.data(), std::size_t(type.nodes));
    if (type.role == Role::Cell) {
      mesh_.cellShapes.push_back(type.shape);
      mesh_.cellNodes.appendRow(row);
      cellLines_.push_back(text_.lineNumber());
    } else if (type.role == Role::Face) {
      mesh_.boundaryFaceNodes.appendRow(row);
      mesh_.boundaryTags.push_back(boundaryTag);
      faceLines_.push_back(text_.lineNumber());
    } else {
      edgeNodes_.appendRow(row);
      edgeTags_.push_back(boundaryTag);
      edgeLines_.push_back(text_.lineNumber());
    }
  }

  void readElements22() {
    record("the number of elements");
    text_.expectTokens(1, "number of elements");
    const int n = recordCount(0);
    for (int i = 0; i < n; ++i) {
      record("an element");
      // tag type numberOfTags tags... nodes...
      const auto element = type(text_.integer(std::size_t{1}));
      const int tags = count(2);
      const std::size_t firstNode = 3 + std::size_t(tags);
      text_.expectTokens(firstNode + std::size_t(element.nodes),
                         "element tag, type, number of tags, tags, nodes");
      addElement(element, firstNode, tags > 0 ? tag(text_.integer(std::size_t{3})) : 0);
    }
    endSection("$EndElements", afterCount(n, "elements"));
  }

  void readElements41() {
    record("the element counts");
    text_.expectTokens(4, "number of blocks, number of elements, minimum and maximum tags");
    const int headerLine = text_.lineNumber();
    const int blocks = recordCount(0), n = recordCount(1);
    long long read = 0;
    for (int b = 0; b < blocks; ++b) {
      record("an element block");
      text_.expectTokens(4, "entity dimension, entity tag, element type, number of elements");
      const long long entity = text_.integer(std::size_t{1});
      const auto element = type(text_.integer(std::size_t{2}));
      const int inBlock = recordCount(3);
      int boundaryTag = 0;
      if (element.role == Role::Face || element.role == Role::Edge) {
        const bool face = element.role == Role::Face;
        const auto& physical = physical_[face ? 2 : 1];
        const auto it = physical.find(entity);
        if (face && haveEntities_ && it == physical.end())
          text_.fail("surface " + std::to_string(entity) + " is not listed in $Entities");
        boundaryTag = haveEntities_ && it != physical.end() ? it->second : tag(entity);
      }
      for (int i = 0; i < inBlock; ++i) {
        record("an element");
        text_.expectTokens(1 + std::size_t(element.nodes), "element tag, nodes");
        text_.integer(std::size_t{0});
        addElement(element, 1, boundaryTag);
      }
      read += inBlock;
    }
    if (read != n)
      text_.failAt(headerLine, "the header announces " + std::to_string(n) +
                                   " elements, the blocks hold " + std::to_string(read));
    endSection("$EndElements", afterCount(blocks, "element blocks"));
  }

  detail::MeshText text_;
  MeshDescription mesh_;
  // The line of each cell, face and node, for errors found once all is read.
  std::vector<int> cellLines_, faceLines_, nodeLines_;
  unstructured::Csr edgeNodes_; // lines: the boundary of a 2D mesh, with their tags and lines
  std::vector<int> edgeTags_, edgeLines_;
  std::array<std::map<int, std::string>, 3> names_; // physical names by dimension
  bool version41_ = false;
  bool haveEntities_ = false;
  std::unordered_map<long long, int> nodeIndex_;
  // 4.1: curve (1) and surface (2) entity tag -> its physical tag
  std::array<std::map<long long, int>, 3> physical_;
};

} // namespace

unstructured::MeshDescription readGmsh(const std::filesystem::path& file) {
  return GmshReader(file).read();
}

} // namespace tessera::io
