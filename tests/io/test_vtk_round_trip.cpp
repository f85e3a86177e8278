// VtkSeriesWriter round trip: write 2D and 3D patch meshes, read them back with VTK's own XML
// readers and compare every value exactly (the data is binary and zlib is lossless).
#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkObject.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLPUnstructuredGridReader.h>
#include <vtkXMLUnstructuredGridReader.h>
#include <vtkXMLUtilities.h>

#include "io/vtk_output.hpp"

namespace tessera::io {
namespace {

namespace fs = std::filesystem;

// Three 4x4 patches with different origins and cell sizes, the last one on level 1.
PatchMesh mesh2D() {
  PatchMesh m;
  m.dim = 2;
  m.cellsPerAxis = 4;
  m.origin = {-1.5, 0.25, 0.0, -0.5, 0.25, 0.0, -1.5, 1.25, 0.0};
  m.dx = {0.25, 0.25, 0.0, 0.25, 0.25, 0.0, 0.125, 0.1, 0.0};
  m.patchId = {0, 1, 7};
  m.level = {0, 0, 1};
  return m;
}

// Two 2^3 patches side by side in y.
PatchMesh mesh3D() {
  PatchMesh m;
  m.dim = 3;
  m.cellsPerAxis = 2;
  m.origin = {0.1, 0.2, 0.3, 0.1, 0.7, 0.3};
  m.dx = {0.25, 0.25, 0.5, 0.3, 0.25, 0.125};
  m.patchId = {3, 4};
  m.level = {2, 2};
  return m;
}

// The patches [first, last) of a mesh, as one rank would own them.
PatchMesh subMesh(const PatchMesh& m, int first, int last) {
  PatchMesh s = m;
  s.origin.assign(m.origin.begin() + 3 * first, m.origin.begin() + 3 * last);
  s.dx.assign(m.dx.begin() + 3 * first, m.dx.begin() + 3 * last);
  s.patchId.assign(m.patchId.begin() + first, m.patchId.begin() + last);
  s.level.assign(m.level.begin() + first, m.level.begin() + last);
  return s;
}

// Values that differ from cell to cell and from step to step (`seed`): two scalars and a vector.
std::vector<CellField> arraysFor(const PatchMesh& m, double seed) {
  std::vector<CellField> arrays{{"density", 1, {}}, {"pressure", 1, {}}, {"velocity", 3, {}}};
  for (long long c = 0; c < m.numCells(); ++c) {
    arrays[0].values.push_back(std::sin(double(c) + seed));
    arrays[1].values.push_back(1e5 * std::cos(0.37 * double(c)) + seed / 3.0);
    for (int a = 0; a < 3; ++a)
      arrays[2].values.push_back(double(a) - std::sin(0.1 * double(c) * (a + 1) + seed));
  }
  return arrays;
}

// One rank's expected piece.
struct Piece {
  PatchMesh mesh;
  std::vector<CellField> arrays;
  int rank = 0;
};

vtkSmartPointer<vtkUnstructuredGrid> readPvtu(const fs::path& file) {
  vtkNew<vtkXMLPUnstructuredGridReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  return reader->GetOutput();
}

vtkSmartPointer<vtkUnstructuredGrid> readVtu(const fs::path& file) {
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  return reader->GetOutput();
}

// Corner k of a VTK_QUAD (k < 4) or VTK_HEXAHEDRON lies at the cell's lower corner + shift * dx.
constexpr int kCornerShift[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                    {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};

// Checks a grid that holds the given pieces one after another: cell count and types, every array
// value, the integer arrays and the bounds and corners of every cell.
void expectGridHolds(vtkUnstructuredGrid* grid, const std::vector<Piece>& pieces) {
  ASSERT_NE(grid, nullptr);
  long long total = 0;
  for (const Piece& piece : pieces)
    total += piece.mesh.numCells();
  ASSERT_EQ(grid->GetNumberOfCells(), total);

  vtkCellData* data = grid->GetCellData();
  ASSERT_EQ(data->GetNumberOfArrays(), int(pieces.front().arrays.size()) + 3);
  auto* patchId = vtkIntArray::SafeDownCast(data->GetArray("patch_id"));
  auto* level = vtkIntArray::SafeDownCast(data->GetArray("level"));
  auto* rank = vtkIntArray::SafeDownCast(data->GetArray("rank"));
  ASSERT_NE(patchId, nullptr);
  ASSERT_NE(level, nullptr);
  ASSERT_NE(rank, nullptr);

  vtkIdType cell = 0;
  for (const Piece& piece : pieces) {
    const PatchMesh& m = piece.mesh;
    const int n = m.cellsPerAxis;
    const long long perPatch = m.numCells() / m.numPatches();
    for (const CellField& expected : piece.arrays) {
      auto* values = vtkDoubleArray::SafeDownCast(data->GetArray(expected.name.c_str()));
      ASSERT_NE(values, nullptr) << expected.name;
      const int k = expected.components;
      ASSERT_EQ(values->GetNumberOfComponents(), k) << expected.name;
      for (long long c = 0; c < k * m.numCells(); ++c)
        ASSERT_EQ(values->GetValue(k * cell + c), expected.values[c])
            << expected.name << " value " << c;
    }
    for (long long c = 0; c < m.numCells(); ++c, ++cell) {
      const long long p = c / perPatch, local = c % perPatch;
      EXPECT_EQ(grid->GetCellType(cell), m.dim == 2 ? VTK_QUAD : VTK_HEXAHEDRON);
      EXPECT_EQ(patchId->GetValue(cell), m.patchId[p]);
      EXPECT_EQ(level->GetValue(cell), m.level[p]);
      EXPECT_EQ(rank->GetValue(cell), piece.rank);
      const long long index[3] = {local % n, local / n % n, local / n / n};
      double bounds[6];
      grid->GetCellBounds(cell, bounds);
      auto corner = [&](int a, int shift) {
        return a < m.dim ? m.origin[3 * p + a] + double(index[a] + shift) * m.dx[3 * p + a] : 0.0;
      };
      for (int a = 0; a < 3; ++a) {
        EXPECT_EQ(bounds[2 * a], corner(a, 0)) << "cell " << cell << " axis " << a;
        EXPECT_EQ(bounds[2 * a + 1], corner(a, 1)) << "cell " << cell << " axis " << a;
      }
      // The corners in VTK's node order (bounds alone would accept a twisted quad or hexahedron).
      vtkIdType numCorners = 0;
      const vtkIdType* corners = nullptr;
      grid->GetCellPoints(cell, numCorners, corners);
      ASSERT_EQ(numCorners, m.dim == 2 ? 4 : 8);
      for (vtkIdType k = 0; k < numCorners; ++k) {
        const int shift[3] = {kCornerShift[k][0], kCornerShift[k][1], kCornerShift[k][2]};
        double point[3];
        grid->GetPoint(corners[k], point);
        for (int a = 0; a < 3; ++a)
          EXPECT_EQ(point[a], corner(a, shift[a])) << "cell " << cell << " corner " << k;
      }
    }
  }
}

struct SeriesEntry {
  double time;
  std::string file;
};

std::vector<SeriesEntry> readSeries(const fs::path& pvd) {
  vtkSmartPointer<vtkXMLDataElement> root;
  root.TakeReference(vtkXMLUtilities::ReadElementFromFile(pvd.c_str()));
  if (!root)
    throw std::runtime_error("cannot parse " + pvd.string());
  EXPECT_STREQ(root->GetName(), "VTKFile");
  EXPECT_STREQ(root->GetAttribute("type"), "Collection");
  vtkXMLDataElement* collection = root->FindNestedElementWithName("Collection");
  if (!collection)
    throw std::runtime_error(pvd.string() + " has no Collection");
  std::vector<SeriesEntry> entries;
  for (int i = 0; i < collection->GetNumberOfNestedElements(); ++i) {
    vtkXMLDataElement* dataSet = collection->GetNestedElement(i);
    EXPECT_STREQ(dataSet->GetName(), "DataSet");
    entries.push_back(
        {std::stod(dataSet->GetAttribute("timestep")), dataSet->GetAttribute("file")});
  }
  return entries;
}

class VtkRoundTrip : public ::testing::Test {
protected:
  void SetUp() override {
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = fs::temp_directory_path() /
           ("tessera_vtk_" + name + "_" + std::to_string(std::random_device{}()));
    fs::remove_all(dir_);
  }
  void TearDown() override {
    if (!HasFailure())
      fs::remove_all(dir_);
  }

  void expectNoTemporaries() const {
    for (const auto& entry : fs::recursive_directory_iterator(dir_))
      EXPECT_NE(entry.path().extension(), ".tmp") << entry.path();
  }

  fs::path dir_;
};

TEST_F(VtkRoundTrip, NumCellsCountsAllPatches) {
  EXPECT_EQ(mesh2D().numCells(), 3 * 16);
  EXPECT_EQ(mesh3D().numCells(), 2 * 8);
}

TEST_F(VtkRoundTrip, TwoDimensionalSeries) {
  const PatchMesh mesh = mesh2D();
  const std::vector<CellField> step0 = arraysFor(mesh, 0.0), step5 = arraysFor(mesh, 2.5);
  const double time5 = 1.0 / 3.0; // needs all 17 digits to read back exactly

  VtkSeriesWriter writer(dir_, "flow", 0, 1);
  EXPECT_EQ(writer.write(0, 0.0, mesh, step0), dir_ / "flow_000000.pvtu");
  EXPECT_EQ(writer.write(5, time5, mesh, step5), dir_ / "flow_000005.pvtu");
  EXPECT_EQ(writer.seriesPath(), dir_ / "flow.pvd");

  expectGridHolds(readPvtu(dir_ / "flow_000000.pvtu"), {{mesh, step0, 0}});
  expectGridHolds(readPvtu(dir_ / "flow_000005.pvtu"), {{mesh, step5, 0}});
  expectGridHolds(readVtu(dir_ / "flow_000005" / "rank_0.vtu"), {{mesh, step5, 0}});

  const std::vector<SeriesEntry> series = readSeries(writer.seriesPath());
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0].time, 0.0);
  EXPECT_EQ(series[0].file, "flow_000000.pvtu");
  EXPECT_EQ(series[1].time, time5);
  EXPECT_EQ(series[1].file, "flow_000005.pvtu");
  for (const SeriesEntry& entry : series)
    EXPECT_TRUE(fs::exists(dir_ / entry.file)) << entry.file;
  expectNoTemporaries();
}

TEST_F(VtkRoundTrip, ThreeDimensionalHexahedra) {
  const PatchMesh mesh = mesh3D();
  const std::vector<CellField> arrays = arraysFor(mesh, 1.0);
  VtkSeriesWriter writer(dir_ / "nested" / "out", "cube", 0, 1); // missing folders are created
  const fs::path pvtu = writer.write(3, 0.75, mesh, arrays);

  expectGridHolds(readPvtu(pvtu), {{mesh, arrays, 0}});
  expectGridHolds(readVtu(dir_ / "nested" / "out" / "cube_000003" / "rank_0.vtu"),
                  {{mesh, arrays, 0}});
  const std::vector<SeriesEntry> series = readSeries(writer.seriesPath());
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].time, 0.75);
  EXPECT_EQ(series[0].file, "cube_000003.pvtu");
  expectNoTemporaries();
}

