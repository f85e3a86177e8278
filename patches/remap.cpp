#include "patches/remap.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "engine/parallel_for.hpp"
#include "patches/placement_index.hpp"
#include "patches/prolong_restrict.hpp"

namespace tessera {

template <int Dim>
void remapPatchData(const PatchLayout<Dim>& layout, std::span<const PatchPlacement<Dim>> oldPatches,
                    const double* oldData, std::span<const PatchPlacement<Dim>> newPatches,
                    double* newData) {
  const PlacementIndex<Dim> old(oldPatches);
  forEachPatch(int(newPatches.size()), [&](int p) {
    const PatchPlacement<Dim>& place = newPatches[p];
    if (const int same = old.at(place.level, place.index); same >= 0) {
      std::memcpy(newData + p * layout.patchStride(), oldData + same * layout.patchStride(),
                  sizeof(double) * layout.patchStride());
      return;
    }
    Vec<int, Dim> parentAt, child;
    for (int a = 0; a < Dim; ++a) {
      parentAt[a] = place.index[a] >> 1;
      child[a] = place.index[a] & 1;
    }
    if (const int parent = place.level > 0 ? old.at(place.level - 1, parentAt) : -1; parent >= 0) {
      prolongPatch(layout, oldData, parent, child, newData, p);
      return;
    }
    for (int k = 0; k < (1 << Dim); ++k) {
      Vec<int, Dim> childAt;
      for (int a = 0; a < Dim; ++a) {
        child[a] = (k >> a) & 1;
        childAt[a] = 2 * place.index[a] + child[a];
      }
      const int from = old.at(place.level + 1, childAt);
      if (from < 0)
        throw std::invalid_argument("remapPatchData: new patch " + std::to_string(p) +
                                    " is more than one level away from the old patches");
      restrictPatch(layout, oldData, from, child, newData, p);
    }
  });
}

template void remapPatchData(const PatchLayout<2>&, std::span<const PatchPlacement<2>>,
                             const double*, std::span<const PatchPlacement<2>>, double*);
template void remapPatchData(const PatchLayout<3>&, std::span<const PatchPlacement<3>>,
                             const double*, std::span<const PatchPlacement<3>>, double*);

} // namespace tessera
