// Mesh readers: one small mixed mesh (hexahedron, prism, pyramid, tetrahedron and four tagged
// boundary faces) written as Gmsh 2.2, Gmsh 4.1 and SU2 must read to the same MeshDescription;
// each kind of malformed file must throw a MeshReadError naming the file and the line.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <string>

#include "io/gmsh_reader.hpp"
#include "io/su2_reader.hpp"

namespace tessera::io {
namespace {

using unstructured::CellShape;
using unstructured::MeshDescription;

// Gmsh node tags are sparse (node i has tag 10 (i + 1)); elements that are not cells or faces
// (a point, a line) and a volume physical name must be ignored.
const std::string gmsh22 = R"($MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
3
2 1 "wall"
2 2 "far field"
3 3 "fluid"
$EndPhysicalNames
$Nodes
12
10 0 0 0
20 1 0 0
30 1 1 0
40 0 1 0
50 0 0 1
60 1 0 1
70 1 1 1
80 0 1 1
90 2 0 0
100 2 0 1
110 0.5 0.5 2
120 1.5 2.5e-1 2
$EndNodes
$Elements
10
1 15 2 0 1 10
2 1 2 0 1 10 20
3 5 2 3 1 10 20 30 40 50 60 70 80
4 6 2 3 1 20 90 30 60 100 70
5 7 2 3 1 50 60 70 80 110
6 4 2 3 1 60 100 70 120
7 3 2 1 5 10 40 30 20
8 2 2 1 5 20 30 90
9 2 2 2 6 100 120 70
10 3 2 2 6 10 20 60 50
$EndElements
)";

// Surfaces 5 and 6 carry physical tags 1 and 2, so faces are tagged 1 and 2 as in 2.2.
const std::string gmsh41 = R"($MeshFormat
4.1 0 8
$EndMeshFormat
$PhysicalNames
3
2 1 "wall"
2 2 "far field"
3 3 "fluid"
$EndPhysicalNames
$Entities
1 0 2 1
1 0 0 0 0
5 0 0 0 2 1 0 1 1 0
6 0 0 1 2 1 2 1 2 0
1 0 0 0 2 1 2 1 3 2 5 6
$EndEntities
$Nodes
2 12 10 120
0 1 0 1
10
0 0 0
3 1 0 11
20
30
40
50
60
70
80
90
100
110
120
1 0 0
1 1 0
0 1 0
0 0 1
1 0 1
1 1 1
0 1 1
2 0 0
2 0 1
0.5 0.5 2
1.5 2.5e-1 2
$EndNodes
$Elements
9 9 1 9
0 1 15 1
1 10
3 1 5 1
2 10 20 30 40 50 60 70 80
3 1 6 1
3 20 90 30 60 100 70
3 1 7 1
4 50 60 70 80 110
3 1 4 1
5 60 100 70 120
2 5 3 1
6 10 40 30 20
2 5 2 1
7 20 30 90
2 6 2 1
8 100 120 70
2 6 3 1
9 10 20 60 50
$EndElements
)";

const std::string su2 = R"(% the mixed mesh of the Gmsh files
NDIME= 3
NELEM= 4
12 0 1 2 3 4 5 6 7 0
13 1 8 2 5 9 6 1
14 4 5 6 7 10
10 5 9 6 11 3
NPOIN= 12
0 0 0 0
1 0 0 1
1 1 0 2
0 1 0 3
0 0 1 4
1 0 1 5
1 1 1 6
0 1 1 7
2 0 0 8
2 0 1 9
0.5 0.5 2 10
1.5 2.5e-1 2
NMARK= 2
MARKER_TAG= wall
MARKER_ELEMS= 2
9 0 3 2 1
5 1 2 8
MARKER_TAG= far field
MARKER_ELEMS= 2
5 9 11 6  % a trailing comment
9 0 1 5 4
)";

MeshDescription expectedMesh() {
  MeshDescription m;
  m.nodes = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1},     {1, 0, 1},
             {1, 1, 1}, {0, 1, 1}, {2, 0, 0}, {2, 0, 1}, {0.5, 0.5, 2}, {1.5, 0.25, 2}};
  m.cellShapes = {CellShape::Hexahedron, CellShape::Prism, CellShape::Pyramid,
                  CellShape::Tetrahedron};
  m.cellNodes.appendRow(std::vector{0, 1, 2, 3, 4, 5, 6, 7});
  m.cellNodes.appendRow(std::vector{1, 8, 2, 5, 9, 6});
  m.cellNodes.appendRow(std::vector{4, 5, 6, 7, 10});
  m.cellNodes.appendRow(std::vector{5, 9, 6, 11});
  m.boundaryFaceNodes.appendRow(std::vector{0, 3, 2, 1});
  m.boundaryFaceNodes.appendRow(std::vector{1, 2, 8});
  m.boundaryFaceNodes.appendRow(std::vector{9, 11, 6});
  m.boundaryFaceNodes.appendRow(std::vector{0, 1, 5, 4});
  m.boundaryTags = {1, 1, 2, 2};
  m.tagNames = {{1, "wall"}, {2, "far field"}};
  return m;
}

