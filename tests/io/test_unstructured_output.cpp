// UnstructuredSeriesWriter round trip: a shuffled mixed mesh (all four shapes) written as a series
// and read back with VTK's own XML readers: points, cell types and nodes, every field value
// exactly, cell_id and rank, the .pvtu's arrays and the .pvd's steps. Each cell read back must
// enclose its volume with VTK's own faces pointing outward, which checks the node order that VTK
// expects of each shape (a wedge in Gmsh's order has inward faces).
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>
#include <vtkCell.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLPUnstructuredGridReader.h>
#include <vtkXMLUnstructuredGridReader.h>
#include <vtkXMLUtilities.h>

#include "engine/unstructured/box_mesh.hpp"
#include "io/unstructured_output.hpp"
#include "solvers/unstructured/unstructured_euler.hpp"

namespace tessera::io {
namespace {

namespace fs = std::filesystem;
using unstructured::CellShape;
using unstructured::Mesh;

Mesh mixedMesh() {
  unstructured::BoxMeshSpec spec;
  spec.lo = {-0.5, 0.0, 1.0};
  spec.hi = {1.0, 0.75, 2.0};
  spec.nx = 3;
  spec.ny = 2;
  spec.nz = 4;
  spec.cells = unstructured::BoxCells::Mixed;
  spec.shuffle = true;
  spec.seed = 11;
  return unstructured::buildMesh(unstructured::boxMesh(spec));
}

// Conserved states that differ from cell to cell and from step to step.
std::vector<CellField> fieldsFor(const Mesh& mesh, double seed) {
  std::vector<double> q;
  for (int c = 0; c < mesh.numCells(); ++c) {
    const double rho = 1.0 + 0.5 * std::sin(c + seed);
    const double u[3] = {std::cos(0.3 * c), -0.2 * seed, 0.1 * c};
    const double p = 2.0 + std::cos(c * seed);
    q.insert(q.end(), {rho, rho * u[0], rho * u[1], rho * u[2],
                       p / 0.4 + 0.5 * rho * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2])});
  }
  return eulerCellFields(Euler<3>{}, q,
                         OutputFields{selectOutputFields<Euler<3>>({"primitive"}, false)});
}

int vtkType(CellShape s) {
  switch (s) {
  case CellShape::Tetrahedron:
    return VTK_TETRA;
  case CellShape::Pyramid:
    return VTK_PYRAMID;
  case CellShape::Prism:
    return VTK_WEDGE;
  default:
    return VTK_HEXAHEDRON;
  }
}

// The volume a cell encloses with VTK's faces (vtkCell::GetFace), each split into a fan of
// triangles: positive where those faces point outward.
double volumeByVtkFaces(vtkCell* cell) {
  double centre[3] = {0.0, 0.0, 0.0};
  const vtkIdType n = cell->GetNumberOfPoints();
  for (vtkIdType k = 0; k < n; ++k) {
    double p[3];
    cell->GetPoints()->GetPoint(k, p);
    for (int a = 0; a < 3; ++a)
      centre[a] += p[a] / double(n);
  }
  double volume = 0.0;
  for (int f = 0; f < cell->GetNumberOfFaces(); ++f) {
    vtkCell* face = cell->GetFace(f);
    std::vector<std::array<double, 3>> p(std::size_t(face->GetNumberOfPoints()));
    for (std::size_t k = 0; k < p.size(); ++k)
      face->GetPoints()->GetPoint(vtkIdType(k), p[k].data());
    for (std::size_t k = 1; k + 1 < p.size(); ++k) {
      double d[3], u[3], w[3];
      for (int a = 0; a < 3; ++a) {
        d[a] = p[0][a] - centre[a];
        u[a] = p[k][a] - p[0][a];
        w[a] = p[k + 1][a] - p[0][a];
      }
      volume += (d[0] * (u[1] * w[2] - u[2] * w[1]) + d[1] * (u[2] * w[0] - u[0] * w[2]) +
                 d[2] * (u[0] * w[1] - u[1] * w[0])) /
                6.0;
    }
  }
  return volume;
}

