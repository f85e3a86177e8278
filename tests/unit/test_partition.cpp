// METIS partitions of box meshes (parts in range, non-empty, balanced, deterministic) and the
// local meshes of every rank of a partitioned mixed mesh: ownership, geometry, faces and tags,
// halo cells and the halo plans, each checked against the global mesh.
#include <algorithm>
#include <gtest/gtest.h>
#include <numeric>
#include <ostream>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/linalg/block_pattern.hpp"
#include "engine/mpi/halo_plan.hpp"
#include "engine/unstructured/box_mesh.hpp"
#include "engine/unstructured/coloring.hpp"
#include "engine/unstructured/mesh.hpp"
#include "engine/unstructured/partition.hpp"
#include "tests/support/mixed_box_mesh.hpp"

namespace tessera::unstructured {
namespace {

// A few thousand cells each: hexahedra, and the four shapes in layers, randomly numbered.
Mesh hexahedronBox() {
  return buildMesh(boxMesh({.nx = 16, .ny = 15, .nz = 12, .cells = BoxCells::Hexahedra}));
}
Mesh largeMixedBox() {
  return test::mixedBoxMesh({.nx = 10, .ny = 9, .nz = 8});
}

std::vector<int> cellsPerPart(const std::vector<int>& partOfCell, int parts) {
  std::vector<int> count(std::size_t(parts), 0);
  for (int p : partOfCell)
    ++count[std::size_t(p)];
  return count;
}

template <typename Call>
void expectInvalidArgumentNaming(Call call, const std::string& what) {
  try {
    call();
    FAIL() << "no exception, expected one naming " << what;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

class PartitionCells : public ::testing::TestWithParam<int> {};

TEST_P(PartitionCells, PartsAreInRangeNonEmptyAndBalanced) {
  const int parts = GetParam();
  for (const Mesh& m : {hexahedronBox(), largeMixedBox()}) {
    ASSERT_GT(m.numCells(), 2000);
    const std::vector<int> part = partitionCells(m, parts);
    ASSERT_EQ(int(part.size()), m.numCells());
    for (int p : part)
      ASSERT_TRUE(p >= 0 && p < parts) << p;
    const std::vector<int> count = cellsPerPart(part, parts);
    const double ideal = double(m.numCells()) / parts;
    for (int c : count) {
      EXPECT_GT(c, 0);
      EXPECT_LE(c, 1.1 * ideal) << "of " << m.numCells() << " cells in " << parts << " parts";
    }
  }
}

TEST_P(PartitionCells, IsDeterministic) {
  const Mesh m = largeMixedBox();
  EXPECT_EQ(partitionCells(m, GetParam()), partitionCells(m, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Parts, PartitionCells, ::testing::Values(2, 3, 4));

TEST(Partition, OnePartPutsEveryCellInPartZero) {
  const Mesh m = largeMixedBox();
  EXPECT_EQ(partitionCells(m, 1), std::vector<int>(std::size_t(m.numCells()), 0));
}

TEST(Partition, RejectsPartCountsOutOfRange) {
  const Mesh m = buildMesh(boxMesh({.nx = 3, .ny = 1, .nz = 1}));
  expectInvalidArgumentNaming([&] { partitionCells(m, 0); }, "0 parts for 3 cells");
  expectInvalidArgumentNaming([&] { partitionCells(m, 4); }, "4 parts for 3 cells");
}

// The cells that share an interior face with each cell, from the global faces.
std::vector<std::set<int>> faceNeighbours(const Mesh& m) {
  std::vector<std::set<int>> nb(std::size_t(m.numCells()));
  for (int f = 0; f < m.numFaces(); ++f) {
    const int a = m.owner[std::size_t(f)], b = m.neighbour[std::size_t(f)];
    if (b < 0)
      continue;
    nb[std::size_t(a)].insert(b);
    nb[std::size_t(b)].insert(a);
  }
  return nb;
}

std::vector<int> toGlobal(std::span<const int> localCells, const LocalMesh& lm) {
  std::vector<int> global;
  for (int c : localCells)
    global.push_back(lm.globalCell[std::size_t(c)]);
  return global;
}

// Where rank's plan lists `other`, -1 if nowhere.
int planRow(const LocalMesh& lm, int other) {
  const auto& ranks = lm.halo.neighbourRanks;
  const auto it = std::find(ranks.begin(), ranks.end(), other);
  return it == ranks.end() ? -1 : int(it - ranks.begin());
}

struct Partitioning {
  const char* name;
  int parts;
  bool metis; // else round robin over the shuffled cells: scattered parts, large halos
};

void PrintTo(const Partitioning& p, std::ostream* os) {
  *os << p.name;
}

class LocalMeshOfEveryRank : public ::testing::TestWithParam<Partitioning> {
protected:
  void SetUp() override {
    const Partitioning& p = GetParam();
    if (p.metis) {
      part = partitionCells(global, p.parts);
    } else {
      for (int c = 0; c < global.numCells(); ++c)
        part.push_back(c % p.parts);
    }
    for (int r = 0; r < p.parts; ++r)
      locals.push_back(localMesh(global, part, r));
  }

  bool owns(int rank, int globalCell) const { return part[std::size_t(globalCell)] == rank; }

  const Mesh global = test::mixedBoxMesh({});
  std::vector<int> part;
  std::vector<LocalMesh> locals;
};

TEST_P(LocalMeshOfEveryRank, OwnedCellsCoverEveryCellOnceInAscendingOrder) {
  std::vector<int> owners(std::size_t(global.numCells()), 0);
  for (int r = 0; r < int(locals.size()); ++r) {
    const LocalMesh& lm = locals[std::size_t(r)];
    const std::vector<int> owned(lm.globalCell.begin(), lm.globalCell.begin() + lm.numOwned);
    EXPECT_TRUE(std::is_sorted(owned.begin(), owned.end()));
    for (int g : owned) {
      EXPECT_TRUE(owns(r, g));
      ++owners[std::size_t(g)];
    }
    EXPECT_EQ(int(lm.globalCell.size()), lm.mesh.numCells());
  }
  for (int n : owners)
    EXPECT_EQ(n, 1);
}

TEST_P(LocalMeshOfEveryRank, CellsKeepShapeNodesVolumeAndCentroid) {
  for (const LocalMesh& lm : locals) {
    for (int c = 0; c < lm.mesh.numCells(); ++c) {
      const int g = lm.globalCell[std::size_t(c)];
      ASSERT_EQ(lm.mesh.cellShapes[std::size_t(c)], global.cellShapes[std::size_t(g)]);
      const auto localNodes = lm.mesh.cellNodes.row(c);
      const auto globalNodes = global.cellNodes.row(g);
      ASSERT_EQ(localNodes.size(), globalNodes.size());
      for (std::size_t i = 0; i < localNodes.size(); ++i)
        EXPECT_EQ(lm.mesh.nodes[std::size_t(localNodes[i])],
                  global.nodes[std::size_t(globalNodes[i])]);
      // Same nodes, same faces; a face may start from another node where its owner changed.
      const double scale = global.cellVolume[std::size_t(g)];
      EXPECT_NEAR(lm.mesh.cellVolume[std::size_t(c)], scale, 1e-12 * scale);
      for (int d = 0; d < 3; ++d)
        EXPECT_NEAR(lm.mesh.cellCentroid[std::size_t(c)][std::size_t(d)],
                    global.cellCentroid[std::size_t(g)][std::size_t(d)], 1e-13);
    }
  }
}

TEST_P(LocalMeshOfEveryRank, NodesAreTheUsedGlobalNodesInAscendingOrder) {
  for (const LocalMesh& lm : locals) {
    std::vector<int> globalNode(std::size_t(lm.mesh.numNodes()), -1);
    std::set<int> used;
    for (int c = 0; c < lm.mesh.numCells(); ++c) {
      const auto localNodes = lm.mesh.cellNodes.row(c);
      const auto globalNodes = global.cellNodes.row(lm.globalCell[std::size_t(c)]);
      ASSERT_EQ(localNodes.size(), globalNodes.size());
      for (std::size_t i = 0; i < localNodes.size(); ++i) {
        int& mapped = globalNode[std::size_t(localNodes[i])];
        EXPECT_TRUE(mapped == -1 || mapped == globalNodes[i]);
        mapped = globalNodes[i];
        used.insert(globalNodes[i]);
      }
    }
    EXPECT_EQ(globalNode, std::vector<int>(used.begin(), used.end()));
  }
}

TEST_P(LocalMeshOfEveryRank, OwnedCellsKeepTheirFacesAndTags) {
  const auto otherCell = [](const Mesh& m, int f, int c) {
    return m.owner[std::size_t(f)] == c ? m.neighbour[std::size_t(f)] : m.owner[std::size_t(f)];
  };
  for (const LocalMesh& lm : locals) {
    for (int c = 0; c < lm.numOwned; ++c) {
      const int g = lm.globalCell[std::size_t(c)];
      const auto localFaces = lm.mesh.cellFaces.row(c);
      const auto globalFaces = global.cellFaces.row(g);
      ASSERT_EQ(localFaces.size(), globalFaces.size());
      // Rows follow the shape's face template and the cell nodes kept their order: face k is the
      // same face in both meshes.
      for (std::size_t k = 0; k < localFaces.size(); ++k) {
        const int lf = localFaces[k], gf = globalFaces[k];
        const int localOther = otherCell(lm.mesh, lf, c);
        const int globalOther = otherCell(global, gf, g);
        EXPECT_EQ(lm.mesh.faceTag[std::size_t(lf)], global.faceTag[std::size_t(gf)]);
        if (globalOther < 0) {
          EXPECT_LT(localOther, 0);
        } else {
          ASSERT_GE(localOther, 0);
          EXPECT_EQ(lm.globalCell[std::size_t(localOther)], globalOther);
        }
      }
    }
  }
}

TEST_P(LocalMeshOfEveryRank, InteriorFacesJoinGlobalNeighbours) {
  std::set<std::pair<int, int>> globalPairs;
  for (int f = 0; f < global.numFaces(); ++f)
    if (global.neighbour[std::size_t(f)] >= 0)
      globalPairs.insert({global.owner[std::size_t(f)], global.neighbour[std::size_t(f)]});
  for (const LocalMesh& lm : locals) {
    for (int f = 0; f < lm.mesh.numFaces(); ++f) {
      if (lm.mesh.neighbour[std::size_t(f)] < 0)
        continue;
      const int a = lm.globalCell[std::size_t(lm.mesh.owner[std::size_t(f)])];
      const int b = lm.globalCell[std::size_t(lm.mesh.neighbour[std::size_t(f)])];
      EXPECT_TRUE(globalPairs.count({std::min(a, b), std::max(a, b)})) << a << " " << b;
    }
  }
}

TEST_P(LocalMeshOfEveryRank, HaloCellsAreTheOtherRanksNeighboursOfOwnedCells) {
  const auto neighbours = faceNeighbours(global);
  for (int r = 0; r < int(locals.size()); ++r) {
    std::set<int> expected;
    for (int g = 0; g < global.numCells(); ++g)
      if (owns(r, g))
        for (int nb : neighbours[std::size_t(g)])
          if (!owns(r, nb))
            expected.insert(nb);
    const LocalMesh& lm = locals[std::size_t(r)];
    const std::vector<int> halo(lm.globalCell.begin() + lm.numOwned, lm.globalCell.end());
    EXPECT_EQ(halo, std::vector<int>(expected.begin(), expected.end())) << "rank " << r;
  }
}

TEST_P(LocalMeshOfEveryRank, PlansListTheCellsEachPairExchanges) {
  const auto neighbours = faceNeighbours(global);
  const int parts = int(locals.size());
  for (int a = 0; a < parts; ++a) {
    const LocalMesh& la = locals[std::size_t(a)];
    EXPECT_TRUE(std::is_sorted(la.halo.neighbourRanks.begin(), la.halo.neighbourRanks.end()));
    ASSERT_EQ(la.halo.sendItems.rows(), int(la.halo.neighbourRanks.size()));
    ASSERT_EQ(la.halo.receiveItems.rows(), int(la.halo.neighbourRanks.size()));
    for (int b = 0; b < parts; ++b) {
      // What a sends b: a's cells next to one of b's; what a receives from b: b's cells next to
      // one of a's. Both ascending by global index.
      std::vector<int> sent, received;
      for (int g = 0; g < global.numCells(); ++g) {
        const auto& nb = neighbours[std::size_t(g)];
        const auto touches = [&](int rank) {
          return std::any_of(nb.begin(), nb.end(), [&](int c) { return owns(rank, c); });
        };
        if (b != a && owns(a, g) && touches(b))
          sent.push_back(g);
        if (b != a && owns(b, g) && touches(a))
          received.push_back(g);
      }
      const int row = planRow(la, b);
      if (sent.empty()) {
        EXPECT_EQ(row, -1) << a << " lists " << b;
        continue;
      }
      ASSERT_GE(row, 0) << a << " misses " << b;
      EXPECT_EQ(toGlobal(la.halo.sendItems.row(row), la), sent);
      EXPECT_EQ(toGlobal(la.halo.receiveItems.row(row), la), received);
      for (int c : la.halo.sendItems.row(row))
        EXPECT_LT(c, la.numOwned);
      for (int c : la.halo.receiveItems.row(row))
        EXPECT_GE(c, la.numOwned);

      const LocalMesh& lb = locals[std::size_t(b)];
      const int back = planRow(lb, a);
      ASSERT_GE(back, 0) << b << " misses " << a;
      EXPECT_EQ(toGlobal(la.halo.sendItems.row(row), la),
                toGlobal(lb.halo.receiveItems.row(back), lb));
    }
  }
}

TEST_P(LocalMeshOfEveryRank, PartitionFacesCloseHaloCellsOnly) {
  const auto neighbours = faceNeighbours(global);
  for (const LocalMesh& lm : locals) {
    EXPECT_EQ(lm.partitionTag, 7); // the box tags its sides 1 to 6
    EXPECT_EQ(lm.mesh.tagNames.at(lm.partitionTag), "partition");
    std::vector<int> partitionFaces(lm.globalCell.size(), 0);
    for (int f = 0; f < lm.mesh.numFaces(); ++f) {
      if (lm.mesh.faceTag[std::size_t(f)] != lm.partitionTag)
        continue;
      EXPECT_LT(lm.mesh.neighbour[std::size_t(f)], 0);
      EXPECT_GE(lm.mesh.owner[std::size_t(f)], lm.numOwned);
      ++partitionFaces[std::size_t(lm.mesh.owner[std::size_t(f)])];
    }
    // Each halo cell has one per global neighbour the rank does not hold.
    const std::set<int> held(lm.globalCell.begin(), lm.globalCell.end());
    for (std::size_t c = std::size_t(lm.numOwned); c < lm.globalCell.size(); ++c) {
      const auto& nb = neighbours[std::size_t(lm.globalCell[c])];
      const auto missing =
          std::count_if(nb.begin(), nb.end(), [&](int g) { return !held.count(g); });
      EXPECT_EQ(partitionFaces[c], int(missing));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Partitions, LocalMeshOfEveryRank,
                         ::testing::Values(Partitioning{"metis4", 4, true},
                                           Partitioning{"roundRobin3", 3, false}),
                         [](const ::testing::TestParamInfo<Partitioning>& p) {
                           return std::string(p.param.name);
                         });

// The numbering of the distributed implicit solver (solvers/distributed_unstructured_implicit):
// owned cells color by color under the global coloring, boundary cells first in each color, halo
// cells after them in no color. Renumbered, the plans still pair cell for cell; split by color,
// each color's plans pair too and carry only that color; and no two face neighbours (owned or
// halo) of one color exist, so the rows of a color are independent on every rank.
TEST_P(LocalMeshOfEveryRank, ColorOrderedSharesStillPairAndSplitByColor) {
  const Coloring globalColors = colorCells(global);
  std::vector<LocalMesh> ordered;
  std::vector<std::vector<int>> colorOfRow;
  for (const LocalMesh& lm : locals) {
    Coloring colors;
    colors.numColors = globalColors.numColors;
    for (int g : lm.globalCell)
      colors.color.push_back(globalColors.color[std::size_t(g)]);
    std::vector<bool> sent(lm.globalCell.size(), false);
    for (int c : lm.halo.sendItems.indices)
      sent[std::size_t(c)] = true;
    const linalg::ColoredCells colored =
        linalg::colorContiguousCells(lm.mesh, sent, colors, lm.numOwned);
    ordered.push_back(renumbered(lm, colored.newToOld));
    std::vector<int> rowColors;
    for (int old : colored.newToOld)
      rowColors.push_back(colors.color[std::size_t(old)]);
    colorOfRow.push_back(rowColors);

    const linalg::BlockPattern& pattern = colored.pattern;
    ASSERT_EQ(pattern.colorOffsets.back(), lm.numOwned);
    for (int c = 0; c < pattern.numColors(); ++c)
      for (int row = pattern.colorOffsets[std::size_t(c)];
           row < pattern.colorOffsets[std::size_t(c) + 1]; ++row) {
        EXPECT_EQ(rowColors[std::size_t(row)], c);
        EXPECT_EQ(sent[std::size_t(colored.newToOld[std::size_t(row)])],
                  row < pattern.boundaryRows(c).end);
        for (int j = pattern.rowOffsets[std::size_t(row)];
             j < pattern.rowOffsets[std::size_t(row) + 1]; ++j)
          EXPECT_NE(rowColors[std::size_t(pattern.columns[std::size_t(j)])], c)
              << "row " << row << " has a neighbour of its own color";
      }
    const LocalMesh& o = ordered.back();
    EXPECT_EQ(std::set<int>(o.globalCell.begin(), o.globalCell.begin() + o.numOwned),
              std::set<int>(lm.globalCell.begin(), lm.globalCell.begin() + lm.numOwned));
    EXPECT_EQ(std::vector<int>(o.globalCell.begin() + o.numOwned, o.globalCell.end()),
              std::vector<int>(lm.globalCell.begin() + lm.numOwned, lm.globalCell.end()));
  }
  for (std::size_t a = 0; a < ordered.size(); ++a) {
    const auto split = mpi::splitByClass(ordered[a].halo, colorOfRow[a], globalColors.numColors);
    for (int row = 0; row < int(ordered[a].halo.neighbourRanks.size()); ++row) {
      const int b = ordered[a].halo.neighbourRanks[std::size_t(row)];
      const int back = planRow(ordered[std::size_t(b)], int(a));
      ASSERT_GE(back, 0);
      EXPECT_EQ(
          toGlobal(ordered[a].halo.sendItems.row(row), ordered[a]),
          toGlobal(ordered[std::size_t(b)].halo.receiveItems.row(back), ordered[std::size_t(b)]));
      const auto splitBack = mpi::splitByClass(ordered[std::size_t(b)].halo,
                                               colorOfRow[std::size_t(b)], globalColors.numColors);
      for (int c = 0; c < globalColors.numColors; ++c) {
        for (int cell : split[std::size_t(c)].sendItems.row(row))
          EXPECT_EQ(colorOfRow[a][std::size_t(cell)], c);
        EXPECT_EQ(
            toGlobal(split[std::size_t(c)].sendItems.row(row), ordered[a]),
            toGlobal(splitBack[std::size_t(c)].receiveItems.row(back), ordered[std::size_t(b)]));
      }
    }
  }
}

TEST(LocalMesh, RenumberingMustKeepTheOwnedCellsFirst) {
  const Mesh global = test::mixedBoxMesh({});
  std::vector<int> part(std::size_t(global.numCells()), 0);
  part[0] = 1;
  const LocalMesh lm = localMesh(global, part, 1); // one owned cell, its neighbours as halo
  std::vector<int> swapped(std::size_t(lm.mesh.numCells()));
  std::iota(swapped.begin(), swapped.end(), 0);
  std::swap(swapped[0], swapped[1]);
  expectInvalidArgumentNaming([&] { renumbered(lm, swapped); }, "keeping the owned cells first");
}

TEST(LocalMesh, RejectsAWrongSizePartitionAndAnEmptyRank) {
  const Mesh m = buildMesh(boxMesh({.nx = 3, .ny = 1, .nz = 1}));
  expectInvalidArgumentNaming(
      [&] {
        localMesh(m, std::vector<int>{0, 1}, 0);
      },
      "2 entries for 3 cells");
  expectInvalidArgumentNaming(
      [&] {
        localMesh(m, std::vector<int>{0, 1, 0}, 2);
      },
      "rank 2 owns no cell");
}

TEST(LocalMesh, OnePartIsTheGlobalMesh) {
  const Mesh global = test::mixedBoxMesh({});
  const LocalMesh lm = localMesh(global, std::vector<int>(std::size_t(global.numCells()), 0), 0);
  EXPECT_EQ(lm.numOwned, global.numCells());
  for (int c = 0; c < global.numCells(); ++c)
    EXPECT_EQ(lm.globalCell[std::size_t(c)], c);
  const Mesh& m = lm.mesh;
  EXPECT_EQ(m.nodes, global.nodes);
  EXPECT_EQ(m.cellShapes, global.cellShapes);
  EXPECT_EQ(m.cellNodes.indices, global.cellNodes.indices);
  EXPECT_EQ(m.faceNodes.indices, global.faceNodes.indices);
  EXPECT_EQ(m.owner, global.owner);
  EXPECT_EQ(m.neighbour, global.neighbour);
  EXPECT_EQ(m.faceTag, global.faceTag);
  EXPECT_EQ(m.cellFaces.indices, global.cellFaces.indices);
  EXPECT_EQ(m.cellVolume, global.cellVolume);
  EXPECT_EQ(m.cellCentroid, global.cellCentroid);
  EXPECT_EQ(m.faceArea, global.faceArea);
  EXPECT_EQ(m.faceCentroid, global.faceCentroid);
  EXPECT_TRUE(lm.halo.neighbourRanks.empty());
  EXPECT_EQ(lm.halo.sendItems.rows(), 0);
  EXPECT_EQ(lm.halo.receiveItems.rows(), 0);
}

} // namespace
} // namespace tessera::unstructured