TEST_F(VtkRoundTrip, TwoRanksShareOneSummary) {
  const PatchMesh whole = mesh2D();
  const PatchMesh mesh0 = subMesh(whole, 0, 2), mesh1 = subMesh(whole, 2, 3);
  const std::vector<CellField> arrays0 = arraysFor(mesh0, 0.5), arrays1 = arraysFor(mesh1, 7.0);

  // Rank 1 first: it writes only its piece, no summary and no series.
  VtkSeriesWriter writer1(dir_, "run", 1, 2);
  EXPECT_EQ(writer1.write(2, 0.5, mesh1, arrays1), dir_ / "run_000002.pvtu");
  EXPECT_TRUE(fs::exists(dir_ / "run_000002" / "rank_1.vtu"));
  EXPECT_FALSE(fs::exists(dir_ / "run_000002.pvtu"));
  EXPECT_FALSE(fs::exists(dir_ / "run.pvd"));

  VtkSeriesWriter writer0(dir_, "run", 0, 2);
  writer0.write(2, 0.5, mesh0, arrays0);

  expectGridHolds(readPvtu(dir_ / "run_000002.pvtu"), {{mesh0, arrays0, 0}, {mesh1, arrays1, 1}});
  expectGridHolds(readVtu(dir_ / "run_000002" / "rank_1.vtu"), {{mesh1, arrays1, 1}});
  const std::vector<SeriesEntry> series = readSeries(writer0.seriesPath());
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].time, 0.5);
  EXPECT_EQ(series[0].file, "run_000002.pvtu");
  expectNoTemporaries();
}

