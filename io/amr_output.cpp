#include "io/amr_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vtkAMRBox.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkMPI.h>
#include <vtkMPICommunicator.h>
#include <vtkMPIController.h>
#include <vtkNew.h>
#include <vtkOverlappingAMR.h>
#include <vtkParallelAMRUtilities.h>
#include <vtkSmartPointer.h>
#include <vtkStructuredData.h>
#include <vtkUniformGrid.h>
#include <vtkXMLPUniformGridAMRWriter.h>
#include <vtkZLibDataCompressor.h>

#include "io/amr_hierarchy.hpp"
#include "io/vtk_series_files.hpp"

namespace tessera::io {

namespace fs = std::filesystem;

struct AmrSeriesWriter::Controller {
  vtkSmartPointer<vtkMPIController> mpi;
};

namespace {

// A block as VTK image data: (N+1)^dim points from its lower corner, its cells x fastest (as
// VTK's), with its values of every field and the integer arrays.
vtkSmartPointer<vtkUniformGrid> imageOf(const detail::AmrHierarchy& h,
                                        const detail::AmrBlock& block,
                                        const std::vector<double>& values,
                                        const std::vector<CellField>& fields, double time) {
  const int n = h.cellsPerAxis;
  const vtkIdType cells = h.dim == 2 ? vtkIdType(n) * n : vtkIdType(n) * n * n;
  auto grid = vtkSmartPointer<vtkUniformGrid>::New();
  double origin[3], spacing[3];
  for (int a = 0; a < 3; ++a) {
    spacing[a] = std::ldexp(h.coarseDx[a], -block.level);
    origin[a] = a < h.dim ? h.origin[a] + double(block.lower[a]) * spacing[a] : 0.0;
  }
  grid->SetOrigin(origin);
  grid->SetSpacing(spacing);
  grid->SetDimensions(n + 1, n + 1, h.dim == 2 ? 1 : n + 1);
  vtkCellData* cellData = grid->GetCellData();
  auto from = values.begin();
  for (const CellField& field : fields) {
    vtkNew<vtkDoubleArray> array;
    array->SetName(field.name.c_str());
    array->SetNumberOfComponents(field.components);
    array->SetNumberOfTuples(cells);
    std::copy_n(from, cells * field.components, array->GetPointer(0));
    from += cells * field.components;
    cellData->AddArray(array);
  }
  const std::pair<const char*, int> integers[] = {
      {kPatchIdName, block.patchId}, {kLevelName, block.level}, {kRankName, block.owner}};
  for (const auto& [name, value] : integers) {
    vtkNew<vtkIntArray> array;
    array->SetName(name);
    array->SetNumberOfValues(cells);
    array->FillValue(value);
    cellData->AddArray(array);
  }
  vtkNew<vtkDoubleArray> timeValue;
  timeValue->SetName("TIME");
  timeValue->InsertNextValue(time);
  grid->GetFieldData()->AddArray(timeValue);
  return grid;
}

// Every rank learns whether each rank succeeded; a failure throws on all of them, with the
// failing rank's message where this rank is the one.
void throwOnAnyFailure(MPI_Comm comm, const std::string& failure, const std::string& what) {
  int failed = failure.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm);
  if (failed == 0)
    return;
  throw std::runtime_error(failure.empty() ? what + ": another rank could not write its part"
                                           : failure);
}

} // namespace

AmrSeriesWriter::AmrSeriesWriter(fs::path directory, std::string baseName, MPI_Comm comm)
    : directory_(std::move(directory)), baseName_(std::move(baseName)), comm_(comm),
      controller_(std::make_unique<Controller>()) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm_, &rank);
  MPI_Comm_size(comm_, &ranks);
  detail::checkSeriesNames("AmrSeriesWriter", baseName_, rank, ranks);
  vtkNew<vtkMPICommunicator> communicator;
  vtkMPICommunicatorOpaqueComm opaque(&comm_);
  communicator->InitializeExternal(&opaque);
  controller_->mpi = vtkSmartPointer<vtkMPIController>::New();
  controller_->mpi->SetCommunicator(communicator);
}

AmrSeriesWriter::~AmrSeriesWriter() = default;

