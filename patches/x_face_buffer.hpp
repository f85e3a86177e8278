#pragma once
// The x faces between levels in a compact buffer, for the fused first-order update on the device.
//
// A halo fill writes an x face's cells one per row of the patch, each in a 32-byte sector of its
// own: on an H100 those scattered stores held the fill (a variant that stored the x faces into a
// compact buffer instead ran the fill in 49.8 instead of 73.8 us), while the update reads an
// x face from a buffer at about the cost of the halo (benchmarks/RESULTS.md). So the faces whose
// cells a fill computes (coarse-fine: Coarser and Finer operations; same-level faces the update
// reads through face links, patches/face_links.hpp) go to a slot of the buffer, one slot per
// patch and x side, and the update reads them there. Fills for other readers (criteria,
// prolongation, output) write the patches' halos as before.
//
// A slot holds a face's N^(Dim-1) cells for each variable, y fastest:
// values[((slot * numVars + v) * N + z) * N + y] in 3D, values[(slot * numVars + v) * N + y] in 2D.
#include <cstddef>
#include <span>
#include <vector>

#include "engine/backend.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

// What the update reads of the buffer: slots[2 * patch + side] is the slot of that x face of the
// patch, or -1 where it reads the face from the patch's halo or a face link.
struct XFaceBufferView {
  const int* slots = nullptr;
  const double* values = nullptr;
};

// The buffer's strides for faces of n cells a side: along face axis `axis` (1 <= axis < Dim, y
// fastest), and between variables (the cells of one variable in one slot). Constant expressions,
// so that a kernel can hold them as compile-time constants.
TESSERA_INLINE constexpr std::size_t xFaceAxisStride(int n, int axis) {
  std::size_t stride = 1;
  for (int a = 1; a < axis; ++a)
    stride *= std::size_t(n);
  return stride;
}
template <int Dim>
TESSERA_INLINE constexpr std::size_t xFaceVariableStride(int n) {
  return xFaceAxisStride(n, Dim);
}

// Cells of one variable in one slot.
template <int Dim>
TESSERA_INLINE std::size_t xFaceCells(const PatchLayout<Dim>& layout) {
  return xFaceVariableStride<Dim>(layout.cellsPerAxis);
}

// Where variable `var` of x-face halo cell c (its x, -1 or N, plays no part) of `slot` lies.
template <int Dim>
TESSERA_INLINE std::size_t xFaceBufferIndex(const PatchLayout<Dim>& layout, int slot, int var,
                                            CellIndex<Dim> c) {
  std::size_t at =
      (std::size_t(slot) * std::size_t(layout.numVars) + std::size_t(var)) * xFaceCells(layout);
  for (int a = 1; a < Dim; ++a)
    at += std::size_t(c[a]) * xFaceAxisStride(layout.cellsPerAxis, a);
  return at;
}

// Whether op's cells go to the buffer: a coarse-fine operation on an x face, one cell deep and
// no wider than the face, not across a periodic boundary (a boundary hook may take those cells
// over in the patch's halo, solvers/patch/boundary_hook.hpp) and not mirrored.
template <int Dim>
bool buffersXFace(const HaloOp<Dim>& op, const PatchLayout<Dim>& layout) {
  if ((op.source != HaloSource::Coarser && op.source != HaloSource::Finer) || op.wrapMask != 0 ||
      op.reflectMask != 0)
    return false;
  const int n = layout.cellsPerAxis;
  if (op.hi[0] - op.lo[0] != 1 || (op.lo[0] != -1 && op.lo[0] != n))
    return false;
  for (int a = 1; a < Dim; ++a)
    if (op.lo[a] < 0 || op.hi[a] > n)
      return false;
  return true;
}

// The slots of the x faces of `patches` patches: a face gets one when a plan given to assign()
// buffers one of its operations.
template <int Dim>
class XFaceSlots {
public:
  explicit XFaceSlots(int patches = 0) : ofFace_(std::size_t(2) * std::size_t(patches), -1) {}

  // Each operation's slot (-1 for those not buffered), giving new slots to faces that have none.
  std::vector<int> assign(const HaloPlan<Dim>& plan, const PatchLayout<Dim>& layout) {
    std::vector<int> opSlots(plan.ops.size(), -1);
    for (std::size_t o = 0; o < plan.ops.size(); ++o) {
      const HaloOp<Dim>& op = plan.ops[o];
      if (!buffersXFace(op, layout))
        continue;
      int& slot = ofFace_[std::size_t(2 * op.dstPatch + (op.lo[0] < 0 ? 0 : 1))];
      if (slot < 0)
        slot = count_++;
      opSlots[o] = slot;
    }
    return opSlots;
  }

  std::span<const int> ofFace() const { return ofFace_; }
  int count() const { return count_; }

private:
  std::vector<int> ofFace_; // [2 * patch + side]
  int count_ = 0;
};

} // namespace tessera
