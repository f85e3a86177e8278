#include "io/vtk_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>
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

namespace {

// A corner's place on the lattice of the piece's finest cells: integers, so that the corners that
// neighbouring patches compute from their own origins meet exactly.
struct LatticePoint {
  long long x, y, z;
  bool operator==(const LatticePoint&) const = default;
};
struct LatticePointHash {
  std::size_t operator()(const LatticePoint& p) const {
    const std::uint64_t h = std::uint64_t(p.x) * 0x9E3779B97F4A7C15ull ^
                            std::uint64_t(p.y) * 0xC2B2AE3D27D4EB4Full ^
                            std::uint64_t(p.z) * 0x165667B19E3779F9ull;
    return std::size_t(h ^ (h >> 29));
  }
};

// The point of every patch corner (patch after patch, (N+1)^dim corners each, x fastest): corners
// at one place share one point, numbered in order of first appearance. Patches are placed on the
// lattice of the piece's smallest cells from their lowest corner; one that does not sit on it
// (cell sizes that are no integer multiple of the smallest, as no adaptive mesh has) keeps points
// of its own.
std::vector<vtkIdType> sharedCorners(const PatchMesh& mesh) {
  const int dim = mesh.dim;
  const long long corners = mesh.cellsPerAxis + 1;
  const long long pointsPerPatch = dim == 2 ? corners * corners : corners * corners * corners;
  double lower[3] = {0.0, 0.0, 0.0}, finest[3] = {1.0, 1.0, 1.0};
  for (int a = 0; a < dim; ++a)
    for (int p = 0; p < mesh.numPatches(); ++p) {
      lower[a] = p == 0 ? mesh.origin[3 * p + a] : std::min(lower[a], mesh.origin[3 * p + a]);
      finest[a] = p == 0 ? mesh.dx[3 * p + a] : std::min(finest[a], mesh.dx[3 * p + a]);
    }
  std::vector<vtkIdType> pointOf(std::size_t(pointsPerPatch * mesh.numPatches()));
  std::unordered_map<LatticePoint, vtkIdType, LatticePointHash> points;
  points.reserve(pointOf.size() / 2);
  std::vector<std::size_t> offLattice; // patches whose points come after the shared ones
  for (int p = 0; p < mesh.numPatches(); ++p) {
    long long start[3] = {0, 0, 0}, step[3] = {0, 0, 0};
    bool onLattice = true;
    for (int a = 0; a < dim; ++a) {
      const double first = (mesh.origin[3 * p + a] - lower[a]) / finest[a];
      const double ratio = mesh.dx[3 * p + a] / finest[a];
      start[a] = std::llround(first);
      step[a] = std::llround(ratio);
      onLattice = onLattice && std::fabs(first - double(start[a])) <= 1e-6 &&
                  std::fabs(ratio - double(step[a])) <= 1e-6;
    }
    if (!onLattice) { // a patch whose cells are no multiple of the finest: its own points
      offLattice.push_back(std::size_t(p));
      continue;
    }
    for (long long q = 0; q < pointsPerPatch; ++q) {
      const long long i = q % corners, j = q / corners % corners, k = q / corners / corners;
      const LatticePoint at{start[0] + i * step[0], start[1] + j * step[1], start[2] + k * step[2]};
      const auto [place, added] = points.try_emplace(at, vtkIdType(points.size()));
      pointOf[std::size_t(p * pointsPerPatch + q)] = place->second;
    }
  }
  vtkIdType next = vtkIdType(points.size());
  for (const std::size_t p : offLattice)
    for (long long q = 0; q < pointsPerPatch; ++q)
      pointOf[p * std::size_t(pointsPerPatch) + std::size_t(q)] = next++;
  return pointOf;
}

// The mesh as an unstructured grid: each patch's (N+1)^dim lattice of corners (x fastest) as
// shared points (sharedCorners) and N^dim quads or hexahedra in PatchMesh cell order, so cell c of
// the grid is tuple c of every field.
vtkSmartPointer<vtkUnstructuredGrid> buildGrid(const PatchMesh& mesh,
                                               const std::vector<CellField>& fields, int rank) {
  const int dim = mesh.dim;
  const vtkIdType n = mesh.cellsPerAxis, corners = n + 1;
  const vtkIdType cellsPerPatch = dim == 2 ? n * n : n * n * n;
  const vtkIdType pointsPerPatch = dim == 2 ? corners * corners : corners * corners * corners;
  const vtkIdType numCells = mesh.numCells();

  // Every patch's (N+1)^dim corners, x fastest, as points of the piece: a corner that two patches
  // share (same-level neighbours' faces, and coarse corners a finer patch touches) is one point.
  const std::vector<vtkIdType> pointOf = sharedCorners(mesh);
  vtkIdType numPoints = 0;
  for (const vtkIdType id : pointOf)
    numPoints = std::max(numPoints, id + 1);
  vtkNew<vtkDoubleArray> coords; // double, so corners are exactly origin + i * dx
  coords->SetNumberOfComponents(3);
  coords->SetNumberOfTuples(numPoints);
  double* xyz = coords->GetPointer(0);
  for (int p = 0; p < mesh.numPatches(); ++p)
    for (vtkIdType q = 0; q < pointsPerPatch; ++q) {
      vtkIdType rest = q;
      double* point = xyz + 3 * pointOf[std::size_t(p * pointsPerPatch + q)];
      for (int a = 0; a < 3; ++a) {
        const vtkIdType i = rest % corners;
        rest /= corners;
        point[a] = a < dim ? mesh.origin[3 * p + a] + double(i) * mesh.dx[3 * p + a] : 0.0;
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
        *ids++ = pointOf[std::size_t(lower + cornerOffsets[corner])];
    }
  vtkNew<vtkCellArray> cells;
  cells->SetData(cornersPerCell, connectivity);

  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->SetPoints(points);
  grid->SetCells(dim == 2 ? VTK_QUAD : VTK_HEXAHEDRON, cells);

  vtkCellData* cellData = grid->GetCellData();
  detail::addCellFields(cellData, fields, numCells);
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
    : series_("VtkSeriesWriter", std::move(directory), std::move(baseName), rank, numRanks) {}

fs::path VtkSeriesWriter::write(int step, double time, const PatchMesh& mesh,
                                const std::vector<CellField>& fields) {
  // Inconsistent input is refused before any file is touched.
  checkPatchMesh("VtkSeriesWriter", mesh, fields, {kPatchIdName, kLevelName, kRankName});
  const auto grid = buildGrid(mesh, fields, series_.rank);
  return detail::writeSeriesStep(series_, step, time, grid);
}

} // namespace tessera::io
