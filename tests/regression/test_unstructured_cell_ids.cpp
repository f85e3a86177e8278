// The unstructured output's cell_id is each cell's index in the mesh as the case gives it (the
// mesh file's volume elements, or mesh.box's generated order), whatever renumbering the run made
// (reverse Cuthill-McKee by default, a METIS partition on several ranks): every output cell, read
// back with VTK's reader, lies where the mesh's cell of that index lies.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <sys/wait.h>
#include <vector>
#include <vtkCell.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPUnstructuredGridReader.h>

#include "engine/unstructured/box_mesh.hpp"

namespace tessera {
namespace {

namespace fs = std::filesystem;

class UnstructuredCellIds : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tessera_cell_ids_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs a short Sod case on the box of `spec` (mixed cells) with `launcher` before tessera, and
  // returns the first output step's cells read back.
  vtkNew<vtkXMLPUnstructuredGridReader> run(const std::string& launcher, const std::string& out) {
    std::ofstream(dir_ / "case.toml")
        << "[mesh]\ntype = \"unstructured\"\n"
           "box = { upper = [1.0, 0.2, 0.2], cells = [12, 2, 4], shape = \"mixed\" }\n"
           "[boundary]\nxlo = \"slip_wall\"\nxhi = \"slip_wall\"\nylo = \"slip_wall\"\n"
           "yhi = \"slip_wall\"\nzlo = \"symmetry\"\nzhi = \"symmetry\"\n"
           "[initial]\ntype = \"riemann\"\nleft = { density = 1.0, pressure = 1.0 }\n"
           "right = { density = 0.125, pressure = 0.1 }\n"
           "[time]\nend_time = 0.01\n[output]\ninterval = 0\nprogress_every = 0\n"
           "directory = \""
        << out << "\"\n";
    const std::string command = "cd '" + dir_.string() + "' && " + launcher + " '" +
                                TESSERA_EXECUTABLE "' run case.toml > log.txt 2>&1";
    const int status = std::system(command.c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command;
    vtkNew<vtkXMLPUnstructuredGridReader> reader;
    reader->SetFileName((dir_ / out / "case_000000.pvtu").c_str());
    reader->Update();
    return reader;
  }

  // Every output cell's node average against the node average of the box's cell cell_id.
  void expectCellsAtTheirIds(vtkUnstructuredGrid* grid) {
    unstructured::BoxMeshSpec spec;
    spec.hi = {1.0, 0.2, 0.2};
    spec.nx = 12;
    spec.ny = 2;
    spec.nz = 4;
    spec.cells = unstructured::BoxCells::Mixed;
    const unstructured::MeshDescription box = unstructured::boxMesh(spec);
    ASSERT_EQ(grid->GetNumberOfCells(), vtkIdType(box.cellShapes.size()));
    vtkDataArray* ids = grid->GetCellData()->GetArray("cell_id");
    ASSERT_NE(ids, nullptr);
    std::vector<int> seen(box.cellShapes.size(), 0);
    int moved = 0;
    for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) {
      const int id = int(ids->GetTuple1(c));
      ASSERT_GE(id, 0);
      ASSERT_LT(std::size_t(id), seen.size());
      ++seen[std::size_t(id)];
      moved += id != int(c);
      vtkCell* cell = grid->GetCell(c);
      double output[3] = {0.0, 0.0, 0.0}, mesh[3] = {0.0, 0.0, 0.0};
      for (int k = 0; k < cell->GetNumberOfPoints(); ++k) {
        double x[3];
        grid->GetPoint(cell->GetPointId(k), x);
        for (int a = 0; a < 3; ++a)
          output[a] += x[a] / double(cell->GetNumberOfPoints());
      }
      const auto nodes = box.cellNodes.row(id);
      for (const int n : nodes)
        for (int a = 0; a < 3; ++a)
          mesh[a] += box.nodes[std::size_t(n)][std::size_t(a)] / double(nodes.size());
      for (int a = 0; a < 3; ++a)
        EXPECT_NEAR(output[a], mesh[a], 1e-12) << "output cell " << c << " has cell_id " << id;
    }
    for (const int count : seen)
      EXPECT_EQ(count, 1);
    EXPECT_GT(moved, 0) << "the renumbering left every cell in place: the test checks nothing";
  }

  fs::path dir_;
};

TEST_F(UnstructuredCellIds, OneRankWritesTheMeshIndexNotTheRenumberedOne) {
  const auto reader = run("", "one");
  expectCellsAtTheirIds(reader->GetOutput());
}

TEST_F(UnstructuredCellIds, TwoRanksWriteTheMeshIndexOfTheirOwnedCells) {
  const auto reader = run("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                          "OMP_NUM_THREADS=1 '" TESSERA_MPIEXEC "' -n 2 --oversubscribe",
                          "two");
  expectCellsAtTheirIds(reader->GetOutput());
}

} // namespace
} // namespace tessera
