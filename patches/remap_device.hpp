#pragma once
// Remap on the device: the plan of buildRemapPlan (remap_plan.hpp), uploaded by the caller,
// executed in one launch. The host twin is remapPatchData; both take each cell's value from the
// pointwise prolongedValue and restrictedValue (prolong_restrict.hpp).
#include "engine/device_array.hpp"
#include "patches/patch_layout.hpp"
#include "patches/remap_plan.hpp"

namespace tessera {

// The interior of every new patch (plan[p] for new patch p) in newData from oldData, both device
// memory laid out as the layout says, asynchronously. oldData's face halos must be filled
// (prolongation's slopes use them), but for the faces linked in faceLinks (the old patches'
// FaceLinks::neighbour on the device, or null), which are read from the neighbours; newData's
// halos are left as they are (the caller fills them with the new halo plan).
template <int Dim>
void remapPatchDataDevice(const PatchLayout<Dim>& layout, const DeviceArray<RemapOp<Dim>>& plan,
                          const double* oldData, double* newData, const int* faceLinks = nullptr);

} // namespace tessera
