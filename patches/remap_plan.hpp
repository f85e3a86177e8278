#pragma once
// The remap plan: where each new patch's data comes from after an adapt, decided once on the host
// and executed by the host remapPatchData and the device remapPatchDataDevice alike. Each adapt
// changes a place by at most one level, so a new patch is a copy of an old patch, the
// prolongation of one old patch (its parent), or the restriction of 2^Dim old patches (its
// children).
#include <span>
#include <vector>

#include "patches/halo_plan.hpp"

namespace tessera {

enum class RemapKind : signed char { Copy, Prolong, Restrict };

// The source of one new patch. Copy and Prolong read old patch sources[0]; Prolong gives the new
// patch child `child` of it. Restrict reads old patch sources[k] for the octant k = x + 2y + 4z of
// the new patch (that child's position bits), so the octant of interior cell c is c / (N/2).
template <int Dim>
struct RemapOp {
  RemapKind kind = RemapKind::Copy;
  int sources[1 << Dim]{};
  Vec<int, Dim> child{};
};

// One operation per new patch, in the order of newPatches. Throws std::invalid_argument where a
// new patch is more than one level away from the old ones.
template <int Dim>
std::vector<RemapOp<Dim>> buildRemapPlan(std::span<const PatchPlacement<Dim>> oldPatches,
                                         std::span<const PatchPlacement<Dim>> newPatches);

} // namespace tessera
