#include "io/vtk_output.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <stdexcept>
#include <system_error>
#include <unordered_set>
#include <utility>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
#include <vtkIdTypeArray.h>
#include <vtkIndent.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLUnstructuredGridWriter.h>
#include <vtkZLibDataCompressor.h>

#include "io/atomic_file.hpp"

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

void writePiece(vtkUnstructuredGrid* grid, const fs::path& file) {
  writeAtomically(file, [&](const fs::path& temporary) {
    vtkNew<vtkXMLUnstructuredGridWriter> writer;
    vtkNew<vtkZLibDataCompressor> compressor;
    writer->SetFileName(temporary.c_str());
    writer->SetInputData(grid);
    writer->SetDataModeToAppended();
    writer->EncodeAppendedDataOff(); // raw binary instead of base64
    writer->SetCompressor(compressor);
    writer->SetHeaderTypeToUInt64(); // block sizes of pieces over 4 GiB
    const int written = writer->Write();
    const unsigned long error = writer->GetErrorCode();
    if (written == 0 || error != vtkErrorCode::NoError)
      throw std::runtime_error("VTK could not write " + file.string() + ": " +
                               vtkErrorCode::GetStringFromErrorCode(error));
  });
}

vtkNew<vtkXMLDataElement>
element(const char* name, std::initializer_list<std::pair<const char*, std::string>> attrs) {
  vtkNew<vtkXMLDataElement> e;
  e->SetName(name);
  for (const auto& [key, value] : attrs)
    e->SetAttribute(key, value.c_str());
  return e;
}

// The root of a VTK XML file, with the attributes VTK's own writers give it.
vtkNew<vtkXMLDataElement> vtkFileElement(const char* type, const char* version) {
  const char* byteOrder = std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian";
  return element("VTKFile", {{"type", type}, {"version", version}, {"byte_order", byteOrder}});
}

void writeXml(vtkXMLDataElement* root, const fs::path& file) {
  writeAtomically(file, [&](const fs::path& temporary) {
    std::ofstream out(temporary);
    out << "<?xml version=\"1.0\"?>\n";
    root->PrintXML(out, vtkIndent()); // escapes special characters in attribute values
    out.close();
    if (!out)
      throw std::runtime_error("could not write " + file.string());
  });
}

std::string pieceName(const std::string& stepName, int rank) {
  return stepName + "/rank_" + std::to_string(rank) + ".vtu";
}

// The .pvtu as vtkXMLPUnstructuredGridWriter lays it out. That writer cannot produce it here:
// without an MPI controller it lists only the pieces it wrote itself, and it writes its files in
// place rather than atomically. The array list is taken from rank 0's grid; every rank writes the
// same arrays.
vtkNew<vtkXMLDataElement> summaryElement(vtkUnstructuredGrid* grid, const std::string& stepName,
                                         int numRanks) {
  static_assert(sizeof(int) == 4, "vtkIntArray is written as Int32");
  auto root = vtkFileElement("PUnstructuredGrid", "1.0");
  root->SetAttribute("header_type", "UInt64"); // as in the pieces
  auto unstructured = element("PUnstructuredGrid", {{"GhostLevel", "0"}});
  auto cellData = element("PCellData", {});
  vtkCellData* arrays = grid->GetCellData();
  for (int a = 0; a < arrays->GetNumberOfArrays(); ++a) {
    vtkDataArray* array = arrays->GetArray(a);
    const char* type = array->GetDataType() == VTK_DOUBLE ? "Float64" : "Int32";
    cellData->AddNestedElement(element("PDataArray", {{"type", type}, {"Name", array->GetName()}}));
  }
  auto points = element("PPoints", {});
  points->AddNestedElement(element(
      "PDataArray", {{"type", "Float64"}, {"Name", "Points"}, {"NumberOfComponents", "3"}}));
  unstructured->AddNestedElement(cellData);
  unstructured->AddNestedElement(points);
  for (int r = 0; r < numRanks; ++r)
    unstructured->AddNestedElement(element("Piece", {{"Source", pieceName(stepName, r)}}));
  root->AddNestedElement(unstructured);
  return root;
}

// Shortest decimal form that reads back as the same double (ostream's default keeps 6 digits).
std::string exactDecimal(double value) {
  char buffer[32];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
}

// The .pvd time series; VTK 9.1 has no writer for it, ParaView reads it with vtkPVDReader.
vtkNew<vtkXMLDataElement> seriesElement(const std::vector<std::pair<double, std::string>>& steps) {
  auto root = vtkFileElement("Collection", "0.1");
  auto collection = element("Collection", {});
  for (const auto& [time, file] : steps)
    collection->AddNestedElement(
        element("DataSet", {{"timestep", exactDecimal(time)}, {"part", "0"}, {"file", file}}));
  root->AddNestedElement(collection);
  return root;
}

} // namespace

VtkSeriesWriter::VtkSeriesWriter(fs::path directory, std::string baseName, int rank, int numRanks)
    : directory_(std::move(directory)), baseName_(std::move(baseName)), rank_(rank),
      numRanks_(numRanks) {
  if (numRanks_ < 1 || rank_ < 0 || rank_ >= numRanks_)
    throw std::invalid_argument("VtkSeriesWriter: rank " + std::to_string(rank_) +
                                " is not in [0, " + std::to_string(numRanks_) + ")");
  // The base name becomes part of relative paths inside the .pvtu and .pvd files.
  if (baseName_.empty() || baseName_.find('/') != std::string::npos)
    throw std::invalid_argument("VtkSeriesWriter: base name '" + baseName_ +
                                "' must be a non-empty file name without '/'");
}

fs::path VtkSeriesWriter::write(int step, double time, const PatchMesh& mesh,
                                const std::vector<CellArray>& arrays) {
  checkInput(mesh, arrays);
  // Zero-padded, so that a directory listing sorts the steps in order.
  char number[16];
  std::snprintf(number, sizeof number, "%06d", step);
  const std::string stepName = baseName_ + "_" + number;
  fs::create_directories(directory_ / stepName);
  const auto grid = buildGrid(mesh, arrays, rank_);
  writePiece(grid, directory_ / pieceName(stepName, rank_));

  const std::string summaryName = stepName + ".pvtu";
  if (rank_ == 0) {
    writeXml(summaryElement(grid, stepName, numRanks_), directory_ / summaryName);
    // A step written again (a rerun of it) replaces its entry instead of adding a second one.
    std::erase_if(written_, [&](const auto& entry) { return entry.second == summaryName; });
    written_.emplace_back(time, summaryName);
    writeXml(seriesElement(written_), seriesPath());
  }
  return directory_ / summaryName;
}

fs::path VtkSeriesWriter::seriesPath() const {
  return directory_ / (baseName_ + ".pvd");
}

} // namespace tessera::io
