#pragma once
// The nested levels of an AMR output, built from the leaf patches of Tessera's forest: every
// level covers the parts of the domain that its own and all finer patches cover, as in AMReX's
// plotfiles, so that a reader that loads only the coarsest levels (ParaView loads level 0 unless
// told otherwise) still sees the whole domain. A patch that the forest refined into children is
// written as well, with each field's cell values the average of the 2^dim finer cells below them
// (the children's values, themselves averaged from their own children where those were refined).
// Internal to io's AMR writer.
#include <mpi.h>
#include <vector>

#include "io/cell_fields.hpp"
#include "io/patch_mesh.hpp"

namespace tessera::io::detail {

struct AmrBlock {
  int level = 0;
  long long lower[3] = {0, 0, 0}; // lowest cell's index on its level's lattice from the origin
  int owner = 0;                  // the rank that writes it
  int patchId = -1;               // the Tessera patch; -1 for a patch refined away
  unsigned indexInLevel = 0;      // its block number within its level
};

struct AmrHierarchy {
  int dim = 2, cellsPerAxis = 0, levels = 0;
  double origin[3] = {0.0, 0.0, 0.0};   // the domain's lower corner
  double coarseDx[3] = {1.0, 1.0, 1.0}; // level 0's cell size
  std::vector<int> blocksPerLevel;
  std::vector<AmrBlock> blocks; // every rank's blocks
  // This rank's blocks (indices into blocks) and their values: field after field, cell after
  // cell (x fastest), each cell's components together.
  std::vector<std::size_t> local;
  std::vector<std::vector<double>> values;
};

// Collective over comm. Each rank passes its leaf patches (mesh, in the global patch order) and
// their fields; every rank gets the whole structure and the values of the blocks it writes.
// Throws std::invalid_argument (on every rank alike) where a patch is off its level's lattice or
// a patch's cell count per axis is odd while there are several levels.
AmrHierarchy buildAmrHierarchy(const PatchMesh& mesh, const std::vector<CellField>& fields,
                               MPI_Comm comm);

} // namespace tessera::io::detail
