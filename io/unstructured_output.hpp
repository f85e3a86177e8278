#pragma once
// VTK output of the unstructured module's cells through the VTK library, in the layout of
// VtkSeriesWriter (io/vtk_output.hpp) and with its atomic writes and ordering across ranks:
//   <base>.pvd                       the time series ParaView opens
//   <base>_<step>.pvtu               one per output step, naming every rank's piece
//   <base>_<step>/rank_<rank>.vtu    one per rank and output step
// Cells are VTK_TETRA, VTK_PYRAMID, VTK_WEDGE and VTK_HEXAHEDRON on the mesh's own nodes. Tessera
// orders nodes as Gmsh does, and so does VTK for tetrahedra, pyramids and hexahedra; a VTK wedge,
// though, has its first triangle facing away from the second (its faces are outward only so),
// where Gmsh's faces towards it: prisms are written with both triangles reversed. A cell whose
// nodes come mirrored (buildMesh accepts those) is written mirrored back, so that every VTK cell
// has outward faces. Cell data: the given fields (Float64) plus Int32 cell_id (the cell's index
// in the mesh) and rank.
#include <filesystem>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/unstructured/mesh.hpp"
#include "io/cell_fields.hpp"
#include "io/output_fields.hpp"
#include "io/output_series.hpp"
#include "physics/euler/euler.hpp"

namespace tessera::io {

// The output fields (io/output_fields.hpp) of conserved Euler states ([cell][5]). Those that need
// neighbour cells (vorticity, a vector, and schlieren, |grad rho|) take the gradients of the
// primitive variables ([cell][5][3], the cells' first), which must then be given.
std::vector<CellField> eulerCellFields(const Euler<3>& pde, std::span<const double> conserved,
                                       const OutputFields& output,
                                       std::span<const double> primitiveGradients = {});

// The cells a rank's piece holds: the mesh's first `count` cells (-1: all of them; a distributed
// run's owned cells come first), their cell_id from `ids` where given (the tessera program gives
// each cell's index in the mesh file) or else their own index.
struct PieceCells {
  int count = -1;
  std::span<const int> ids;
};

class UnstructuredSeriesWriter {
public:
  // Throws std::invalid_argument unless 0 <= rank < numRanks and baseName is a plain file name.
  // clock: Iteration for a steady run, whose steps are pseudo-time iterations (write's `time` is
  // then the iteration count).
  UnstructuredSeriesWriter(std::filesystem::path directory, std::string baseName, int rank,
                           int numRanks, SeriesClock clock = SeriesClock::Time);

  // Writes this rank's cells of one output step and, on rank 0, the .pvtu and the .pvd with every
  // step this writer has written (a step written again replaces its entry). Returns the .pvtu's
  // path. Throws std::invalid_argument for a field of the wrong size (one value or vector per
  // piece cell), a component count other than 1 or 3, a repeated or reserved name, or a piece
  // larger than the mesh or with ids of another count (before any file is touched);
  // std::runtime_error (or std::filesystem::filesystem_error) naming the file when writing fails.
  std::filesystem::path write(int step, double time, const unstructured::Mesh& mesh,
                              const std::vector<CellField>& fields, PieceCells piece = {});

  std::filesystem::path seriesPath() const { return series_.seriesPath(); }

  // The output steps written so far (time, .pvtu relative to the directory), and a run that
  // continues from a checkpoint taking over those its first part wrote (VtkSeriesWriter's).
  const std::vector<std::pair<double, std::string>>& written() const { return series_.written; }
  void resume(std::vector<std::pair<double, std::string>> written) {
    series_.written = std::move(written);
  }

private:
  OutputSeries series_;
};

} // namespace tessera::io
