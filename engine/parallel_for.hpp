#pragma once
// Host (OpenMP) parallel loops over patches and over patches x cells. The device twins are in
// engine/parallel_for_device.hpp; both call f with the same arguments, so a loop body written as a
// TESSERA_HOST_DEVICE lambda runs on either back end.

namespace tessera {

// f(patch) for every patch; one patch per OpenMP iteration, statically scheduled because patches
// of one grid cost the same.
template <class F>
void forEachPatch(int numPatches, F&& f) {
#pragma omp parallel for schedule(static)
  for (int p = 0; p < numPatches; ++p)
    f(p);
}

// f(patch, cell) for cell in [0, cellsPerPatch) of every patch.
template <class F>
void forEachPatchCell(int numPatches, int cellsPerPatch, F&& f) {
#pragma omp parallel for collapse(2) schedule(static)
  for (int p = 0; p < numPatches; ++p)
    for (int c = 0; c < cellsPerPatch; ++c)
      f(p, c);
}

} // namespace tessera