TEST_F(VtkRoundTrip, RewrittenStepKeepsOneSeriesEntry) {
  const PatchMesh mesh = mesh2D();
  VtkSeriesWriter writer(dir_, "flow", 0, 1);
  writer.write(1, 0.5, mesh, arraysFor(mesh, 0.0));
  const std::vector<CellField> again = arraysFor(mesh, 9.0);
  writer.write(1, 0.5, mesh, again);

  expectGridHolds(readPvtu(dir_ / "flow_000001.pvtu"), {{mesh, again, 0}});
  EXPECT_EQ(readSeries(writer.seriesPath()).size(), 1u);
}

// Patches of one level share the points of their common face, and a finer patch the coarse corners
// it touches: two level-0 patches of 4^2 cells side by side and a level-1 patch on the first one's
// top edge have 25 + 20 + (25 - 3) points, not 75; every cell's corners are still right.
TEST_F(VtkRoundTrip, NeighbouringPatchesSharePoints) {
  PatchMesh mesh;
  mesh.dim = 2;
  mesh.cellsPerAxis = 4;
  mesh.origin = {0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0};
  mesh.dx = {0.25, 0.25, 0.0, 0.25, 0.25, 0.0, 0.125, 0.125, 0.0};
  mesh.patchId = {0, 1, 2};
  mesh.level = {0, 0, 1};
  const std::vector<CellField> arrays = arraysFor(mesh, 0.0);
  VtkSeriesWriter writer(dir_, "flow", 0, 1);
  writer.write(0, 0.0, mesh, arrays);
  const auto grid = readPvtu(dir_ / "flow_000000.pvtu");
  EXPECT_EQ(grid->GetNumberOfPoints(), 67);
  expectGridHolds(grid, {{mesh, arrays, 0}});
}

