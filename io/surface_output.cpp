#include "io/surface_output.hpp"

#include <stdexcept>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkIdTypeArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include "io/vtk_series_files.hpp"

namespace tessera::io {

namespace fs = std::filesystem;
using unstructured::Mesh;

namespace {

constexpr const char* kTagName = "tag";
constexpr const char* kRankName = "rank";

void checkInput(const Mesh& mesh, std::span<const int> faces,
                const std::vector<CellField>& fields) {
  for (int f : faces)
    if (f < 0 || f >= mesh.numFaces() || mesh.neighbour[std::size_t(f)] >= 0)
      throw std::invalid_argument("UnstructuredSurfaceWriter: face " + std::to_string(f) +
                                  " is no boundary face of the mesh");
  checkCellFields("UnstructuredSurfaceWriter", fields, (long long)faces.size(),
                  {kTagName, kRankName});
}

// The faces as polygons on the nodes they use, renumbered in order of first use.
vtkSmartPointer<vtkPolyData> buildSurface(const Mesh& mesh, std::span<const int> faces,
                                          const std::vector<CellField>& fields, int rank) {
  std::vector<vtkIdType> local(std::size_t(mesh.numNodes()), -1);
  vtkNew<vtkDoubleArray> coords;
  coords->SetNumberOfComponents(3);
  vtkNew<vtkIdTypeArray> offsets, connectivity;
  offsets->InsertNextValue(0);
  for (int f : faces) {
    for (int n : mesh.faceNodes.row(f)) {
      vtkIdType& id = local[std::size_t(n)];
      if (id < 0) {
        id = coords->GetNumberOfTuples();
        coords->InsertNextTuple(mesh.nodes[std::size_t(n)].data());
      }
      connectivity->InsertNextValue(id);
    }
    offsets->InsertNextValue(connectivity->GetNumberOfValues());
  }
  vtkNew<vtkPoints> points;
  points->SetData(coords);
  vtkNew<vtkCellArray> polygons;
  polygons->SetData(offsets, connectivity);
  auto surface = vtkSmartPointer<vtkPolyData>::New();
  surface->SetPoints(points);
  surface->SetPolys(polygons);

  vtkCellData* cellData = surface->GetCellData();
  detail::addCellFields(cellData, fields, (long long)faces.size());
  vtkNew<vtkIntArray> tag, rankOf;
  tag->SetName(kTagName);
  rankOf->SetName(kRankName);
  for (int f : faces) {
    tag->InsertNextValue(mesh.faceTag[std::size_t(f)]);
    rankOf->InsertNextValue(rank);
  }
  cellData->AddArray(tag);
  cellData->AddArray(rankOf);
  return surface;
}

} // namespace

UnstructuredSurfaceWriter::UnstructuredSurfaceWriter(fs::path directory, std::string baseName,
                                                     int rank, int numRanks, SeriesClock clock)
    : series_("UnstructuredSurfaceWriter", std::move(directory), std::move(baseName), rank,
              numRanks, clock) {}

fs::path UnstructuredSurfaceWriter::write(int step, double time, const Mesh& mesh,
                                          std::span<const int> faces,
                                          const std::vector<CellField>& fields) {
  checkInput(mesh, faces, fields);
  const auto surface = buildSurface(mesh, faces, fields, series_.rank);
  return detail::writeSeriesStep(series_, step, time, surface);
}

} // namespace tessera::io