void expectGridHolds(vtkUnstructuredGrid* grid, const Mesh& mesh,
                     const std::vector<CellField>& fields) {
  ASSERT_NE(grid, nullptr);
  ASSERT_EQ(grid->GetNumberOfPoints(), mesh.numNodes());
  ASSERT_EQ(grid->GetNumberOfCells(), mesh.numCells());
  for (int n = 0; n < mesh.numNodes(); ++n) {
    double p[3];
    grid->GetPoint(n, p);
    for (int a = 0; a < 3; ++a)
      EXPECT_EQ(p[a], mesh.nodes[std::size_t(n)][std::size_t(a)]);
  }
  int seen[4] = {0, 0, 0, 0};
  for (int c = 0; c < mesh.numCells(); ++c) {
    const CellShape shape = mesh.cellShapes[std::size_t(c)];
    ++seen[int(shape)];
    EXPECT_EQ(grid->GetCellType(c), vtkType(shape)) << "cell " << c;
    // The same nodes (in VTK's order, which the volume check below covers).
    vtkIdType count = 0;
    const vtkIdType* ids = nullptr;
    grid->GetCellPoints(c, count, ids);
    std::vector<int> written(ids, ids + count);
    std::vector<int> expected(mesh.cellNodes.row(c).begin(), mesh.cellNodes.row(c).end());
    std::sort(written.begin(), written.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(written, expected) << "cell " << c;
    const double volume = mesh.cellVolume[std::size_t(c)];
    EXPECT_NEAR(volumeByVtkFaces(grid->GetCell(c)), volume, 1e-12 * volume) << "cell " << c;
  }
  for (int s = 0; s < 4; ++s)
    EXPECT_GT(seen[s], 0) << "shape " << s << " missing from the mesh";

  vtkCellData* data = grid->GetCellData();
  ASSERT_EQ(data->GetNumberOfArrays(), int(fields.size()) + 2);
  for (const CellField& field : fields) {
    auto* values = vtkDoubleArray::SafeDownCast(data->GetArray(field.name.c_str()));
    ASSERT_NE(values, nullptr) << field.name;
    ASSERT_EQ(values->GetNumberOfComponents(), field.components) << field.name;
    for (std::size_t i = 0; i < field.values.size(); ++i)
      ASSERT_EQ(values->GetValue(vtkIdType(i)), field.values[i]) << field.name << " " << i;
  }
  auto* cellId = vtkIntArray::SafeDownCast(data->GetArray("cell_id"));
  auto* rank = vtkIntArray::SafeDownCast(data->GetArray("rank"));
  ASSERT_NE(cellId, nullptr);
  ASSERT_NE(rank, nullptr);
  for (int c = 0; c < mesh.numCells(); ++c) {
    EXPECT_EQ(cellId->GetValue(c), c);
    EXPECT_EQ(rank->GetValue(c), 0);
  }
}

vtkSmartPointer<vtkUnstructuredGrid> readVtu(const fs::path& file) {
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  return reader->GetOutput();
}

vtkSmartPointer<vtkUnstructuredGrid> readPvtu(const fs::path& file) {
  vtkNew<vtkXMLPUnstructuredGridReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  return reader->GetOutput();
}

class UnstructuredOutput : public ::testing::Test {
protected:
  void SetUp() override {
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = fs::temp_directory_path() /
           ("tessera_unstructured_vtk_" + name + "_" + std::to_string(std::random_device{}()));
    fs::remove_all(dir_);
  }
  void TearDown() override {
    if (!HasFailure())
      fs::remove_all(dir_);
  }
  fs::path dir_;
};

TEST_F(UnstructuredOutput, SeriesReadsBackExactly) {
  const Mesh mesh = mixedMesh();
  const std::vector<CellField> step0 = fieldsFor(mesh, 0.0), step7 = fieldsFor(mesh, 1.5);
  UnstructuredSeriesWriter writer(dir_, "flow", 0, 1);
  EXPECT_EQ(writer.write(0, 0.0, mesh, step0), dir_ / "flow_000000.pvtu");
  EXPECT_EQ(writer.write(7, 0.125, mesh, step7), dir_ / "flow_000007.pvtu");

  expectGridHolds(readVtu(dir_ / "flow_000000" / "rank_0.vtu"), mesh, step0);
  expectGridHolds(readVtu(dir_ / "flow_000007" / "rank_0.vtu"), mesh, step7);
  expectGridHolds(readPvtu(dir_ / "flow_000007.pvtu"), mesh, step7); // velocity: 3 components

  vtkSmartPointer<vtkXMLDataElement> root;
  root.TakeReference(vtkXMLUtilities::ReadElementFromFile(writer.seriesPath().c_str()));
  ASSERT_NE(root, nullptr);
  vtkXMLDataElement* collection = root->FindNestedElementWithName("Collection");
  ASSERT_NE(collection, nullptr);
  ASSERT_EQ(collection->GetNumberOfNestedElements(), 2);
  EXPECT_STREQ(collection->GetNestedElement(1)->GetAttribute("file"), "flow_000007.pvtu");
  EXPECT_EQ(std::stod(collection->GetNestedElement(1)->GetAttribute("timestep")), 0.125);
  for (const auto& entry : fs::recursive_directory_iterator(dir_))
    EXPECT_NE(entry.path().extension(), ".tmp") << entry.path();
}

// Each piece says where in the series it stands: TIME, or a steady run's iteration.
TEST_F(UnstructuredOutput, PiecesCarryTheirTimeOrIteration) {
  const Mesh mesh = mixedMesh();
  UnstructuredSeriesWriter timed(dir_, "timed", 0, 1);
  timed.write(7, 0.125, mesh, fieldsFor(mesh, 0.0));
  const auto atTime = readVtu(dir_ / "timed_000007" / "rank_0.vtu");
  auto* time = vtkDoubleArray::SafeDownCast(atTime->GetFieldData()->GetArray("TIME"));
  ASSERT_NE(time, nullptr);
  EXPECT_EQ(time->GetValue(0), 0.125);
  EXPECT_EQ(atTime->GetFieldData()->GetArray("iteration"), nullptr);

  UnstructuredSeriesWriter steady(dir_, "steady", 0, 1, SeriesClock::Iteration);
  steady.write(230, 230.0, mesh, fieldsFor(mesh, 0.0));
  const auto atIteration = readVtu(dir_ / "steady_000230" / "rank_0.vtu");
  auto* iteration = vtkIntArray::SafeDownCast(atIteration->GetFieldData()->GetArray("iteration"));
  ASSERT_NE(iteration, nullptr);
  EXPECT_EQ(iteration->GetValue(0), 230);
  EXPECT_EQ(atIteration->GetFieldData()->GetArray("TIME"), nullptr);
}

TEST_F(UnstructuredOutput, BadFieldsThrowBeforeWriting) {
  const Mesh mesh = mixedMesh();
  UnstructuredSeriesWriter writer(dir_, "flow", 0, 1);
  std::vector<CellField> fields = fieldsFor(mesh, 0.0);
  fields[1].values.pop_back(); // velocity
  try {
    writer.write(0, 0.0, mesh, fields);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("velocity"), std::string::npos) << e.what();
  }
  fields = fieldsFor(mesh, 0.0);
  fields[0].name = "cell_id";
  EXPECT_THROW(writer.write(0, 0.0, mesh, fields), std::invalid_argument);
  EXPECT_FALSE(fs::exists(dir_));
  EXPECT_THROW(UnstructuredSeriesWriter(dir_, "a/b", 0, 1), std::invalid_argument);
  EXPECT_THROW(UnstructuredSeriesWriter(dir_, "flow", 1, 1), std::invalid_argument);
}