fs::path AmrSeriesWriter::write(int step, double time, const PatchMesh& mesh,
                                const std::vector<CellField>& fields) {
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  // Inconsistent input is refused on every rank before anything is written.
  std::string invalid;
  try {
    checkPatchMesh("AmrSeriesWriter", mesh, fields, {kPatchIdName, kLevelName, kRankName});
  } catch (const std::invalid_argument& e) {
    invalid = e.what();
  }
  int anyInvalid = invalid.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &anyInvalid, 1, MPI_INT, MPI_MAX, comm_);
  if (anyInvalid != 0)
    throw std::invalid_argument(invalid.empty() ? "AmrSeriesWriter: another rank's patches or "
                                                  "fields are inconsistent"
                                                : invalid);

  const detail::AmrHierarchy h = detail::buildAmrHierarchy(mesh, fields, comm_);
  vtkNew<vtkOverlappingAMR> amr;
  amr->Initialize(h.levels, h.blocksPerLevel.data());
  amr->SetOrigin(h.origin);
  const int description = h.dim == 2 ? VTK_XY_PLANE : VTK_XYZ_GRID;
  amr->SetGridDescription(description);
  for (int level = 0; level < h.levels; ++level) {
    double spacing[3];
    for (int a = 0; a < 3; ++a)
      spacing[a] = std::ldexp(h.coarseDx[a], -level);
    amr->SetSpacing(unsigned(level), spacing);
  }
  const int nodes = h.cellsPerAxis + 1;
  const int dimensions[3] = {nodes, nodes, h.dim == 2 ? 1 : nodes};
  for (const detail::AmrBlock& block : h.blocks) {
    double spacing[3], origin[3];
    amr->GetSpacing(unsigned(block.level), spacing);
    for (int a = 0; a < 3; ++a)
      origin[a] = a < h.dim ? h.origin[a] + double(block.lower[a]) * spacing[a] : 0.0;
    amr->SetAMRBox(unsigned(block.level), block.indexInLevel,
                   vtkAMRBox(origin, dimensions, spacing, h.origin, description));
  }
  for (std::size_t s = 0; s < h.local.size(); ++s) {
    const detail::AmrBlock& block = h.blocks[h.local[s]];
    amr->SetDataSet(unsigned(block.level), block.indexInLevel,
                    imageOf(h, block, h.values[s], fields, time));
  }
  // Cells that a finer block covers get the REFINEDCELL bit of vtkGhostType.
  vtkParallelAMRUtilities::BlankCells(amr, controller_->mpi);

  // Written into a folder of its own, then moved into place.
  char number[16];
  std::snprintf(number, sizeof number, "%06d", step);
  const std::string stepName = baseName_ + "_" + number;
  const fs::path staging = directory_ / ("." + stepName + ".writing");
  std::string failure;
  if (rank == 0) {
    try {
      fs::remove_all(staging); // a step that an earlier, stopped run left half-written
      fs::create_directories(staging);
    } catch (const fs::filesystem_error& e) {
      failure = "could not create " + staging.string() + ": " + e.what();
    }
  }
  throwOnAnyFailure(comm_, failure, staging.string());

  const fs::path stagedFile = staging / (stepName + ".vthb");
  vtkNew<vtkXMLPUniformGridAMRWriter> writer;
  vtkNew<vtkZLibDataCompressor> compressor;
  writer->SetController(controller_->mpi);
  writer->SetWriteMetaFile(1); // after the controller: rank 0 writes the .vthb, no other rank
  writer->SetFileName(stagedFile.c_str());
  writer->SetInputData(amr);
  // Binary data inline, as VtkSeriesWriter's pieces (vtk_series_files.cpp says why).
  writer->SetDataModeToBinary();
  writer->SetCompressor(compressor);
  writer->SetHeaderTypeToUInt64();
  if (writer->Write() == 0 || writer->GetErrorCode() != vtkErrorCode::NoError)
    failure = "VTK could not write the blocks of " + stagedFile.string() + " on rank " +
              std::to_string(rank) + ": " +
              vtkErrorCode::GetStringFromErrorCode(writer->GetErrorCode());
  throwOnAnyFailure(comm_, failure, stagedFile.string());

  const std::string fileName = stepName + ".vthb";
  detail::recordStep(written_, time, fileName); // every rank: a checkpoint carries the list
  if (rank == 0) {
    try {
      // The blocks first, then the .vthb that names them; a step written again replaces both.
      fs::remove_all(directory_ / stepName);
      fs::rename(staging / stepName, directory_ / stepName);
      fs::rename(stagedFile, directory_ / fileName);
      fs::remove_all(staging);
      detail::writeTimeSeries(seriesPath(), written_);
      detail::writeFileSeries(directory_ / (baseName_ + ".vthb.series"), written_);
    } catch (const std::exception& e) {
      failure = std::string("could not move ") + stepName + " into " + directory_.string() + ": " +
                e.what();
    }
  }
  throwOnAnyFailure(comm_, failure, directory_ / fileName);
  return directory_ / fileName;
}

fs::path AmrSeriesWriter::seriesPath() const {
  return directory_ / (baseName_ + ".pvd");
}

} // namespace tessera::io
