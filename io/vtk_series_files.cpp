#include "io/vtk_series_files.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <stdexcept>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
#include <vtkFieldData.h>
#include <vtkIndent.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLPolyDataWriter.h>
#include <vtkXMLUnstructuredGridWriter.h>
#include <vtkZLibDataCompressor.h>

#include "io/atomic_file.hpp"

namespace tessera::io::detail {

namespace fs = std::filesystem;

namespace {

// The XML writer of a piece's dataset type, and the names of its files and elements.
struct PieceKind {
  const char* extension;        // ".vtu", ".vtp"
  const char* summaryExtension; // ".pvtu", ".pvtp"
  const char* summaryType;      // "PUnstructuredGrid", "PPolyData"
};

PieceKind pieceKind(vtkDataSet* data) {
  if (vtkPolyData::SafeDownCast(data) != nullptr)
    return {".vtp", ".pvtp", "PPolyData"};
  return {".vtu", ".pvtu", "PUnstructuredGrid"};
}

vtkSmartPointer<vtkXMLWriter> pieceWriter(vtkDataSet* data) {
  if (vtkPolyData::SafeDownCast(data) != nullptr)
    return vtkSmartPointer<vtkXMLPolyDataWriter>::New();
  return vtkSmartPointer<vtkXMLUnstructuredGridWriter>::New();
}

void writePiece(vtkDataSet* data, const fs::path& file) {
  writeAtomically(file, [&](const fs::path& temporary) {
    const vtkSmartPointer<vtkXMLWriter> writer = pieceWriter(data);
    vtkNew<vtkZLibDataCompressor> compressor;
    writer->SetFileName(temporary.c_str());
    writer->SetInputData(data);
    // Binary data inline in each DataArray (base64 of zlib blocks), not appended after the XML:
    // the VTK 9.2 inside Debian 12's ParaView 5.11, with Debian's current expat (reparse
    // deferral, Debian bug 1114938), cannot read appended data, raw or encoded; inline data is
    // plain XML that every VTK reader parses, at a third more bytes than raw.
    writer->SetDataModeToBinary();
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

std::string pieceName(const std::string& stepName, int rank, const PieceKind& kind) {
  return stepName + "/rank_" + std::to_string(rank) + kind.extension;
}

// The .pvtu as vtkXMLPUnstructuredGridWriter lays it out. That writer cannot produce it here:
// without an MPI controller it lists only the pieces it wrote itself, and it writes its files in
// place rather than atomically. The array list is taken from rank 0's grid; every rank writes the
// same arrays.
vtkNew<vtkXMLDataElement> summaryElement(vtkDataSet* data, const std::string& stepName,
                                         int numRanks) {
  static_assert(sizeof(int) == 4, "vtkIntArray is written as Int32");
  const PieceKind kind = pieceKind(data);
  auto root = vtkFileElement(kind.summaryType, "1.0");
  root->SetAttribute("header_type", "UInt64"); // as in the pieces
  auto unstructured = element(kind.summaryType, {{"GhostLevel", "0"}});
  auto cellData = element("PCellData", {});
  vtkCellData* arrays = data->GetCellData();
  for (int a = 0; a < arrays->GetNumberOfArrays(); ++a) {
    vtkDataArray* array = arrays->GetArray(a);
    const char* type = array->GetDataType() == VTK_DOUBLE ? "Float64" : "Int32";
    auto entry = element("PDataArray", {{"type", type}, {"Name", array->GetName()}});
    if (array->GetNumberOfComponents() > 1)
      entry->SetIntAttribute("NumberOfComponents", array->GetNumberOfComponents());
    cellData->AddNestedElement(entry);
  }
  auto points = element("PPoints", {});
  points->AddNestedElement(element(
      "PDataArray", {{"type", "Float64"}, {"Name", "Points"}, {"NumberOfComponents", "3"}}));
  unstructured->AddNestedElement(cellData);
  unstructured->AddNestedElement(points);
  for (int r = 0; r < numRanks; ++r)
    unstructured->AddNestedElement(element("Piece", {{"Source", pieceName(stepName, r, kind)}}));
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

void addCellFields(vtkCellData* cellData, const std::vector<CellField>& fields, long long cells) {
  for (const CellField& field : fields) {
    vtkNew<vtkDoubleArray> values;
    values->SetName(field.name.c_str());
    values->SetNumberOfComponents(field.components);
    values->SetNumberOfTuples(cells);
    std::copy(field.values.begin(), field.values.end(), values->GetPointer(0));
    cellData->AddArray(values);
  }
}

void recordStep(std::vector<std::pair<double, std::string>>& steps, double time,
                const std::string& file) {
  std::erase_if(steps, [&](const auto& step) { return step.second == file; });
  steps.emplace_back(time, file);
}

void writeTimeSeries(const fs::path& file,
                     const std::vector<std::pair<double, std::string>>& steps) {
  writeXml(seriesElement(steps), file);
}

void writeFileSeries(const fs::path& file,
                     const std::vector<std::pair<double, std::string>>& steps) {
  std::string json = "{\n  \"file-series-version\": \"1.0\",\n  \"files\": [";
  for (std::size_t s = 0; s < steps.size(); ++s) {
    std::string name;
    for (const char c : steps[s].second) {
      if (c == '"' || c == '\\')
        name += '\\';
      name += c;
    }
    json += (s ? ",\n    " : "\n    ");
    json += "{\"name\": \"" + name + "\", \"time\": " + exactDecimal(steps[s].first) + "}";
  }
  json += "\n  ]\n}\n";
  writeFileAtomically(file, json);
}

void checkSeriesNames(std::string_view writer, const std::string& baseName, int rank,
                      int numRanks) {
  std::string message(writer);
  if (numRanks < 1 || rank < 0 || rank >= numRanks) {
    message += ": rank ";
    message += std::to_string(rank);
    message += " is not in [0, ";
    message += std::to_string(numRanks);
    message += ")";
    throw std::invalid_argument(message);
  }
  if (baseName.empty() || baseName.find('/') != std::string::npos) {
    message += ": base name '";
    message += baseName;
    message += "' must be a non-empty file name without '/'";
    throw std::invalid_argument(message);
  }
}

fs::path writeSeriesStep(OutputSeries& series, int step, double time, vtkDataSet* grid) {
  const PieceKind kind = pieceKind(grid);
  if (series.clock == SeriesClock::Time) {
    vtkNew<vtkDoubleArray> value;
    value->SetName("TIME");
    value->InsertNextValue(time);
    grid->GetFieldData()->AddArray(value);
  } else {
    vtkNew<vtkIntArray> value;
    value->SetName("iteration");
    value->InsertNextValue(step);
    grid->GetFieldData()->AddArray(value);
  }
  char number[16];
  std::snprintf(number, sizeof number, "%06d", step);
  const std::string stepName = series.baseName + "_" + number;
  fs::create_directories(series.directory / stepName);
  writePiece(grid, series.directory / pieceName(stepName, series.rank, kind));

  const std::string summaryName = stepName + kind.summaryExtension;
  if (series.rank == 0) {
    writeXml(summaryElement(grid, stepName, series.numRanks), series.directory / summaryName);
    recordStep(series.written, time, summaryName);
    writeTimeSeries(series.seriesPath(), series.written);
  }
  return series.directory / summaryName;
}

} // namespace tessera::io::detail

namespace tessera::io {

OutputSeries::OutputSeries(std::string_view writer, std::filesystem::path folder, std::string name,
                           int thisRank, int ranks, SeriesClock seriesClock)
    : directory(std::move(folder)), baseName(std::move(name)), rank(thisRank), numRanks(ranks),
      clock(seriesClock) {
  detail::checkSeriesNames(writer, baseName, rank, numRanks);
}

} // namespace tessera::io