void expectSameMesh(const MeshDescription& actual, const MeshDescription& expected) {
  EXPECT_EQ(actual.nodes, expected.nodes);
  EXPECT_EQ(actual.cellShapes, expected.cellShapes);
  EXPECT_EQ(actual.cellNodes.offsets, expected.cellNodes.offsets);
  EXPECT_EQ(actual.cellNodes.indices, expected.cellNodes.indices);
  EXPECT_EQ(actual.boundaryFaceNodes.offsets, expected.boundaryFaceNodes.offsets);
  EXPECT_EQ(actual.boundaryFaceNodes.indices, expected.boundaryFaceNodes.indices);
  EXPECT_EQ(actual.boundaryTags, expected.boundaryTags);
  EXPECT_EQ(actual.tagNames, expected.tagNames);
}

std::filesystem::path writeMesh(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::path(testing::TempDir()) / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' not in the mesh text";
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

int lineOf(const std::string& text, const std::string& part) {
  const auto at = text.find(part);
  EXPECT_NE(at, std::string::npos) << "'" << part << "' not in the mesh text";
  return 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
}

// Reads `text` as file `name` and checks the error names the file, the line and `what`.
void expectError(const std::function<MeshDescription(const std::filesystem::path&)>& reader,
                 const std::string& name, const std::string& text, int line,
                 const std::string& what) {
  const auto path = writeMesh(name, text);
  try {
    reader(path);
    ADD_FAILURE() << name << ": no MeshReadError thrown";
  } catch (const MeshReadError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path.string() + ":" + std::to_string(line) + ": "), std::string::npos)
        << "expected line " << line << " in: " << message;
    EXPECT_NE(message.find(what), std::string::npos) << "'" << what << "' not in: " << message;
  }
}

TEST(MeshReaderGmsh, Version22ReadsTheMixedMesh) {
  expectSameMesh(readGmsh(writeMesh("mixed22.msh", gmsh22)), expectedMesh());
}

TEST(MeshReaderGmsh, Version41ReadsTheMixedMesh) {
  expectSameMesh(readGmsh(writeMesh("mixed41.msh", gmsh41)), expectedMesh());
}

TEST(MeshReaderSu2, ReadsTheMixedMesh) {
  expectSameMesh(readSu2(writeMesh("mixed.su2", su2)), expectedMesh());
}

TEST(MeshReaderGmsh, Version41TagsFacesOfASurfaceWithoutPhysicalTagByTheEntityTag) {
  const auto text = replaced(gmsh41, "6 0 0 1 2 1 2 1 2 0", "6 0 0 1 2 1 2 0 0");
  auto expected = expectedMesh();
  expected.boundaryTags = {1, 1, 6, 6};
  expectSameMesh(readGmsh(writeMesh("entity_tag41.msh", text)), expected);
}

// A boundary element in no physical group (2.2: no tags, or physical tag 0) has no tag a case's
// boundary.<name> could set: README says a boundary face without a tag is an error.
TEST(MeshReaderGmsh, RejectsABoundaryFaceWithoutAPhysicalTag) {
  const auto untagged = replaced(gmsh22, "7 3 2 1 5 10 40 30 20", "7 3 0 10 40 30 20");
  expectError(readGmsh, "untagged22.msh", untagged, lineOf(untagged, "7 3 0 10"),
              "without a physical tag");
  const auto zero = replaced(gmsh22, "8 2 2 1 5 20 30 90", "8 2 2 0 5 20 30 90");
  expectError(readGmsh, "zero22.msh", zero, lineOf(zero, "8 2 2 0 5"), "without a physical tag");
}

TEST(MeshReaderGmsh, RejectsAFileThatDoesNotBeginWithMeshFormat) {
  const auto text = replaced(gmsh22, "$MeshFormat", "$MeshFormt");
  expectError(readGmsh, "bad_header.msh", text, 1, "$MeshFormat");
}

