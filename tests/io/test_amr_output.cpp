// AmrSeriesWriter round trip: leaf patches of a small forest, split over however many ranks run
// the suite, written as VTK's overlapping AMR and read back with VTK's own AMR reader: levels,
// spacing, origin, boxes, the blocks of refined-away patches with the average of the cells below
// them, blanking of covered cells, and the values written. The fields are bilinear (trilinear in
// 3D), so the average of the finer cells below a cell is the field at its centre: every block's
// expected value comes from the field itself, not from the writer.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <mpi.h>
#include <sstream>
#include <string>
#include <vector>
#include <vtkAMRBox.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkDataSetAttributes.h>
#include <vtkOverlappingAMR.h>
#include <vtkSmartPointer.h>
#include <vtkUniformGrid.h>
#include <vtkXMLUniformGridAMRReader.h>

#include "io/amr_output.hpp"

namespace tessera::io {
namespace {

namespace fs = std::filesystem;

struct Leaf {
  int level;
  int at[3]; // place on its level's grid of patches
  int id;
};

int rankOf() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// The field written: density f(x) and a velocity (g(x), -f(x), 0); bilinear or trilinear.
double f(const double* x) {
  return 1.0 + x[0] + 2.0 * x[1] + 0.5 * x[0] * x[1] + 0.25 * x[2] * (1.0 + x[0]);
}
double g(const double* x) {
  return 3.0 - x[0] * x[1] + x[2];
}

// This rank's share of the leaves (contiguous in their global order) as a PatchMesh with fields.
struct LocalPart {
  PatchMesh mesh;
  std::vector<CellField> fields;
};
LocalPart share(const std::vector<Leaf>& leaves, int dim, int n, const double* origin,
                double coarseDx) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::size_t first = leaves.size() * std::size_t(rank) / std::size_t(ranks);
  const std::size_t last = leaves.size() * std::size_t(rank + 1) / std::size_t(ranks);
  LocalPart part;
  part.mesh.dim = dim;
  part.mesh.cellsPerAxis = n;
  part.fields = {{"density", 1, {}}, {"velocity", 3, {}}};
  for (std::size_t p = first; p < last; ++p) {
    const Leaf& leaf = leaves[p];
    const double dx = std::ldexp(coarseDx, -leaf.level);
    for (int a = 0; a < 3; ++a) {
      part.mesh.origin.push_back(a < dim ? origin[a] + leaf.at[a] * n * dx : 0.0);
      part.mesh.dx.push_back(a < dim ? dx : 0.0);
    }
    part.mesh.patchId.push_back(leaf.id);
    part.mesh.level.push_back(leaf.level);
    const int cells = dim == 2 ? n * n : n * n * n;
    for (int c = 0; c < cells; ++c) {
      const int index[3] = {c % n, c / n % n, dim == 2 ? 0 : c / n / n};
      double x[3] = {0.0, 0.0, 0.0};
      for (int a = 0; a < dim; ++a)
        x[a] = origin[a] + (leaf.at[a] * n + index[a] + 0.5) * dx;
      part.fields[0].values.push_back(f(x));
      part.fields[1].values.insert(part.fields[1].values.end(), {g(x), -f(x), 0.0});
    }
  }
  return part;
}

vtkSmartPointer<vtkOverlappingAMR> readAll(const fs::path& file) {
  vtkNew<vtkXMLUniformGridAMRReader> reader;
  reader->SetFileName(file.c_str());
  reader->SetMaximumLevelsToReadByDefault(0); // every level
  reader->Update();
  vtkSmartPointer<vtkOverlappingAMR> amr = vtkOverlappingAMR::SafeDownCast(reader->GetOutput());
  return amr;
}

// Checks every block's cells against the fields, and its blanking against `covered` (whether a
// block of the next level lies over the block).
template <class Covered>
void expectBlocksHoldTheFields(vtkOverlappingAMR* amr, int dim, const double* origin,
                               Covered covered, int& visibleCells) {
  visibleCells = 0;
  for (unsigned level = 0; level < amr->GetNumberOfLevels(); ++level)
    for (unsigned b = 0; b < amr->GetNumberOfDataSets(level); ++b) {
      vtkUniformGrid* grid = amr->GetDataSet(level, b);
      ASSERT_NE(grid, nullptr);
      vtkDataArray* density = grid->GetCellData()->GetArray("density");
      vtkDataArray* velocity = grid->GetCellData()->GetArray("velocity");
      vtkDataArray* ghosts = grid->GetCellData()->GetArray(vtkDataSetAttributes::GhostArrayName());
      vtkDataArray* levels = grid->GetCellData()->GetArray("level");
      ASSERT_TRUE(density && velocity && ghosts && levels);
      EXPECT_EQ(velocity->GetNumberOfComponents(), 3);
      for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) {
        double bounds[6];
        grid->GetCellBounds(c, bounds);
        double x[3] = {0.0, 0.0, 0.0};
        for (int a = 0; a < dim; ++a)
          x[a] = 0.5 * (bounds[2 * a] + bounds[2 * a + 1]);
        EXPECT_NEAR(density->GetTuple1(c), f(x), 1e-13 * std::fabs(f(x)) + 1e-14);
        EXPECT_NEAR(velocity->GetComponent(c, 0), g(x), 1e-13 * std::fabs(g(x)) + 1e-14);
        EXPECT_NEAR(velocity->GetComponent(c, 1), -f(x), 1e-13 * std::fabs(f(x)) + 1e-14);
        EXPECT_EQ(levels->GetTuple1(c), double(level));
        const bool refined = (int(ghosts->GetTuple1(c)) & vtkDataSetAttributes::REFINEDCELL) != 0;
        EXPECT_EQ(refined, covered(int(level), x))
            << "level " << level << " at " << x[0] << ", " << x[1];
        visibleCells += refined ? 0 : 1;
      }
    }
  (void)origin;
}

