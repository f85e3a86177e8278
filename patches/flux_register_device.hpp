#pragma once
// DeviceRefluxPlan<Dim>: a reflux plan uploaded to the device and executed there, one launch per
// face direction.
// Built on the host after each adapt (the solver replaces it); the host twin is reflux, and both
// compute a face cell with refluxFaceCell and refluxCorrection (reflux_cell.hpp).
#include <array>
#include <span>

#include "engine/device_array.hpp"
#include "patches/flux_register.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

template <int Dim>
class DeviceRefluxPlan {
public:
  DeviceRefluxPlan() = default;
  DeviceRefluxPlan(std::span<const RefluxOp<Dim>> plan, const PatchLayout<Dim>& layout);

  // What reflux does, on device pointers (one geometry per patch, the flux register laid out as
  // FluxRegisterLayout says, qNew as the layout says), asynchronously; no launch for an empty
  // plan. Where two operations correct one coarse cell (at an edge or corner of the coarse patch)
  // their additions come in a fixed order (by direction), so that a run repeats bit for bit; the
  // host twin's is the plan's order: equal up to round-off.
  void apply(const PatchGeometry<Dim>* geometry, const double* fluxRegister, double dt,
             double* qNew) const;

  // The coarse patches the plan changes, sorted and unique, in device memory: their eigenvalues
  // must be recomputed after apply.
  const int* coarsePatches() const { return coarsePatches_.data(); }
  int numCoarsePatches() const { return int(coarsePatches_.size()); }
  int numOps() const { return int(ops_.size()); }

private:
  PatchLayout<Dim> layout_{};
  DeviceArray<RefluxOp<Dim>> ops_;            // grouped by direction 2 axis + side
  std::array<int, 2 * Dim + 1> groupStart_{}; // direction d's operations: [start d, start d + 1)
  DeviceArray<int> coarsePatches_;
};

} // namespace tessera