TEST(MeshReaderGmsh, RejectsAnUnknownVersion) {
  expectError(readGmsh, "version.msh", replaced(gmsh22, "2.2 0 8", "3.0 0 8"), 2, "version 3.0");
}

TEST(MeshReaderGmsh, RejectsABinaryFile) {
  expectError(readGmsh, "binary.msh", replaced(gmsh41, "4.1 0 8", "4.1 1 8"), 2, "binary");
}

TEST(MeshReaderGmsh, RejectsANodeCountLargerThanTheNodes) {
  const auto text = replaced(gmsh22, "$Nodes\n12\n", "$Nodes\n13\n");
  expectError(readGmsh, "count_large.msh", text, lineOf(text, "$EndNodes"), "count");
}

TEST(MeshReaderGmsh, RejectsANodeCountSmallerThanTheNodes) {
  const auto text = replaced(gmsh22, "$Nodes\n12\n", "$Nodes\n11\n");
  expectError(readGmsh, "count_small.msh", text, lineOf(text, "120 1.5"), "$EndNodes");
}

TEST(MeshReaderGmsh, RejectsAVersion41HeaderCountThatDisagreesWithTheBlocks) {
  const auto text = replaced(gmsh41, "9 9 1 9", "9 10 1 9");
  expectError(readGmsh, "count41.msh", text, lineOf(text, "9 10 1 9"), "announces 10 elements");
}

TEST(MeshReaderGmsh, RejectsAnUnsupportedElementType) {
  const auto text = replaced(gmsh22, "6 4 2 3 1 60 100 70 120", "6 11 2 3 1 60 100 70 120");
  expectError(readGmsh, "type.msh", text, lineOf(text, "6 11 2"), "element type 11");
}

TEST(MeshReaderGmsh, RejectsANodeTagThatDoesNotExist) {
  const auto text = replaced(gmsh41, "4 50 60 70 80 110", "4 50 60 70 80 115");
  expectError(readGmsh, "node_tag.msh", text, lineOf(text, "80 115"), "node tag 115");
}

// A file cut short: its section's count promises more lines than are left, said at the count.
TEST(MeshReaderGmsh, RejectsATruncatedFile) {
  const auto text = gmsh22.substr(0, gmsh22.find("9 2 2 2 6"));
  expectError(readGmsh, "truncated.msh", text, lineOf(text, "$Elements") + 1,
              "count 10 is more than the 8 lines left");
}

TEST(MeshReaderGmsh, RejectsANonNumericToken) {
  const auto text = replaced(gmsh22, "110 0.5 0.5 2", "110 0.5 O.5 2");
  expectError(readGmsh, "non_numeric.msh", text, lineOf(text, "O.5"), "'O.5'");
}

TEST(MeshReaderGmsh, RejectsAMeshWithoutCellsOrFaces) {
  const auto text =
      gmsh22.substr(0, gmsh22.find("$Elements")) + "$Elements\n1\n1 1 2 1 5 20 30\n$EndElements\n";
  expectError(readGmsh, "lines.msh", text, lineOf(text, "$EndElements"),
              "no triangles or quadrangles");
}

TEST(MeshReaderGmsh, RejectsA2DMeshOutOfItsPlane) {
  // The 3D mesh's triangle 20 30 90 (z = 0) is a 2D mesh once alone, but the nodes above z = 0
  // are not in its plane: the first of them is named.
  const auto text = gmsh22.substr(0, gmsh22.find("$Elements")) +
                    "$Elements\n1\n1 2 2 1 5 20 30 90\n$EndElements\n";
  expectError(readGmsh, "surface.msh", text, lineOf(text, "50 0 0 1"), "one plane z = const");
}

// A 2D mesh: a quadrangle [0, 1]^2 and two triangles over [1, 2] x [0, 1] (the second clockwise),
// its boundary lines tagged by curve: 1 "wall" (bottom and top), 2 "outlet", 3 "inlet".
const std::string gmsh2D = R"($MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
4
1 1 "wall"
1 2 "outlet"
1 3 "inlet"
2 7 "fluid"
$EndPhysicalNames
$Nodes
6
1 0 0 0.5
2 1 0 0.5
3 2 0 0.5
4 0 1 0.5
5 1 1 0.5
6 2 1 0.5
$EndNodes
$Elements
10
1 15 2 0 1 1
2 1 2 1 1 1 2
3 1 2 1 1 2 3
4 1 2 2 2 3 6
5 1 2 1 1 6 5
6 1 2 1 1 5 4
7 1 2 3 3 4 1
8 3 2 7 1 1 2 5 4
9 2 2 7 1 2 3 6
10 2 2 7 1 2 5 6
$EndElements
)";

