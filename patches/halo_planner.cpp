#include "patches/halo_planner.hpp"

#include <span>
#include <stdexcept>
#include <string>

#include "engine/ordered_gather.hpp"
#include "patches/face_links.hpp"

namespace tessera {
namespace {

// The destination cells d in [lo, hi) whose u = scale d + shift lies in [from, to).
inline bool restrictRange(int scale, int shift, int from, int to, int& lo, int& hi) {
  if (scale == 0)
    return shift >= from && shift < to; // every d maps to shift
  const int a = scale == 1 ? from - shift : shift - to + 1;
  const int b = scale == 1 ? to - shift : shift - from + 1;
  lo = std::max(lo, a);
  hi = std::min(hi, b);
  return lo < hi;
}

// The face a direction points to (2 * axis + side), or -1 for an edge or a corner.
template <int Dim>
int faceOf(const Vec<int, Dim>& d) {
  int face = -1;
  for (int a = 0; a < Dim; ++a)
    if (d[a] != 0) {
      if (face >= 0)
        return -1;
      face = 2 * a + (d[a] > 0 ? 1 : 0);
    }
  return face;
}

// The patch whose interior a face's halo copies by a plain translation (a same-level neighbour
// inside the domain), given the face's operations; -1 if none.
template <int Dim>
int linkedNeighbour(std::span<const HaloOp<Dim>> ops) {
  if (ops.size() != 1)
    return -1;
  const HaloOp<Dim>& op = ops[0];
  if (op.source != HaloSource::SameLevel || op.wrapMask != 0 || op.reflectMask != 0)
    return -1;
  for (int a = 0; a < Dim; ++a)
    if (op.scale[a] != 1)
      return -1; // an outflow boundary's clamp reads the patch itself
  return op.srcPatch;
}

} // namespace

template <int Dim>
HaloPlanner<Dim>::HaloPlanner(const PatchLayout<Dim>& layout,
                              std::vector<PatchPlacement<Dim>> patches,
                              Vec<int, Dim> level0PatchesPerAxis,
                              const DomainBoundary<Dim>& boundary, int filledPatches)
    : layout_(layout), patches_(std::move(patches)), index_(patches_),
      level0_(level0PatchesPerAxis), boundary_(boundary),
      filled_(filledPatches < 0 ? int(patches_.size()) : filledPatches) {
  const int n = layout.cellsPerAxis;
  if (n + layout.halo > kMaxHaloPlanCells)
    throw std::invalid_argument("halo plan: patches of " + std::to_string(n) +
                                " cells a side exceed the plan's " +
                                std::to_string(kMaxHaloPlanCells));
  for (int p = 0; p < filled_; ++p)
    if (patches_[std::size_t(p)].level > 0 && n % 2 != 0)
      throw std::invalid_argument("halo plan: refined patches need an even cell count per axis");
  for (int a = 0; a < Dim; ++a)
    for (int side = 0; side < 2; ++side) {
      inflowIndex_[a][side] = -1;
      if (boundary.kind[a][side] == BoundaryKind::Periodic &&
          boundary.kind[a][1 - side] != BoundaryKind::Periodic)
        throw std::invalid_argument("periodic boundary on axis " + std::to_string(a) +
                                    " must be periodic on both sides");
      if (boundary.kind[a][side] != BoundaryKind::Inflow)
        continue;
      const auto& state = boundary.inflowState[a][side];
      if (state.size() != std::size_t(layout.numVars))
        throw std::invalid_argument("inflow state on axis " + std::to_string(a) + " has " +
                                    std::to_string(state.size()) + " values, expected " +
                                    std::to_string(layout.numVars));
      inflowIndex_[a][side] = int(inflowStates_.size());
      inflowStates_.push_back(state);
    }
}

template <int Dim>
HaloPlan<Dim> HaloPlanner<Dim>::whole() const {
  return planOf(
      true, [](int, const Vec<int, Dim>&) { return false; },
      [](int, const Vec<int, Dim>&, std::span<const HaloOp<Dim>>, const PatchRange&) {
        return true;
      });
}

template <int Dim>
HaloPlan<Dim> HaloPlanner<Dim>::wholeOf(std::span<const int> patches) const {
  std::vector<char> listed(std::size_t(filled_), 0);
  for (int p : patches) {
    if (p < 0 || p >= filled_)
      throw std::invalid_argument("HaloPlanner::wholeOf: patch " + std::to_string(p) +
                                  " is not one of the " + std::to_string(filled_) +
                                  " filled patches");
    listed[std::size_t(p)] = 1;
  }
  return planOf(
      true, [&](int p, const Vec<int, Dim>&) { return !listed[std::size_t(p)]; },
      [](int, const Vec<int, Dim>&, std::span<const HaloOp<Dim>>, const PatchRange&) {
        return true;
      });
}

template <int Dim>
HaloPlan<Dim> HaloPlanner<Dim>::unlinkedFaces(std::vector<int>& neighbour) const {
  constexpr int kFaces = FaceLinks<Dim>::kFaces;
  neighbour.assign(std::size_t(filled_) * kFaces, -1);
  const auto link = [&](int p, int face) -> int& {
    return neighbour[std::size_t(p) * kFaces + std::size_t(face)];
  };
  // A link is mutual: the neighbour's opposite face links back and is not planned again (most
  // faces are linked; this halves their lookups), where the neighbour is planned by the same
  // thread (a patch's links are written by its own thread only).
  return planOf(
      false, [&](int p, const Vec<int, Dim>& d) { return link(p, faceOf<Dim>(d)) >= 0; },
      [&](int p, const Vec<int, Dim>& d, std::span<const HaloOp<Dim>> ops, const PatchRange& own) {
        const int linked = linkedNeighbour<Dim>(ops);
        if (linked < 0)
          return true;
        const int face = faceOf<Dim>(d);
        link(p, face) = linked;
        if (linked >= own.begin && linked < own.end)
          link(linked, face ^ 1) = p;
        return false;
      });
}

template <int Dim>
HaloPlan<Dim> HaloPlanner<Dim>::unread() const {
  return planOf(
      true, [](int, const Vec<int, Dim>&) { return false; },
      [](int, const Vec<int, Dim>& d, std::span<const HaloOp<Dim>> ops, const PatchRange&) {
        return faceOf<Dim>(d) < 0 || linkedNeighbour<Dim>(ops) >= 0;
      });
}

template <int Dim>
template <class Decided, class Keep>
HaloPlan<Dim> HaloPlanner<Dim>::planOf(bool withEdges, Decided&& decided, Keep&& keep) const {
  // The directions visited, in the order of {-1, 0, 1}^Dim with the first axis fastest.
  std::vector<Vec<int, Dim>> directions;
  for (int m = 0, total = Dim == 2 ? 9 : 27; m < total; ++m) {
    Vec<int, Dim> d;
    int nonzero = 0;
    for (int a = 0, r = m; a < Dim; ++a, r /= 3) {
      d[a] = r % 3 - 1;
      nonzero += d[a] != 0;
    }
    if (nonzero == 1 || (nonzero > 1 && withEdges))
      directions.push_back(d);
  }
  HaloPlan<Dim> plan;
  plan.inflowStates = inflowStates_;
  const auto planRange = [&](int begin, int end, std::vector<HaloOp<Dim>>& planned) {
    // One operation per patch and direction, more where a finer neighbour splits one: the
    // common case without regrowth (a regrid of thousands of patches spent much of its plan in
    // copies).
    planned.reserve(std::size_t(end - begin) * directions.size() * 5 / 4);
    const PatchRange own{begin, end};
    std::vector<HaloOp<Dim>> ops;
    for (int p = begin; p < end; ++p)
      for (const Vec<int, Dim>& d : directions) {
        if (decided(p, d))
          continue;
        ops.clear();
        appendOps(p, d, ops);
        if (keep(p, d, std::span<const HaloOp<Dim>>(ops), own))
          planned.insert(planned.end(), ops.begin(), ops.end());
      }
  };
  // A plan of faces only is small beside its lookups, which miss the cache: it is built on the
  // host's threads (16 threads: 0.94 -> 0.20 ms for 7000 patches). Every halo cell's plan is 30
  // times larger, and on threads it was slower (7.3 -> 9.3 ms): the threads' parts and their join
  // are written to fresh pages.
  if (!withEdges)
    plan.ops = gatherInOrder<HaloOp<Dim>>(filled_, planRange);
  else
    planRange(0, filled_, plan.ops);
  return plan;
}

template <int Dim>
void HaloPlanner<Dim>::appendOps(int p, const Vec<int, Dim>& d,
                                 std::vector<HaloOp<Dim>>& ops) const {
  const int n = layout_.cellsPerAxis;
  const int h = layout_.halo;
  const int level = patches_[std::size_t(p)].level;
  const Vec<int, Dim> at = patches_[std::size_t(p)].index;
  HaloOp<Dim> op;
  op.dstPatch = p;
  const auto set = [](std::int16_t& field, int value) { field = std::int16_t(value); };
  // The neighbouring patch position on this level, after periodic wrap; physical axes keep
  // this patch's position and map cells into it by mirror or clamp.
  Vec<int, Dim> virtualAt = at;
  for (int a = 0; a < Dim; ++a) {
    set(op.lo[a], d[a] < 0 ? -h : (d[a] == 0 ? 0 : n));
    set(op.hi[a], d[a] < 0 ? 0 : (d[a] == 0 ? n : n + h));
    op.scale[a] = 1;
    op.shift[a] = 0;
    if (d[a] == 0)
      continue;
    const int side = d[a] < 0 ? 0 : 1;
    const int patchesOnLevel = level0_[a] << level;
    const int neighbour = at[a] + d[a];
    const bool inside = neighbour >= 0 && neighbour < patchesOnLevel;
    const BoundaryKind kind = boundary_.kind[a][side];
    if (inside || kind == BoundaryKind::Periodic) {
      virtualAt[a] = (neighbour + patchesOnLevel) % patchesOnLevel;
      set(op.shift[a], -d[a] * n);
      if (!inside)
        op.wrapMask = std::uint8_t(op.wrapMask | 1 << a);
    } else if (kind == BoundaryKind::Outflow) {
      op.scale[a] = 0;
      set(op.shift[a], side == 0 ? 0 : n - 1);
    } else if (kind == BoundaryKind::Reflecting) {
      op.scale[a] = -1;
      set(op.shift[a], side == 0 ? -1 : 2 * n - 1);
      op.reflectMask = std::uint8_t(op.reflectMask | 1 << a);
    } else if (op.fixedState < 0) { // Inflow; at a corner of two inflow faces the first wins
      op.fixedState = std::int8_t(inflowIndex_[a][side]);
    }
  }
  if (op.fixedState >= 0) { // an inflow state is imposed as given, never mirrored
    op.source = HaloSource::Fixed;
    op.srcPatch = p;
    op.reflectMask = 0;
    ops.push_back(op);
    return;
  }
  if (const int same = index_.at(level, virtualAt); same >= 0) {
    op.source = HaloSource::SameLevel;
    op.srcPatch = same;
    ops.push_back(op);
    return;
  }
  Vec<int, Dim> parentAt;
  for (int a = 0; a < Dim; ++a)
    parentAt[a] = virtualAt[a] >> 1;
  if (const int coarse = level > 0 ? index_.at(level - 1, parentAt) : -1; coarse >= 0) {
    op.source = HaloSource::Coarser;
    op.srcPatch = coarse;
    for (int a = 0; a < Dim; ++a)
      set(op.shift[a], op.shift[a] + (virtualAt[a] & 1) * n); // the virtual patch's corner
    ops.push_back(op);
    return;
  }
  // Finer: each child of the virtual patch that the box maps into gives one operation.
  const int half = n / 2;
  for (int k = 0; k < (1 << Dim); ++k) {
    HaloOp<Dim> part = op;
    Vec<int, Dim> childAt;
    bool overlaps = true;
    for (int a = 0; a < Dim && overlaps; ++a) {
      const int c = (k >> a) & 1;
      childAt[a] = 2 * virtualAt[a] + c;
      int lo = part.lo[a], hi = part.hi[a];
      overlaps = restrictRange(op.scale[a], op.shift[a], c * half, (c + 1) * half, lo, hi);
      set(part.lo[a], lo);
      set(part.hi[a], hi);
      set(part.shift[a], part.shift[a] - c * half);
    }
    if (!overlaps)
      continue;
    part.source = HaloSource::Finer;
    part.srcPatch = index_.at(level + 1, childAt);
    if (part.srcPatch < 0)
      throw std::invalid_argument("halo plan: patch " + std::to_string(p) + " on level " +
                                  std::to_string(level) +
                                  " has a neighbour more than one level finer or none");
    ops.push_back(part);
  }
}

template class HaloPlanner<2>;
template class HaloPlanner<3>;

} // namespace tessera