class AmrOutput : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tessera_amr_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    if (rankOf() == 0) {
      fs::remove_all(dir_);
      fs::create_directories(dir_);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  void TearDown() override {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rankOf() == 0)
      fs::remove_all(dir_);
  }
  fs::path dir_;
};

// 2x2 root patches of 4^2 cells; root (1,1) refined, and its child (3,3) refined again.
const std::vector<Leaf> kLeaves2D = {
    {0, {0, 0, 0}, 0}, {0, {1, 0, 0}, 1}, {0, {0, 1, 0}, 2}, {1, {2, 2, 0}, 3}, {1, {3, 2, 0}, 4},
    {1, {2, 3, 0}, 5}, {2, {6, 6, 0}, 6}, {2, {7, 6, 0}, 7}, {2, {6, 7, 0}, 8}, {2, {7, 7, 0}, 9}};

TEST_F(AmrOutput, NestedLevelsBlankingAndValuesIn2D) {
  const double origin[3] = {-1.0, 0.5, 0.0};
  const LocalPart part = share(kLeaves2D, 2, 4, origin, 0.25);
  AmrSeriesWriter writer(dir_, "flow", MPI_COMM_WORLD);
  const fs::path file = writer.write(7, 0.125, part.mesh, part.fields);
  EXPECT_EQ(file, dir_ / "flow_000007.vthb");

  const auto amr = readAll(file);
  ASSERT_NE(amr, nullptr);
  ASSERT_EQ(amr->GetNumberOfLevels(), 3u);
  // Every level covers what its own and the finer patches cover: 4 roots, 4 children of root
  // (1,1), 4 children of its child (3,3).
  for (unsigned level = 0; level < 3; ++level) {
    EXPECT_EQ(amr->GetNumberOfDataSets(level), 4u);
    double spacing[3];
    amr->GetSpacing(level, spacing);
    EXPECT_DOUBLE_EQ(spacing[0], std::ldexp(0.25, -int(level)));
    EXPECT_DOUBLE_EQ(spacing[1], std::ldexp(0.25, -int(level)));
  }
  const double* amrOrigin = amr->GetOrigin();
  EXPECT_EQ(amrOrigin[0], -1.0);
  EXPECT_EQ(amrOrigin[1], 0.5);
  // Root (1,1) covers [0, 1] x [1.5, 2.5]; its child (3,3) covers [0.5, 1] x [2, 2.5].
  const auto covered = [](int level, const double* x) {
    if (level == 0)
      return x[0] > 0.0 && x[1] > 1.5;
    if (level == 1)
      return x[0] > 0.5 && x[1] > 2.0;
    return false;
  };
  int visible = 0;
  expectBlocksHoldTheFields(amr, 2, origin, covered, visible);
  EXPECT_EQ(visible, 10 * 16); // the leaves' cells, each once

  // Boxes on each level's lattice from the origin; refined-away patches have patch_id -1.
  const vtkAMRBox& box = amr->GetAMRBox(2, 3);
  EXPECT_EQ(box.GetLoCorner()[0], 28);
  EXPECT_EQ(box.GetLoCorner()[1], 28);
  int refinedAway = 0;
  for (unsigned level = 0; level < 3; ++level)
    for (unsigned b = 0; b < 4; ++b)
      refinedAway +=
          amr->GetDataSet(level, b)->GetCellData()->GetArray("patch_id")->GetTuple1(0) < 0;
  EXPECT_EQ(refinedAway, 2);

  // The series: a .pvd and a .vthb.series with this step; no folder of a step half-written.
  MPI_Barrier(MPI_COMM_WORLD);
  std::stringstream pvd, series;
  pvd << std::ifstream(dir_ / "flow.pvd").rdbuf();
  series << std::ifstream(dir_ / "flow.vthb.series").rdbuf();
  EXPECT_NE(pvd.str().find("timestep=\"0.125\" part=\"0\" file=\"flow_000007.vthb\""),
            std::string::npos)
      << pvd.str();
  EXPECT_NE(series.str().find("{\"name\": \"flow_000007.vthb\", \"time\": 0.125}"),
            std::string::npos)
      << series.str();
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().find(".writing"), std::string::npos);
}