TEST(MeshReaderGmsh, RejectsABoundaryLineOfA2DMeshWithoutAPhysicalTag) {
  const auto text = replaced(gmsh2D, "4 1 2 2 2 3 6", "4 1 2 0 2 3 6");
  expectError(readGmsh, "untagged2d.msh", text, lineOf(text, "4 1 2 0 2"), "boundary line");
}

TEST(MeshReaderGmsh, A2DMeshBecomesOneLayerOfPrismsAndHexahedra) {
  const MeshDescription layer = readGmsh(writeMesh("planar.msh", gmsh2D));
  using unstructured::CellShape;
  EXPECT_EQ(layer.cellShapes,
            (std::vector<CellShape>{CellShape::Hexahedron, CellShape::Prism, CellShape::Prism}));
  ASSERT_EQ(layer.nodes.size(), 12u);
  EXPECT_EQ(layer.nodes[4], (unstructured::Point{1.0, 1.0, 0.0}));
  EXPECT_EQ(layer.nodes[10], (unstructured::Point{1.0, 1.0, 1.0}));
  EXPECT_EQ(layer.cellNodes.indices,
            (std::vector<int>{0, 1, 4, 3, 6, 7, 10, 9, 1, 2, 5, 7, 8, 11, 1, 4, 5, 7, 10, 11}));
  EXPECT_EQ(layer.tagNames, (std::map<int, std::string>{
                                {1, "wall"}, {2, "outlet"}, {3, "inlet"}, {4, "layer_planes"}}));
  // The mesh the solver builds: volume 2, every boundary face tagged, 6 faces on the edges'
  // tags and 6 on the planes, the planes' normals along z.
  const unstructured::Mesh mesh = unstructured::buildMesh(layer);
  double volume = 0.0;
  for (const double v : mesh.cellVolume)
    volume += v;
  EXPECT_NEAR(volume, 2.0, 1e-14);
  std::map<int, int> facesOfTag;
  for (int f = 0; f < mesh.numFaces(); ++f)
    if (mesh.neighbour[std::size_t(f)] < 0) {
      ++facesOfTag[mesh.faceTag[std::size_t(f)]];
      if (mesh.faceTag[std::size_t(f)] == 4) {
        const unstructured::Point& area = mesh.faceArea[std::size_t(f)];
        EXPECT_EQ(area[0], 0.0);
        EXPECT_EQ(area[1], 0.0);
      }
    }
  EXPECT_EQ(facesOfTag, (std::map<int, int>{{1, 4}, {2, 1}, {3, 1}, {4, 6}}));
}

// The 2D mesh of gmsh2D as SU2 writes it (0-based nodes, markers in the same order): the same
// layer, cell for cell and tag for tag.
const std::string su22D = R"(NDIME= 2
NELEM= 3
9 0 1 4 3 0
5 1 2 5 1
5 1 4 5 2
NPOIN= 6
0 0 0
1 0 1
2 0 2
0 1 3
1 1 4
2 1 5
NMARK= 3
MARKER_TAG= wall
MARKER_ELEMS= 4
3 0 1
3 1 2
3 5 4
3 4 3
MARKER_TAG= outlet
MARKER_ELEMS= 1
3 2 5
MARKER_TAG= inlet
MARKER_ELEMS= 1
3 3 0
)";

TEST(MeshReaderSu2, A2DMeshBecomesTheSameLayerAsGmshs) {
  const MeshDescription fromSu2 = readSu2(writeMesh("planar.su2", su22D));
  const MeshDescription fromGmsh = readGmsh(writeMesh("planar.msh", gmsh2D));
  EXPECT_EQ(fromSu2.cellShapes, fromGmsh.cellShapes);
  EXPECT_EQ(fromSu2.cellNodes.indices, fromGmsh.cellNodes.indices);
  EXPECT_EQ(fromSu2.nodes, fromGmsh.nodes);
  EXPECT_EQ(fromSu2.tagNames, fromGmsh.tagNames);
  const unstructured::Mesh a = unstructured::buildMesh(fromSu2),
                           b = unstructured::buildMesh(fromGmsh);
  EXPECT_EQ(a.faceTag, b.faceTag);
}

