#pragma once
// VTK output of boundary faces of an unstructured mesh (an airfoil's or a wing's wall) as polygons,
// a series beside the cells' (io/unstructured_output.hpp), with the same atomic writes:
//   <base>.pvd                       the time series ParaView opens
//   <base>_<step>.pvtp               one per output step, naming every rank's piece
//   <base>_<step>/rank_<rank>.vtp    one per rank and output step
// Each face is a triangle or quadrilateral on the mesh's nodes (only those the faces use), its
// nodes ordered so that its normal points out of the fluid. Cell data: the given fields (Float64,
// one value or vector per face) plus Int32 tag (the face's boundary tag) and rank.
#include <filesystem>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/unstructured/mesh.hpp"
#include "io/cell_fields.hpp"
#include "io/output_series.hpp"

namespace tessera::io {

class UnstructuredSurfaceWriter {
public:
  // Throws std::invalid_argument unless 0 <= rank < numRanks and baseName is a plain file name.
  UnstructuredSurfaceWriter(std::filesystem::path directory, std::string baseName, int rank,
                            int numRanks, SeriesClock clock = SeriesClock::Time);

  // Writes this rank's faces (boundary faces of the mesh, by index) of one output step and, on
  // rank 0, the .pvtp and the .pvd. Returns the .pvtp's path. Throws std::invalid_argument for a
  // face that is not a boundary face of the mesh or a field of the wrong size (before any file is
  // touched); std::runtime_error naming the file when writing fails.
  std::filesystem::path write(int step, double time, const unstructured::Mesh& mesh,
                              std::span<const int> faces, const std::vector<CellField>& fields);

  std::filesystem::path seriesPath() const { return series_.seriesPath(); }
  const std::vector<std::pair<double, std::string>>& written() const { return series_.written; }
  // A continued run takes over the steps its first part wrote.
  void resume(std::vector<std::pair<double, std::string>> written) {
    series_.written = std::move(written);
  }

private:
  OutputSeries series_;
};

} // namespace tessera::io