TEST_F(VtkRoundTrip, MismatchedArraySizeThrows) {
  const PatchMesh mesh = mesh2D();
  std::vector<CellField> arrays = arraysFor(mesh, 0.0);
  arrays[1].values.pop_back();
  VtkSeriesWriter writer(dir_, "flow", 0, 1);
  try {
    writer.write(0, 0.0, mesh, arrays);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("pressure"), std::string::npos) << message;
    EXPECT_NE(message.find("47"), std::string::npos) << message;
    EXPECT_NE(message.find("48"), std::string::npos) << message;
  }
  EXPECT_FALSE(fs::exists(dir_)); // checked before anything is written
}

TEST_F(VtkRoundTrip, InvalidInputThrows) {
  EXPECT_THROW(VtkSeriesWriter(dir_, "flow", 2, 2), std::invalid_argument);
  EXPECT_THROW(VtkSeriesWriter(dir_, "a/b", 0, 1), std::invalid_argument);
  const PatchMesh mesh = mesh2D();
  VtkSeriesWriter writer(dir_, "flow", 0, 1);
  std::vector<CellField> arrays = arraysFor(mesh, 0.0);
  arrays[1].name = "rank";
  EXPECT_THROW(writer.write(0, 0.0, mesh, arrays), std::invalid_argument);
  PatchMesh broken = mesh;
  broken.level.pop_back();
  EXPECT_THROW(writer.write(0, 0.0, broken, arraysFor(mesh, 0.0)), std::invalid_argument);
}

TEST_F(VtkRoundTrip, WriterFailureThrowsAndRemovesTemporary) {
  const PatchMesh mesh = mesh2D();
  // An empty folder in the way of the piece's temporary makes VTK's writer fail to open it.
  const fs::path piece = dir_ / "flow_000000" / "rank_0.vtu";
  fs::create_directories(fs::path(piece) += ".tmp");
  VtkSeriesWriter writer(dir_, "flow", 0, 1);

  vtkObject::GlobalWarningDisplayOff(); // VTK would print the expected error
  try {
    writer.write(0, 0.0, mesh, arraysFor(mesh, 0.0));
    ADD_FAILURE() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(piece.string()), std::string::npos) << e.what();
  }
  vtkObject::GlobalWarningDisplayOn();

  EXPECT_FALSE(fs::exists(piece));
  EXPECT_FALSE(fs::exists(dir_ / "flow_000000.pvtu"));
  EXPECT_FALSE(fs::exists(dir_ / "flow.pvd"));
  expectNoTemporaries();
}

} // namespace
} // namespace tessera::io
