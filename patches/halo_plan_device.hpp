#pragma once
// DeviceHaloPlan<Dim>: a HaloPlan uploaded to the device and executed there, the whole plan in one
// launch of one thread per halo cell. Built on the host after each adapt (the solver replaces it):
// O(numOps + numHaloCells / 256) host work and one upload per array. The host twin is fillHalos,
// and both compute a cell with fillHaloCell (halo_cell.hpp).
//
// Operations given a slot of an x-face buffer (patches/x_face_buffer.hpp) write their cells
// there instead, in fills that are given the buffer: those for the fused update alone.
#include <cstdint>
#include <span>

#include "engine/device_array.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

template <int Dim>
class DeviceHaloPlan {
public:
  DeviceHaloPlan() = default;
  // opSlots: empty, or each operation's x-face buffer slot (-1 where it has none; XFaceSlots).
  // Throws std::invalid_argument where parity does not have Dim * numVars entries, an inflow
  // state not numVars values or opSlots not an entry per operation.
  DeviceHaloPlan(const HaloPlan<Dim>& plan, const PatchLayout<Dim>& layout,
                 const ReflectionParity& parity, std::span<const int> opSlots = {});

  // Fills every halo cell the plan names in `data` (device memory, laid out as the layout says),
  // asynchronously; no launch for an empty plan. Given an x-face buffer (device memory, as many
  // slots as opSlots name), the operations with a slot write their cells there instead.
  void fill(double* data, double* xFaceBuffer = nullptr) const;

  std::size_t numOps() const { return ops_.size(); }
  std::uint64_t numHaloCells() const { return haloCells_; }

private:
  PatchLayout<Dim> layout_{};
  DeviceArray<HaloOp<Dim>> ops_;
  DeviceArray<std::uint64_t> opStart_; // exclusive prefix sum of the op box sizes, numOps + 1
  DeviceArray<int> blockOps_; // per launch block, the op of its first cell; numBlocks + 1 entries
  DeviceArray<double> inflowStates_; // numVars values per state, in the plan's order
  DeviceArray<double> parity_;
  DeviceArray<int> opSlots_; // empty, or one per operation
  std::uint64_t haloCells_ = 0;
};

} // namespace tessera