// A distributed run writes its owned cells (the mesh's first ones) with their global ids.
TEST_F(UnstructuredOutput, APieceHoldsTheFirstCellsWithTheGivenIds) {
  const Mesh mesh = mixedMesh();
  const int count = mesh.numCells() / 2;
  std::vector<int> ids(static_cast<std::size_t>(count));
  for (int c = 0; c < count; ++c)
    ids[std::size_t(c)] = 1000 + 3 * c;
  std::vector<CellField> fields = fieldsFor(mesh, 0.5);
  for (CellField& field : fields)
    field.values.resize(std::size_t(count) * std::size_t(field.components));
  UnstructuredSeriesWriter writer(dir_, "piece", 0, 1);
  writer.write(3, 0.5, mesh, fields, {count, ids});

  const auto grid = readVtu(dir_ / "piece_000003" / "rank_0.vtu");
  ASSERT_EQ(grid->GetNumberOfCells(), count);
  EXPECT_EQ(grid->GetNumberOfPoints(), mesh.numNodes());
  auto* cellId = vtkIntArray::SafeDownCast(grid->GetCellData()->GetArray("cell_id"));
  auto* density = vtkDoubleArray::SafeDownCast(grid->GetCellData()->GetArray("density"));
  ASSERT_NE(cellId, nullptr);
  ASSERT_NE(density, nullptr);
  for (int c = 0; c < count; ++c) {
    EXPECT_EQ(cellId->GetValue(c), ids[std::size_t(c)]);
    EXPECT_EQ(density->GetValue(c), fields[0].values[std::size_t(c)]);
    const double volume = mesh.cellVolume[std::size_t(c)];
    EXPECT_NEAR(volumeByVtkFaces(grid->GetCell(c)), volume, 1e-12 * volume) << "cell " << c;
  }

  const std::vector<int> tooFew(ids.begin(), ids.end() - 1);
  EXPECT_THROW(writer.write(4, 0.6, mesh, fields, {count, tooFew}), std::invalid_argument);
  EXPECT_THROW(writer.write(4, 0.6, mesh, fields, {mesh.numCells() + 1, {}}),
               std::invalid_argument);
  EXPECT_FALSE(fs::exists(dir_ / "piece_000004"));
}

