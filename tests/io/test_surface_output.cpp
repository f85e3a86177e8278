// UnstructuredSurfaceWriter round trip: two sides of a shuffled mixed box (quadrilaterals of
// hexahedra, triangles of tetrahedra and prisms) written as a surface series and read back with
// VTK's parallel polydata reader: one polygon per face with its node count, the sides' areas (VTK's
// own polygon areas), each face's tag and field value, the .pvd's steps; a face inside the mesh is
// refused before any file is written.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>
#include <vtkCell.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkPolygon.h>
#include <vtkSmartPointer.h>
#include <vtkXMLPPolyDataReader.h>

#include "engine/unstructured/box_mesh.hpp"
#include "io/surface_output.hpp"

namespace tessera::io {
namespace {

namespace fs = std::filesystem;
using unstructured::Mesh;

class SurfaceOutput : public ::testing::Test {
protected:
  void SetUp() override {
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    dir_ = fs::temp_directory_path() /
           ("tessera_surface_vtk_" + name + "_" + std::to_string(std::random_device{}()));
    fs::remove_all(dir_);
  }
  void TearDown() override {
    if (!HasFailure())
      fs::remove_all(dir_);
  }
  fs::path dir_;
};

Mesh mixedBox() {
  unstructured::BoxMeshSpec spec;
  spec.hi = {2.0, 1.0, 1.5};
  spec.nx = 4;
  spec.ny = 3;
  spec.nz = 5;
  spec.cells = unstructured::BoxCells::Mixed;
  spec.shuffle = true;
  spec.seed = 4;
  return unstructured::buildMesh(unstructured::boxMesh(spec));
}

TEST_F(SurfaceOutput, FacesReadBackWithTheirTagsValuesAndAreas) {
  const Mesh mesh = mixedBox();
  // The x = 0 side (tag 1: 1 x 1.5) and the z = 0 side (tag 5: 2 x 1).
  std::vector<int> faces;
  std::vector<double> value;
  for (int f = 0; f < mesh.numFaces(); ++f) {
    const int tag = mesh.faceTag[std::size_t(f)];
    if (mesh.neighbour[std::size_t(f)] < 0 && (tag == 1 || tag == 5)) {
      faces.push_back(f);
      value.push_back(0.5 * f + 1.0);
    }
  }
  UnstructuredSurfaceWriter writer(dir_, "wall", 0, 1);
  const fs::path pvtp = writer.write(3, 0.25, mesh, faces, {{"pressure", 1, value}});
  ASSERT_EQ(pvtp.extension(), ".pvtp");
  writer.write(7, 0.5, mesh, faces, {{"pressure", 1, value}});

  vtkNew<vtkXMLPPolyDataReader> reader;
  reader->SetFileName(pvtp.c_str());
  reader->Update();
  vtkPolyData* surface = reader->GetOutput();
  ASSERT_EQ(surface->GetNumberOfCells(), vtkIdType(faces.size()));
  auto* tag = vtkIntArray::SafeDownCast(surface->GetCellData()->GetArray("tag"));
  auto* pressure = vtkDoubleArray::SafeDownCast(surface->GetCellData()->GetArray("pressure"));
  ASSERT_NE(tag, nullptr);
  ASSERT_NE(pressure, nullptr);
  double area[7] = {};
  for (vtkIdType i = 0; i < surface->GetNumberOfCells(); ++i) {
    const int f = faces[std::size_t(i)];
    vtkCell* cell = surface->GetCell(i);
    EXPECT_EQ(cell->GetNumberOfPoints(), vtkIdType(mesh.faceNodes.row(f).size()));
    EXPECT_EQ(tag->GetValue(i), mesh.faceTag[std::size_t(f)]);
    EXPECT_EQ(pressure->GetValue(i), value[std::size_t(i)]);
    double normal[3];
    area[tag->GetValue(i)] +=
        vtkPolygon::ComputeArea(cell->GetPoints(), cell->GetNumberOfPoints(), nullptr, normal);
  }
  EXPECT_NEAR(area[1], 1.5, 1e-12);
  EXPECT_NEAR(area[5], 2.0, 1e-12);

  std::ifstream pvd(dir_ / "wall.pvd");
  const std::string series((std::istreambuf_iterator<char>(pvd)), {});
  EXPECT_NE(series.find("wall_000003.pvtp"), std::string::npos) << series;
  EXPECT_NE(series.find("wall_000007.pvtp"), std::string::npos) << series;
}

TEST_F(SurfaceOutput, AFaceInsideTheMeshIsRefusedBeforeWriting) {
  const Mesh mesh = mixedBox();
  int inner = 0;
  while (mesh.neighbour[std::size_t(inner)] < 0)
    ++inner;
  UnstructuredSurfaceWriter writer(dir_, "wall", 0, 1);
  const std::vector<int> faces{inner};
  EXPECT_THROW(writer.write(0, 0.0, mesh, faces, {}), std::invalid_argument);
  EXPECT_FALSE(fs::exists(dir_ / "wall.pvd"));
}

} // namespace
} // namespace tessera::io
