// Box meshes of every shape (ordered and shuffled) through buildMesh: closed cells, volumes,
// boundary sides, connectivity, RCM bandwidth, colorings, malformed descriptions.
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/unstructured/box_mesh.hpp"
#include "engine/unstructured/cell_pairs.hpp"
#include "engine/unstructured/coloring.hpp"
#include "engine/unstructured/mesh.hpp"
#include "engine/unstructured/planar_layer.hpp"
#include "engine/unstructured/renumbering.hpp"

namespace tessera::unstructured {
namespace {

struct Case {
  BoxCells cells;
  bool shuffle;
};

class UnstructuredBox : public ::testing::TestWithParam<Case> {
protected:
  static constexpr Point kLo{-1.0, 0.5, 2.0}, kHi{2.0, 1.5, 4.5};
  BoxMeshSpec spec() const {
    BoxMeshSpec s;
    s.lo = kLo;
    s.hi = kHi;
    s.nx = 5;
    s.ny = 4;
    s.nz = 6;
    s.cells = GetParam().cells;
    s.shuffle = GetParam().shuffle;
    s.seed = 42;
    return s;
  }
};

TEST_P(UnstructuredBox, VolumesArePositiveAndSumToTheBox) {
  const Mesh m = buildMesh(boxMesh(spec()));
  const double box = (kHi[0] - kLo[0]) * (kHi[1] - kLo[1]) * (kHi[2] - kLo[2]);
  double sum = 0.0;
  for (double v : m.cellVolume) {
    EXPECT_GT(v, 0.0);
    sum += v;
  }
  EXPECT_NEAR(sum, box, 1e-12 * box);
  const int perCube = GetParam().cells == BoxCells::Tetrahedra ? 6
                      : GetParam().cells == BoxCells::Prisms   ? 2
                                                               : 1;
  if (GetParam().cells != BoxCells::Mixed) {
    EXPECT_EQ(m.numCells(), 5 * 4 * 6 * perCube);
  }
}

TEST_P(UnstructuredBox, CellsAreClosedAndCentroidsInside) {
  const Mesh m = buildMesh(boxMesh(spec()));
  for (int c = 0; c < m.numCells(); ++c) {
    Point sum{0.0, 0.0, 0.0};
    double scale = 0.0;
    for (int f : m.cellFaces.row(c)) {
      const double sign = m.owner[std::size_t(f)] == c ? 1.0 : -1.0;
      for (std::size_t a = 0; a < 3; ++a) {
        sum[a] += sign * m.faceArea[std::size_t(f)][a];
        scale = std::max(scale, std::abs(m.faceArea[std::size_t(f)][a]));
      }
    }
    for (std::size_t a = 0; a < 3; ++a) {
      EXPECT_NEAR(sum[a], 0.0, 1e-12 * scale) << "cell " << c;
      EXPECT_GT(m.cellCentroid[std::size_t(c)][a], kLo[a]);
      EXPECT_LT(m.cellCentroid[std::size_t(c)][a], kHi[a]);
    }
    // Outward normals: each face's area vector leaves the cell's centroid.
    for (int f : m.cellFaces.row(c)) {
      const double sign = m.owner[std::size_t(f)] == c ? 1.0 : -1.0;
      double d = 0.0;
      for (std::size_t a = 0; a < 3; ++a)
        d += (m.faceCentroid[std::size_t(f)][a] - m.cellCentroid[std::size_t(c)][a]) *
             m.faceArea[std::size_t(f)][a];
      EXPECT_GT(sign * d, 0.0) << "cell " << c << " face " << f;
    }
  }
}

TEST_P(UnstructuredBox, BoundarySidesSumToTheirAreaVectors) {
  const Mesh m = buildMesh(boxMesh(spec()));
  std::vector<Point> sum(7, Point{0.0, 0.0, 0.0});
  for (int f = 0; f < m.numFaces(); ++f) {
    if (m.neighbour[std::size_t(f)] >= 0) {
      EXPECT_EQ(m.faceTag[std::size_t(f)], -1);
      continue;
    }
    const int tag = m.faceTag[std::size_t(f)];
    ASSERT_GE(tag, 1);
    ASSERT_LE(tag, 6);
    for (std::size_t a = 0; a < 3; ++a)
      sum[std::size_t(tag)][a] += m.faceArea[std::size_t(f)][a];
  }
  for (std::size_t axis = 0; axis < 3; ++axis) {
    const std::size_t b = (axis + 1) % 3, c = (axis + 2) % 3;
    const double area = (kHi[b] - kLo[b]) * (kHi[c] - kLo[c]);
    for (int side = 0; side < 2; ++side) {
      const Point& s = sum[2 * axis + std::size_t(side) + 1];
      for (std::size_t a = 0; a < 3; ++a)
        EXPECT_NEAR(s[a], a == axis ? (side == 0 ? -area : area) : 0.0, 1e-12 * area)
            << "axis " << axis << " side " << side;
    }
  }
  EXPECT_EQ(m.tagNames.at(1), "xlo");
  EXPECT_EQ(m.tagNames.at(6), "zhi");
}

TEST_P(UnstructuredBox, ConnectivityIsConsistent) {
  const Mesh m = buildMesh(boxMesh(spec()));
  std::vector<int> rows(std::size_t(m.numFaces()), 0);
  int cellFaceSum = 0, boundary = 0;
  for (int c = 0; c < m.numCells(); ++c) {
    EXPECT_EQ(int(m.cellFaces.row(c).size()), faceCount(m.cellShapes[std::size_t(c)]));
    for (int f : m.cellFaces.row(c)) {
      ++rows[std::size_t(f)];
      EXPECT_TRUE(m.owner[std::size_t(f)] == c || m.neighbour[std::size_t(f)] == c);
    }
    cellFaceSum += int(m.cellFaces.row(c).size());
  }
  for (int f = 0; f < m.numFaces(); ++f) {
    const bool interior = m.neighbour[std::size_t(f)] >= 0;
    boundary += interior ? 0 : 1;
    EXPECT_EQ(rows[std::size_t(f)], interior ? 2 : 1) << "face " << f;
    if (interior) {
      EXPECT_LT(m.owner[std::size_t(f)], m.neighbour[std::size_t(f)]);
    }
    if (f > 0) {
      EXPECT_LE(m.owner[std::size_t(f) - 1], m.owner[std::size_t(f)]);
    }
  }
  EXPECT_EQ(m.numFaces(), (cellFaceSum + boundary) / 2);
  for (int v = 0; v < m.numNodes(); ++v)
    for (int c : m.nodeCells.row(v)) {
      const auto nodes = m.cellNodes.row(c);
      EXPECT_NE(std::find(nodes.begin(), nodes.end(), v), nodes.end());
    }
  EXPECT_EQ(m.nodeCells.indices.size(), m.cellNodes.indices.size());
}

TEST_P(UnstructuredBox, ColoringsAreValid) {
  const Mesh m = buildMesh(boxMesh(spec()));
  const Coloring faces = colorFaces(m);
  for (int c = 0; c < m.numCells(); ++c) {
    std::set<int> seen;
    for (int f : m.cellFaces.row(c))
      EXPECT_TRUE(seen.insert(faces.color[std::size_t(f)]).second) << "cell " << c;
  }
  const Coloring cells = colorCells(m);
  for (int f = 0; f < m.numFaces(); ++f) {
    if (m.neighbour[std::size_t(f)] >= 0) {
      EXPECT_NE(cells.color[std::size_t(m.owner[std::size_t(f)])],
                cells.color[std::size_t(m.neighbour[std::size_t(f)])]);
    }
  }
  for (int c : faces.color)
    EXPECT_LT(c, faces.numColors);
  for (int c : cells.color)
    EXPECT_LT(c, cells.numColors);
  std::printf("colors: %d for faces, %d for cells\n", faces.numColors, cells.numColors);
}

// The greedy coloring by its definition: items in index order, each with the smallest color that
// no earlier item sharing one of its cells has; so each color below an item's own is held by an
// earlier item beside it, and none of its neighbours holds its own.
void expectGreedyColoring(std::span<const int> first, std::span<const int> second,
                          const Csr& cellItems, const Coloring& coloring) {
  for (std::size_t f = 0; f < first.size(); ++f) {
    std::set<int> earlier;
    for (int cell : {first[f], second[f]}) {
      if (cell < 0)
        continue;
      for (int other : cellItems.row(cell)) {
        if (std::size_t(other) < f)
          earlier.insert(coloring.color[std::size_t(other)]);
        if (std::size_t(other) != f) {
          ASSERT_NE(coloring.color[std::size_t(other)], coloring.color[f]) << "item " << f;
        }
      }
    }
    for (int c = 0; c < coloring.color[f]; ++c)
      ASSERT_TRUE(earlier.count(c)) << "item " << f << " skipped color " << c;
    ASSERT_LT(coloring.color[f], coloring.numColors);
  }
}

TEST_P(UnstructuredBox, FacesAndNodeNeighbourPairsAreColoredGreedily) {
  const Mesh m = buildMesh(boxMesh(spec()));
  const Coloring faces = colorFaces(m);
  expectGreedyColoring(m.owner, m.neighbour, m.cellFaces, faces);
  const CellPairs pairs = nodeNeighbourPairs(m);
  const Coloring colored = colorPairs(pairs);
  expectGreedyColoring(pairs.first, pairs.second, pairs.cellPairs, colored);
  // Past 64 colors the bitsets take a second word.
  std::printf("colors: %d for faces, %d for node-neighbour pairs\n", faces.numColors,
              colored.numColors);
}

TEST_P(UnstructuredBox, RcmReducesBandwidthAndKeepsGeometry) {
  const Mesh m = buildMesh(boxMesh(spec()));
  const std::vector<int> order = reverseCuthillMcKee(m);
  const Mesh r = renumbered(m, order);
  std::printf("bandwidth: %d before RCM, %d after\n", bandwidth(m), bandwidth(r));
  if (GetParam().shuffle) {
    EXPECT_LT(bandwidth(r), bandwidth(m));
  }
  for (int n = 0; n < r.numCells(); ++n)
    EXPECT_NEAR(r.cellVolume[std::size_t(n)], m.cellVolume[std::size_t(order[std::size_t(n)])],
                1e-14);
  for (int f = 1; f < r.numFaces(); ++f)
    EXPECT_LE(r.owner[std::size_t(f) - 1], r.owner[std::size_t(f)]);
  EXPECT_EQ(r.numFaces(), m.numFaces());
}

INSTANTIATE_TEST_SUITE_P(
    Unstructured, UnstructuredBox,
    ::testing::Values(Case{BoxCells::Hexahedra, false}, Case{BoxCells::Hexahedra, true},
                      Case{BoxCells::Prisms, false}, Case{BoxCells::Prisms, true},
                      Case{BoxCells::Tetrahedra, false}, Case{BoxCells::Tetrahedra, true},
                      Case{BoxCells::Mixed, false}, Case{BoxCells::Mixed, true}));

MeshDescription twoTets() {
  MeshDescription d;
  d.nodes = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, -1}};
  d.cellShapes = {CellShape::Tetrahedron, CellShape::Tetrahedron};
  d.cellNodes.appendRow(std::vector<int>{0, 1, 2, 3});
  d.cellNodes.appendRow(std::vector<int>{0, 2, 1, 4});
  return d;
}

