#include "io/patch_mesh.hpp"

#include <stdexcept>
#include <string>

namespace tessera::io {

long long PatchMesh::numCells() const {
  long long perPatch = 1;
  for (int a = 0; a < dim; ++a)
    perPatch *= cellsPerAxis;
  return perPatch * numPatches();
}

void checkPatchMesh(std::string_view writer, const PatchMesh& mesh,
                    const std::vector<CellField>& fields,
                    std::initializer_list<std::string_view> reserved) {
  const std::string name(writer);
  if (mesh.dim != 2 && mesh.dim != 3)
    throw std::invalid_argument(name + ": PatchMesh dim must be 2 or 3, got " +
                                std::to_string(mesh.dim));
  if (mesh.cellsPerAxis < 1)
    throw std::invalid_argument(name + ": PatchMesh cellsPerAxis must be positive, got " +
                                std::to_string(mesh.cellsPerAxis));
  const std::size_t patches = mesh.patchId.size();
  if (mesh.origin.size() != 3 * patches || mesh.dx.size() != 3 * patches ||
      mesh.level.size() != patches)
    throw std::invalid_argument(name + ": PatchMesh of " + std::to_string(patches) +
                                " patches needs 3 origin, 3 dx and 1 level value each");
  checkCellFields(writer, fields, mesh.numCells(), reserved);
}

} // namespace tessera::io
