#pragma once
// The output series of a patch run in the format the case chose (output.format): an unstructured
// grid per rank and step (io/vtk_output.hpp) or VTK's overlapping AMR dataset (io/amr_output.hpp).
// Either way one collective write per output step.
#include <filesystem>
#include <mpi.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/amr_output.hpp"
#include "io/cell_fields.hpp"
#include "io/vtk_output.hpp"

namespace tessera::io {

class PatchSeriesWriter {
public:
  PatchSeriesWriter(PatchOutputFormat format, std::filesystem::path directory, std::string baseName,
                    MPI_Comm comm);

  // Collective over comm: writes one output step of every rank's patches; returns the step's
  // file (.pvtu or .vthb). Throws as the format's writer does.
  std::filesystem::path write(int step, double time, const PatchMesh& mesh,
                              const std::vector<CellField>& fields);

  // The steps written so far (time, file relative to the directory); a run that continues from a
  // checkpoint takes over those of its first part that are in this writer's format.
  const std::vector<std::pair<double, std::string>>& written() const;
  void resume(std::vector<std::pair<double, std::string>> written);
  std::filesystem::path seriesPath() const;

private:
  MPI_Comm comm_;
  std::optional<VtkSeriesWriter> grid_;
  std::optional<AmrSeriesWriter> amr_;
};

} // namespace tessera::io