void expectThrowNaming(const MeshDescription& d, const std::string& what) {
  try {
    buildMesh(d);
    FAIL() << "no exception, expected one naming " << what;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(UnstructuredMesh, TwoTetsShareOneFace) {
  MeshDescription d = twoTets();
  d.boundaryFaceNodes.appendRow(std::vector<int>{0, 3, 1});
  d.boundaryTags.push_back(7);
  const Mesh m = buildMesh(d);
  EXPECT_EQ(m.numFaces(), 7);
  EXPECT_EQ(m.owner[0], 0);
  EXPECT_EQ(m.neighbour[0], 1);
  EXPECT_NEAR(m.faceArea[0][2], -0.5, 1e-15); // leaves cell 0 downwards
  int tagged = 0;
  for (int t : m.faceTag)
    tagged += t == 7 ? 1 : 0;
  EXPECT_EQ(tagged, 1);
  EXPECT_NEAR(m.cellVolume[0], 1.0 / 6.0, 1e-15);
  EXPECT_NEAR(m.cellVolume[1], 1.0 / 6.0, 1e-15);
}

TEST(UnstructuredMesh, MirroredCellIsReoriented) {
  MeshDescription d = twoTets();
  d.cellNodes = {};
  d.cellNodes.appendRow(std::vector<int>{0, 2, 1, 3}); // negative in Gmsh's convention
  d.cellNodes.appendRow(std::vector<int>{0, 2, 1, 4});
  const Mesh m = buildMesh(d);
  EXPECT_NEAR(m.cellVolume[0], 1.0 / 6.0, 1e-15);
  EXPECT_NEAR(m.faceArea[0][2], -0.5, 1e-15);
}

TEST(UnstructuredMesh, MalformedDescriptionsThrowNamingTheCellOrFace) {
  MeshDescription outOfRange = twoTets();
  outOfRange.cellNodes.indices[5] = 9;
  expectThrowNaming(outOfRange, "cell 1");

  MeshDescription wrongCount = twoTets();
  wrongCount.cellShapes[1] = CellShape::Pyramid;
  expectThrowNaming(wrongCount, "cell 1");

  MeshDescription shared = twoTets();
  shared.nodes.push_back({0, 0, 2});
  shared.cellShapes.push_back(CellShape::Tetrahedron);
  shared.cellNodes.appendRow(std::vector<int>{0, 1, 2, 5});
  expectThrowNaming(shared, "shared by 3 cells: 0 1 2");

  MeshDescription stray = twoTets();
  stray.boundaryFaceNodes.appendRow(std::vector<int>{1, 2, 4, 3});
  stray.boundaryTags.push_back(1);
  expectThrowNaming(stray, "boundary face 0");

  MeshDescription interior = twoTets();
  interior.boundaryFaceNodes.appendRow(std::vector<int>{0, 1, 2});
  interior.boundaryTags.push_back(1);
  expectThrowNaming(interior, "interior face between cells 0 and 1");
}

TEST(UnstructuredMesh, RenumberingRejectsNonPermutations) {
  const Mesh m = buildMesh(twoTets());
  EXPECT_THROW(renumbered(m, std::vector<int>{0, 0}), std::invalid_argument);
  EXPECT_THROW(renumbered(m, std::vector<int>{0}), std::invalid_argument);
  EXPECT_THROW(boxMesh({.cells = BoxCells::Mixed}), std::invalid_argument);
}

} // namespace
} // namespace tessera::unstructured

namespace tessera::unstructured {
namespace {

TEST(PlanarLayer, RefusesWhatIsNoPlanarMesh) {
  PlanarMeshDescription planar;
  planar.nodes = {{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}};
  planar.cellNodes.appendRow(std::vector<int>{0, 1, 2});
  EXPECT_NO_THROW(planarLayer(planar, 0.5));
  EXPECT_THROW(planarLayer(planar, 0.0), std::invalid_argument);
  PlanarMeshDescription pentagon = planar;
  pentagon.cellNodes.appendRow(std::vector<int>{0, 1, 2, 0, 1});
  EXPECT_THROW(planarLayer(pentagon, 1.0), std::invalid_argument);
  PlanarMeshDescription outside = planar;
  outside.boundaryEdgeNodes.appendRow(std::vector<int>{2, 3});
  outside.boundaryTags.push_back(1);
  EXPECT_THROW(planarLayer(outside, 1.0), std::invalid_argument);
}

} // namespace
} // namespace tessera::unstructured