TEST(MeshReaderSu2, RejectsADimensionOtherThanTwoOrThree) {
  expectError(readSu2, "dim.su2", replaced(su2, "NDIME= 3", "NDIME= 4"), 2, "2D or 3D");
}

TEST(MeshReaderSu2, RejectsA3DCellInA2DMesh) {
  const auto text = replaced(su22D, "5 1 2 5 1", "10 1 2 5 4 1");
  expectError(readSu2, "cell.su2", text, lineOf(text, "10 1 2 5 4 1"), "not a 2D cell");
}

TEST(MeshReaderSu2, RejectsAFaceMarkerInA2DMesh) {
  const auto text = replaced(su22D, "3 2 5", "5 2 5 4");
  expectError(readSu2, "marker.su2", text, lineOf(text, "5 2 5 4"), "not an edge of a 2D mesh");
}

TEST(MeshReaderSu2, RejectsAnUnknownElementType) {
  const auto text = replaced(su2, "14 4 5 6 7 10", "7 4 5 6 7 10");
  expectError(readSu2, "type.su2", text, lineOf(text, "7 4 5 6 7 10"), "element type 7");
}

TEST(MeshReaderSu2, RejectsANodeIndexThatDoesNotExist) {
  const auto text = replaced(su2, "5 1 2 8", "5 1 2 12");
  expectError(readSu2, "index.su2", text, lineOf(text, "5 1 2 12"), "node index 12");
}

TEST(MeshReaderSu2, RejectsAnElementCountLargerThanTheElements) {
  const auto text = replaced(su2, "NELEM= 4", "NELEM= 5");
  expectError(readSu2, "count.su2", text, lineOf(text, "NPOIN="), "element 5 of 5");
}

TEST(MeshReaderSu2, RejectsANonNumericToken) {
  const auto text = replaced(su2, "2 0 1 9", "2 0 x 9");
  expectError(readSu2, "non_numeric.su2", text, lineOf(text, "2 0 x 9"), "'x'");
}

TEST(MeshReaderSu2, RejectsATruncatedFile) {
  const auto text = su2.substr(0, su2.find("9 0 1 5 4"));
  expectError(readSu2, "truncated.su2", text, lineOf(text, "MARKER_ELEMS= 2\n5 9"),
              "count 2 is more than the 1 lines left");
}

TEST(MeshReaderSu2, RejectsAnUnknownKeyword) {
  const auto text = replaced(su2, "NMARK= 2", "NZONE= 2");
  expectError(readSu2, "keyword.su2", text, lineOf(text, "NZONE"), "unknown keyword NZONE");
}

// A count far beyond the file (it once allocated for 2e9 records and died of std::bad_alloc with
// no file or line) is refused at its own line.
TEST(MeshReaderGmsh, RejectsACountBeyondTheFile) {
  const auto text = replaced(gmsh22, "$Nodes\n12\n", "$Nodes\n2000000000\n");
  expectError(readGmsh, "count_huge.msh", text, lineOf(text, "2000000000"), "lines left");
}
TEST(MeshReaderSu2, RejectsACountBeyondTheFile) {
  const auto text = replaced(su2, "NPOIN= 12", "NPOIN= 2000000000");
  expectError(readSu2, "count_huge.su2", text, lineOf(text, "NPOIN="), "lines left");
}

// Degenerate cells are refused at the line of the cell, not left to fail in the solver.
TEST(MeshReaderSu2, RejectsACellWithTwoNodesAtOnePoint) {
  const auto text = replaced(su2, "10 5 9 6 11 3", "10 5 9 6 5 3");
  expectError(readSu2, "coincident.su2", text, lineOf(text, "10 5 9 6 5 3"), "same point");
}
TEST(MeshReaderSu2, RejectsACellWithoutVolume) {
  // Node 11 moved into the plane z = 1 of the tetrahedron's other nodes 5, 9 and 6.
  const auto text = replaced(su2, "1.5 2.5e-1 2\n", "1.5 2.5e-1 1\n");
  expectError(readSu2, "flat.su2", text, lineOf(text, "10 5 9 6 11 3"), "has no volume");
}
TEST(MeshReaderGmsh, RejectsACellWithoutVolume) {
  // The same tetrahedron, flattened by its node 120 in the Gmsh file.
  const auto text = replaced(gmsh22, "120 1.5 2.5e-1 2\n", "120 1.5 2.5e-1 1\n");
  expectError(readGmsh, "flat.msh", text, lineOf(text, "6 4 2 3 1 60 100 70 120"), "has no volume");
}

} // namespace
} // namespace tessera::io
