#include "patches/remap.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "engine/parallel_for.hpp"
#include "patches/placement_index.hpp"
#include "patches/prolong_restrict.hpp"

namespace tessera {

template <int Dim>
std::vector<RemapOp<Dim>> buildRemapPlan(std::span<const PatchPlacement<Dim>> oldPatches,
                                         std::span<const PatchPlacement<Dim>> newPatches) {
  const PlacementIndex<Dim> old(oldPatches);
  std::vector<RemapOp<Dim>> plan(newPatches.size());
  for (int p = 0; p < int(newPatches.size()); ++p) {
    const PatchPlacement<Dim>& place = newPatches[p];
    RemapOp<Dim>& op = plan[p];
    if (const int same = old.at(place.level, place.index); same >= 0) {
      op.kind = RemapKind::Copy;
      op.sources[0] = same;
      continue;
    }
    Vec<int, Dim> parentAt;
    for (int a = 0; a < Dim; ++a) {
      parentAt[a] = place.index[a] >> 1;
      op.child[a] = place.index[a] & 1;
    }
    if (const int parent = place.level > 0 ? old.at(place.level - 1, parentAt) : -1; parent >= 0) {
      op.kind = RemapKind::Prolong;
      op.sources[0] = parent;
      continue;
    }
    op.kind = RemapKind::Restrict;
    op.child = {};
    for (int k = 0; k < (1 << Dim); ++k) {
      Vec<int, Dim> childAt;
      for (int a = 0; a < Dim; ++a)
        childAt[a] = 2 * place.index[a] + ((k >> a) & 1);
      op.sources[k] = old.at(place.level + 1, childAt);
      if (op.sources[k] < 0)
        throw std::invalid_argument("remapPatchData: new patch " + std::to_string(p) +
                                    " is more than one level away from the old patches");
    }
  }
  return plan;
}

template <int Dim>
void remapPatchData(const PatchLayout<Dim>& layout, std::span<const RemapOp<Dim>> plan,
                    const double* oldData, double* newData) {
  forEachPatch(int(plan.size()), [&](int p) {
    const RemapOp<Dim>& op = plan[p];
    switch (op.kind) {
    case RemapKind::Copy:
      std::memcpy(newData + p * layout.patchStride(),
                  oldData + op.sources[0] * layout.patchStride(),
                  sizeof(double) * layout.patchStride());
      break;
    case RemapKind::Prolong:
      prolongPatch(layout, oldData, op.sources[0], op.child, newData, p);
      break;
    case RemapKind::Restrict:
      for (int k = 0; k < (1 << Dim); ++k) {
        Vec<int, Dim> child;
        for (int a = 0; a < Dim; ++a)
          child[a] = (k >> a) & 1;
        restrictPatch(layout, oldData, op.sources[k], child, newData, p);
      }
      break;
    }
  });
}

template <int Dim>
void remapPatchData(const PatchLayout<Dim>& layout, std::span<const PatchPlacement<Dim>> oldPatches,
                    const double* oldData, std::span<const PatchPlacement<Dim>> newPatches,
                    double* newData) {
  const std::vector<RemapOp<Dim>> plan = buildRemapPlan(oldPatches, newPatches);
  remapPatchData<Dim>(layout, plan, oldData, newData);
}

template std::vector<RemapOp<2>> buildRemapPlan(std::span<const PatchPlacement<2>>,
                                                std::span<const PatchPlacement<2>>);
template std::vector<RemapOp<3>> buildRemapPlan(std::span<const PatchPlacement<3>>,
                                                std::span<const PatchPlacement<3>>);
template void remapPatchData(const PatchLayout<2>&, std::span<const PatchPlacement<2>>,
                             const double*, std::span<const PatchPlacement<2>>, double*);
template void remapPatchData(const PatchLayout<3>&, std::span<const PatchPlacement<3>>,
                             const double*, std::span<const PatchPlacement<3>>, double*);
template void remapPatchData(const PatchLayout<2>&, std::span<const RemapOp<2>>, const double*,
                             double*);
template void remapPatchData(const PatchLayout<3>&, std::span<const RemapOp<3>>, const double*,
                             double*);

} // namespace tessera
