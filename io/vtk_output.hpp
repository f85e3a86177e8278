#pragma once
// VTK output of patch data through the VTK library: one .vtu per rank and output step, one .pvtu
// per output step that names the ranks' pieces, and one .pvd time series per run. Every file is
// written under a temporary name (the final name plus ".tmp", in the same folder) and renamed, so
// a reader never sees a half-written file.
#include <filesystem>
#include <string>
#include <vector>

#include "io/cell_fields.hpp"
#include "io/output_series.hpp"
#include "io/patch_mesh.hpp"

namespace tessera::io {

// Writes the steps of one run into `directory` (created if missing):
//   <base>.pvd                       the time series ParaView opens
//   <base>_<step>.pvtu               one per output step
//   <base>_<step>/rank_<rank>.vtu    one per rank and output step
//   (<step> is the step number in six digits, so that listings sort in time order)
// Paths inside the .pvd and .pvtu files are relative to `directory`. Pieces are binary inline
// data compressed with zlib; cells are VTK_QUAD (2D) or VTK_HEXAHEDRON (3D) on points shared
// within a piece: neighbouring patches of one level share their face's points, so contours and
// Cell Data to Point Data are continuous inside a level (at a level jump the finer side's points
// in the middle of a coarse face are hanging nodes, and a contour may open there). Cell data: the
// given fields (Float64, in PatchMesh order) plus Int32 arrays patch_id, level and rank. All ranks
// must pass the same fields in the same order: the .pvtu lists rank 0's.
//
// Ordering across ranks: rank 0's write() of a step writes its own piece, then the .pvtu that
// names every rank's piece, then the .pvd; ranks > 0 write only their piece. So rank 0 must call
// write() for a step only after every other rank's write() of that step has returned (with MPI: a
// barrier between the other ranks' write() and rank 0's). No MPI is used here.
class VtkSeriesWriter {
public:
  // Throws std::invalid_argument unless 0 <= rank < numRanks and baseName is a plain file name.
  VtkSeriesWriter(std::filesystem::path directory, std::string baseName, int rank, int numRanks);

  // Writes one output step and, on rank 0, the .pvtu and the .pvd with every step this writer has
  // written (a step written again replaces its entry). Returns the path of the .pvtu on every
  // rank. Throws std::invalid_argument for an inconsistent mesh or a field without a value or
  // vector for each of mesh.numCells() cells (before any file is touched), std::runtime_error (or
  // std::filesystem::filesystem_error) naming the file when writing fails.
  std::filesystem::path write(int step, double time, const PatchMesh& mesh,
                              const std::vector<CellField>& fields);

  std::filesystem::path seriesPath() const { return series_.seriesPath(); }

  // The output steps written so far (time, .pvtu relative to the directory), and a run that
  // continues from a checkpoint taking over those its first part wrote: the .pvd then lists them
  // and the new ones, each time once.
  const std::vector<std::pair<double, std::string>>& written() const { return series_.written; }
  void resume(std::vector<std::pair<double, std::string>> written) {
    series_.written = std::move(written);
  }

private:
  OutputSeries series_;
};

} // namespace tessera::io
