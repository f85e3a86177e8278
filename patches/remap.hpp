#pragma once
// Moving patch data onto a new set of patches after an adapt: a new patch that was a patch before
// is copied, one that is a child of an old patch is prolonged from it, and one that is the parent
// of old patches is restricted from them. Each adapt changes a place by at most one level, so
// these three cases are all there is (see remap_plan.hpp). Conservative: the totals of the
// conserved variables do not change (to round-off).
#include <span>

#include "patches/halo_plan.hpp"
#include "patches/patch_layout.hpp"
#include "patches/remap_plan.hpp"

namespace tessera {

// newData's interior from oldData (whose halos must be filled: prolongation's slopes use them),
// as buildRemapPlan decides.
// Throws std::invalid_argument where a new patch is more than one level away from the old ones.
template <int Dim>
void remapPatchData(const PatchLayout<Dim>& layout, std::span<const PatchPlacement<Dim>> oldPatches,
                    const double* oldData, std::span<const PatchPlacement<Dim>> newPatches,
                    double* newData);

// The same with the plan already built: new patch p from plan[p].
template <int Dim>
void remapPatchData(const PatchLayout<Dim>& layout, std::span<const RemapOp<Dim>> plan,
                    const double* oldData, double* newData);

} // namespace tessera
