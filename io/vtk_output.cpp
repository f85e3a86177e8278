#include "io/vtk_output.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>
#include <utility>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkIdTypeArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>

#include "io/vtk_series_files.hpp"

namespace tessera::io {

namespace fs = std::filesystem;

long long PatchMesh::numCells() const {
  long long perPatch = 1;
  for (int a = 0; a < dim; ++a)
    perPatch *= cellsPerAxis;
  return perPatch * numPatches();
}

namespace {

// The integer cell arrays added to every piece; the caller's arrays must not use these names.
constexpr const char* kPatchIdName = "patch_id";
constexpr const char* kLevelName = "level";
constexpr const char* kRankName = "rank";

// Rejects inconsistent input before any file is touched, so a bad call leaves the output as it was.
void checkInput(const PatchMesh& mesh, const std::vector<CellArray>& arrays) {
  if (mesh.dim != 2 && mesh.dim != 3)
    throw std::invalid_argument("PatchMesh: dim must be 2 or 3, got " + std::to_string(mesh.dim));
  if (mesh.cellsPerAxis < 1)
    throw std::invalid_argument("PatchMesh: cellsPerAxis must be positive, got " +
                                std::to_string(mesh.cellsPerAxis));
  const std::size_t patches = mesh.patchId.size();
  if (mesh.origin.size() != 3 * patches || mesh.dx.size() != 3 * patches ||
      mesh.level.size() != patches)
    throw std::invalid_argument("PatchMesh: " + std::to_string(patches) +
                                " patches need 3 origin, 3 dx and 1 level value each");

  const long long expected = mesh.numCells();
  std::unordered_set<std::string> names{kPatchIdName, kLevelName, kRankName};
  for (const CellArray& array : arrays) {
    // vtkCellData::AddArray silently replaces an array of the same name, so reject duplicates.
    if (array.name.empty() || !names.insert(array.name).second)
      throw std::invalid_argument("CellArray name '" + array.name +
                                  "' is empty, repeated or reserved (patch_id, level, rank)");
    if (std::ssize(array.values) != expected)
      throw std::invalid_argument("CellArray '" + array.name + "' has " +
                                  std::to_string(array.values.size()) + " values, expected " +
                                  std::to_string(expected) + " (mesh.numCells())");
  }
}

// The mesh as an unstructured grid: each patch gets its own (N+1)^dim lattice of corner points
// (x fastest) and N^dim quads or hexahedra in PatchMesh cell order, so cell c of the grid is value
// c of every CellArray.
vtkSmartPointer<vtkUnstructuredGrid> buildGrid(const PatchMesh& mesh,
                                               const std::vector<CellArray>& arrays, int rank) {
  const int dim = mesh.dim;
  const vtkIdType n = mesh.cellsPerAxis, corners = n + 1;
  const vtkIdType cellsPerPatch = dim == 2 ? n * n : n * n * n;
  const vtkIdType pointsPerPatch = dim == 2 ? corners * corners : corners * corners * corners;
  const vtkIdType numCells = mesh.numCells();

  vtkNew<vtkDoubleArray> coords; // double, so corners are exactly origin + i * dx
  coords->SetNumberOfComponents(3);
  coords->SetNumberOfTuples(pointsPerPatch * mesh.numPatches());
  double* xyz = coords->GetPointer(0);
  for (int p = 0; p < mesh.numPatches(); ++p)
    for (vtkIdType q = 0; q < pointsPerPatch; ++q) {
      vtkIdType rest = q;
      for (int a = 0; a < 3; ++a) {
        const vtkIdType i = rest % corners;
        rest /= corners;
        *xyz++ = a < dim ? mesh.origin[3 * p + a] + double(i) * mesh.dx[3 * p + a] : 0.0;
      }
    }
  vtkNew<vtkPoints> points;
  points->SetData(coords);

  // Corner offsets within the lattice in VTK's node order: the lower face counter-clockwise, then
  // (3D) the upper face.
  const vtkIdType cc = corners * corners;
  const vtkIdType quad[] = {0, 1, 1 + corners, corners};
  const vtkIdType hex[] = {0, 1, 1 + corners, corners, cc, cc + 1, cc + 1 + corners, cc + corners};
  const vtkIdType* cornerOffsets = dim == 2 ? quad : hex;
  const vtkIdType cornersPerCell = dim == 2 ? 4 : 8;

  vtkNew<vtkIdTypeArray> connectivity;
  connectivity->SetNumberOfValues(numCells * cornersPerCell);
  vtkIdType* ids = connectivity->GetPointer(0);
  for (int p = 0; p < mesh.numPatches(); ++p)
    for (vtkIdType c = 0; c < cellsPerPatch; ++c) {
      const vtkIdType i = c % n, j = c / n % n, k = c / (n * n);
      const vtkIdType lower = p * pointsPerPatch + i + corners * (j + corners * k);
      for (vtkIdType corner = 0; corner < cornersPerCell; ++corner)
        *ids++ = lower + cornerOffsets[corner];
    }
  vtkNew<vtkCellArray> cells;
  cells->SetData(cornersPerCell, connectivity);

  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->SetPoints(points);
  grid->SetCells(dim == 2 ? VTK_QUAD : VTK_HEXAHEDRON, cells);

  vtkCellData* cellData = grid->GetCellData();
  for (const CellArray& array : arrays) {
    vtkNew<vtkDoubleArray> values;
    values->SetName(array.name.c_str());
    values->SetNumberOfValues(numCells);
    std::copy(array.values.begin(), array.values.end(), values->GetPointer(0));
    cellData->AddArray(values);
  }
  vtkNew<vtkIntArray> patchId, level, rankOf;
  patchId->SetName(kPatchIdName);
  level->SetName(kLevelName);
  rankOf->SetName(kRankName);
  for (auto* array : {patchId.Get(), level.Get(), rankOf.Get()})
    array->SetNumberOfValues(numCells);
  for (vtkIdType c = 0; c < numCells; ++c) {
    patchId->SetValue(c, mesh.patchId[c / cellsPerPatch]);
    level->SetValue(c, mesh.level[c / cellsPerPatch]);
    rankOf->SetValue(c, rank);
  }
  cellData->AddArray(patchId);
  cellData->AddArray(level);
  cellData->AddArray(rankOf);
  return grid;
}

} // namespace

VtkSeriesWriter::VtkSeriesWriter(fs::path directory, std::string baseName, int rank, int numRanks)
    : directory_(std::move(directory)), baseName_(std::move(baseName)), rank_(rank),
      numRanks_(numRanks) {
  detail::checkSeriesNames("VtkSeriesWriter", baseName_, rank_, numRanks_);
}

fs::path VtkSeriesWriter::write(int step, double time, const PatchMesh& mesh,
                                const std::vector<CellArray>& arrays) {
  checkInput(mesh, arrays);
  const auto grid = buildGrid(mesh, arrays, rank_);
  return detail::writeSeriesStep(directory_, baseName_, rank_, numRanks_, step, time, grid,
                                 written_);
}

fs::path VtkSeriesWriter::seriesPath() const {
  return directory_ / (baseName_ + ".pvd");
}

} // namespace tessera::io
