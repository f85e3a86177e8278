#pragma once
// The output cells of a rank's patches, as both patch writers take them: the unstructured-grid
// series (io/vtk_output.hpp) and the AMR series (io/amr_output.hpp).
#include <initializer_list>
#include <string_view>
#include <vector>

#include "io/cell_fields.hpp"

namespace tessera::io {

// The integer cell arrays both patch writers add: the caller's fields must not use these names.
inline constexpr const char* kPatchIdName = "patch_id";
inline constexpr const char* kLevelName = "level";
inline constexpr const char* kRankName = "rank";

// The formats of patch output (output.format).
enum class PatchOutputFormat {
  Unstructured, // .pvtu of each rank's .vtu: hexahedra or quads on shared points within a piece
  Amr,          // .vthb: one image-data block per patch, levels and blanking for AMR filters
};

// The output cells of one rank: the interior cells of its patches, patch after patch, x fastest
// within a patch (the order of PatchLayout::interiorCell).
struct PatchMesh {
  int dim = 2;          // 2 or 3
  int cellsPerAxis = 0; // N
  // Per patch: lower corner and cell size, three components each (z unused in 2D).
  std::vector<double> origin;
  std::vector<double> dx;
  std::vector<int> patchId; // global patch id
  std::vector<int> level;   // refinement level (0 on a uniform grid)

  int numPatches() const { return int(patchId.size()); }
  long long numCells() const;
};

// Throws std::invalid_argument, naming `writer`, unless the mesh is consistent (dimension 2 or 3,
// N > 0, 3 origin and dx values and a level per patch) and the fields pass checkCellFields for its
// cells with the writer's `reserved` names.
void checkPatchMesh(std::string_view writer, const PatchMesh& mesh,
                    const std::vector<CellField>& fields,
                    std::initializer_list<std::string_view> reserved);

} // namespace tessera::io