// Vorticity and schlieren of an unstructured state, from the solver's least-squares gradients of
// the primitive variables: exact for linear fields in the cells without a boundary face, here
// velocity (y - 2 z, 3 x, 0.5 y) with curl (0.5, -2, 2) and density 1 + 0.2 x - 0.1 z with
// |grad rho| = sqrt(0.05).
TEST(UnstructuredOutputFields, VorticityAndSchlierenFromTheSolversGradients) {
  const Euler<3> pde;
  UnstructuredBoundary walls;
  for (int tag = 1; tag <= 6; ++tag)
    walls.kindOfTag[tag] = FaceKind::SlipWall;
  UnstructuredEuler solver(pde, mixedMesh(), walls, 0.5);
  solver.initialise([&](const Vec<double, 3>& x) {
    return pde.toConserved(
        {{1.0 + 0.2 * x[0] - 0.1 * x[2], x[1] - 2.0 * x[2], 3.0 * x[0], 0.5 * x[1], 2.0}});
  });
  OutputFields output;
  output.fields = selectOutputFields<Euler<3>>({"vorticity", "schlieren"}, true);
  const std::vector<CellField> fields =
      eulerCellFields(pde, solver.hostState(), output, solver.primitiveGradients());
  ASSERT_EQ(fields.size(), 2u);
  ASSERT_EQ(fields[0].components, 3);
  const Mesh& mesh = solver.mesh();
  int inner = 0;
  for (int c = 0; c < mesh.numCells(); ++c) {
    const auto faces = mesh.cellFaces.row(c);
    if (std::any_of(faces.begin(), faces.end(),
                    [&](int f) { return mesh.neighbour[std::size_t(f)] < 0; }))
      continue;
    ++inner;
    const double* w = fields[0].values.data() + 3 * c;
    EXPECT_NEAR(w[0], 0.5, 1e-12);
    EXPECT_NEAR(w[1], -2.0, 1e-12);
    EXPECT_NEAR(w[2], 2.0, 1e-12);
    EXPECT_NEAR(fields[1].values[std::size_t(c)], std::sqrt(0.05), 1e-12);
  }
  EXPECT_GT(inner, 0);
}

} // namespace
} // namespace tessera::io
