#pragma once
// The files every VTK series writer writes, whatever its cells: each rank's .vtu piece with its
// cell fields, the .pvtu of an output step naming every rank's piece, and the .pvd time series,
// each written under a temporary name and renamed (io/atomic_file.hpp). Internal to io's VTK
// sources: it names a VTK type, which io's public headers do not.
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/cell_fields.hpp"
#include "io/output_series.hpp"

class vtkCellData;
class vtkDataSet;

namespace tessera::io::detail {

// Throws std::invalid_argument, naming `writer`, unless 0 <= rank < numRanks and baseName is a
// plain file name (it becomes part of relative paths inside the .pvtu and .pvd files).
void checkSeriesNames(std::string_view writer, const std::string& baseName, int rank, int numRanks);

// Adds the fields (checked: checkCellFields) to a grid's cell data as Float64 arrays of their
// component count, `cells` tuples each.
void addCellFields(vtkCellData* cellData, const std::vector<CellField>& fields, long long cells);

// Adds a written step to a series' list: a step written again (a rerun of it) replaces its entry
// instead of adding a second one.
void recordStep(std::vector<std::pair<double, std::string>>& steps, double time,
                const std::string& file);

// Writes the .pvd time series that lists `steps` (time, file relative to the .pvd's folder).
void writeTimeSeries(const std::filesystem::path& file,
                     const std::vector<std::pair<double, std::string>>& steps);

// Writes the same steps as ParaView's file-series JSON (<file>.series), which opens the files with
// their own reader and its settings (the AMR reader's number of levels) at the given times.
void writeFileSeries(const std::filesystem::path& file,
                     const std::vector<std::pair<double, std::string>>& steps);

// Writes one output step of a series in `directory`:
//   <base>_<step>/rank_<rank>.vtu    this rank's grid (binary inline, zlib); .vtp for polydata
//   <base>_<step>.pvtu               on rank 0: names every rank's piece, with grid's cell arrays
//                                    (.pvtp for polydata)
//   <base>.pvd                       on rank 0: every step in `written`, which gains this one
// (<step> in six digits, so that listings sort in time order). A step written again replaces
// its entry in the series' `written`. Returns the .pvtu's path on every rank. Throws
// std::runtime_error (or std::filesystem::filesystem_error) naming the file where writing fails.
// Each piece carries its place in the series as field data: TIME (the simulated time, VTK's name
// for it) or, for a steady run's pseudo-time steps, iteration (their count, which then also orders
// the .pvd).
std::filesystem::path writeSeriesStep(OutputSeries& series, int step, double time,
                                      vtkDataSet* grid);

} // namespace tessera::io::detail
