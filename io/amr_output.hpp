#pragma once
// VTK's overlapping AMR output of patches (output.format = "amr"), written through VTK's own
// parallel XML AMR writer: per output step one .vthb that lists image-data blocks by level (AMR
// box, level spacing, the domain's origin), the blocks' .vti files, and the time series of the
// steps:
//   <base>.pvd                          the time series (ParaView's PVD reader loads level 0 only)
//   <base>.vthb.series                  the same series for ParaView's AMR reader, whose Default
//                                       Number of Levels (0: all) sets how many levels it loads
//   <base>_<step>.vthb                  one per output step
//   <base>_<step>/<base>_<step>_<n>.vti one per block (block n in the .vthb's order)
// The levels are nested (io/amr_hierarchy.hpp): every patch of the forest is a block of its level,
// and so is every patch the forest refined away, with the average of the cells below it. Cells
// that a finer block covers are blanked (VTK's ghost array vtkGhostType with the REFINEDCELL bit,
// set by vtkParallelAMRUtilities), so a reader of all levels takes each place from its finest
// block. Each block carries the given fields (Float64, as VtkSeriesWriter's), the Int32 arrays
// patch_id (-1 for a refined-away patch), level and rank, and the simulated time as field data
// TIME.
//
// A step's files are written into a folder of their own beside the output and moved into place
// once every rank has written its blocks (the block folder first, the .vthb last), so a reader
// never sees a .vthb whose blocks are missing or half-written.
#include <filesystem>
#include <memory>
#include <mpi.h>
#include <string>
#include <utility>
#include <vector>

#include "io/cell_fields.hpp"
#include "io/vtk_output.hpp"

namespace tessera::io {

class AmrSeriesWriter {
public:
  // Collective over comm, which the writer keeps using. Throws std::invalid_argument unless
  // baseName is a plain file name.
  AmrSeriesWriter(std::filesystem::path directory, std::string baseName, MPI_Comm comm);
  ~AmrSeriesWriter();
  AmrSeriesWriter(const AmrSeriesWriter&) = delete;
  AmrSeriesWriter& operator=(const AmrSeriesWriter&) = delete;

  // Collective over the writer's comm: each rank passes its own patches (mesh.patchId global, in
  // the global order of the patches) and their fields. The patches of all ranks must tile one
  // adaptive mesh: cell sizes of a level are the level-0 size over 2^level, corners on the
  // level's lattice. Returns the .vthb's path on every rank. Throws std::invalid_argument for an
  // inconsistent mesh or fields (before any file is touched), std::runtime_error naming the file
  // where a rank could not write (on every rank, the written part removed).
  std::filesystem::path write(int step, double time, const PatchMesh& mesh,
                              const std::vector<CellField>& fields);

  std::filesystem::path seriesPath() const;

  // The output steps written so far (time, .vthb relative to the directory), and a run that
  // continues from a checkpoint taking over those its first part wrote.
  const std::vector<std::pair<double, std::string>>& written() const { return written_; }
  void resume(std::vector<std::pair<double, std::string>> written) {
    written_ = std::move(written);
  }

private:
  struct Controller; // VTK's MPI controller on the writer's comm
  std::filesystem::path directory_;
  std::string baseName_;
  MPI_Comm comm_;
  std::unique_ptr<Controller> controller_;
  std::vector<std::pair<double, std::string>> written_;
};

} // namespace tessera::io