TEST_F(AmrOutput, AStepWrittenAgainReplacesItsFiles) {
  const double origin[3] = {0.0, 0.0, 0.0};
  const LocalPart part = share(kLeaves2D, 2, 4, origin, 0.25);
  AmrSeriesWriter writer(dir_, "flow", MPI_COMM_WORLD);
  writer.write(0, 0.0, part.mesh, part.fields);
  writer.write(5, 0.5, part.mesh, part.fields);
  writer.write(5, 0.5, part.mesh, part.fields);
  ASSERT_EQ(writer.written().size(), 2u);
  EXPECT_EQ(writer.written()[1].second, "flow_000005.vthb");
  const auto amr = readAll(dir_ / "flow_000005.vthb");
  ASSERT_EQ(amr->GetNumberOfLevels(), 3u);
}

TEST_F(AmrOutput, AveragesRefinedPatchesIn3D) {
  // 2x1x1 roots of 2^3 cells; root (1,0,0) refined into its 8 children.
  std::vector<Leaf> leaves{{0, {0, 0, 0}, 0}};
  for (int c = 0; c < 8; ++c)
    leaves.push_back({1, {2 + (c & 1), c >> 1 & 1, c >> 2 & 1}, 1 + c});
  const double origin[3] = {0.5, -0.25, 2.0};
  const LocalPart part = share(leaves, 3, 2, origin, 0.5);
  AmrSeriesWriter writer(dir_, "cube", MPI_COMM_WORLD);
  const auto amr = readAll(writer.write(1, 1.0, part.mesh, part.fields));
  ASSERT_EQ(amr->GetNumberOfLevels(), 2u);
  EXPECT_EQ(amr->GetNumberOfDataSets(0), 2u);
  EXPECT_EQ(amr->GetNumberOfDataSets(1), 8u);
  int visible = 0;
  expectBlocksHoldTheFields(
      amr, 3, origin, [](int level, const double* x) { return level == 0 && x[0] > 1.5; }, visible);
  EXPECT_EQ(visible, 9 * 8);
}

TEST_F(AmrOutput, PatchesOffTheirLevelsLatticeAreRefusedOnEveryRank) {
  const double origin[3] = {0.0, 0.0, 0.0};
  LocalPart part = share(kLeaves2D, 2, 4, origin, 0.25);
  // The last leaf's rank moves it by a third of a cell: no longer on its level's lattice.
  if (!part.mesh.origin.empty() && rankOf() == [] {
        int ranks = 1;
        MPI_Comm_size(MPI_COMM_WORLD, &ranks);
        return ranks - 1;
      }())
    part.mesh.origin[part.mesh.origin.size() - 3] += 0.0625 / 3;
  AmrSeriesWriter writer(dir_, "flow", MPI_COMM_WORLD);
  EXPECT_THROW(writer.write(0, 0.0, part.mesh, part.fields), std::invalid_argument);
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_FALSE(fs::exists(dir_ / "flow.pvd"));
}

} // namespace
} // namespace tessera::io
