#pragma once
// Where a VTK output series of pieces lives and the steps it holds: what each series writer (of
// patches, unstructured cells, wall surfaces) keeps, the .pvd's path, and the steps a run that
// continues from a checkpoint takes over. The writers write a step with detail::writeSeriesStep.
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/cell_fields.hpp"

namespace tessera::io {

struct OutputSeries {
  // Throws std::invalid_argument, naming `writer`, unless 0 <= rank < numRanks and baseName is a
  // plain file name (it becomes part of relative paths inside the .pvtu and .pvd files).
  OutputSeries(std::string_view writer, std::filesystem::path directory, std::string baseName,
               int rank, int numRanks, SeriesClock clock = SeriesClock::Time);

  std::filesystem::path seriesPath() const { return directory / (baseName + ".pvd"); }

  std::filesystem::path directory;
  std::string baseName;
  int rank, numRanks;
  SeriesClock clock;
  std::vector<std::pair<double, std::string>> written; // (time, step file relative to directory)
};

} // namespace tessera::io
