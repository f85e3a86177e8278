#include "patches/halo_plan.hpp"

#include <stdexcept>
#include <string>

#include "patches/halo_cell.hpp"
#include "patches/placement_index.hpp"
#include "patches/uniform_patch_grid.hpp"

namespace tessera {
namespace {

// Visits every direction in {-1, 0, 1}^Dim except the zero vector: faces, edges and corners.
template <int Dim, class F>
void forEachNeighbourDirection(F&& f) {
  int total = 1;
  for (int a = 0; a < Dim; ++a)
    total *= 3;
  for (int n = 0; n < total; ++n) {
    Vec<int, Dim> d{};
    bool zero = true;
    for (int a = 0, m = n; a < Dim; ++a, m /= 3) {
      d[a] = m % 3 - 1;
      zero = zero && d[a] == 0;
    }
    if (!zero)
      f(d);
  }
}

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

} // namespace

template <int Dim>
HaloPlan<Dim> buildHaloPlan(const PatchLayout<Dim>& layout,
                            std::span<const PatchPlacement<Dim>> patches,
                            Vec<int, Dim> level0PatchesPerAxis, const DomainBoundary<Dim>& boundary,
                            int filledPatches) {
  const int n = layout.cellsPerAxis;
  const int h = layout.halo;
  if (n + h > kMaxHaloPlanCells)
    throw std::invalid_argument("halo plan: patches of " + std::to_string(n) +
                                " cells a side exceed the plan's " +
                                std::to_string(kMaxHaloPlanCells));
  const PlacementIndex<Dim> index(patches);

  HaloPlan<Dim> plan;
  int inflowIndex[Dim][2];
  for (int a = 0; a < Dim; ++a)
    for (int side = 0; side < 2; ++side) {
      inflowIndex[a][side] = -1;
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
      inflowIndex[a][side] = int(plan.inflowStates.size());
      plan.inflowStates.push_back(state);
    }

  const int filled = filledPatches < 0 ? int(patches.size()) : filledPatches;
  int directions = 1;
  for (int a = 0; a < Dim; ++a)
    directions *= 3;
  // One operation per patch and direction, more where a finer neighbour splits one: the common
  // case without regrowth (a regrid of thousands of patches spent much of its plan in copies).
  plan.ops.reserve(std::size_t(filled) * std::size_t(directions - 1) * 5 / 4);
  for (int p = 0; p < filled; ++p) {
    const int level = patches[p].level;
    const Vec<int, Dim> at = patches[p].index;
    if (level > 0 && n % 2 != 0)
      throw std::invalid_argument("halo plan: refined patches need an even cell count per axis");
    forEachNeighbourDirection<Dim>([&](Vec<int, Dim> d) {
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
        const int patchesOnLevel = level0PatchesPerAxis[a] << level;
        const int neighbour = at[a] + d[a];
        const bool inside = neighbour >= 0 && neighbour < patchesOnLevel;
        const BoundaryKind kind = boundary.kind[a][side];
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
          op.fixedState = std::int8_t(inflowIndex[a][side]);
        }
      }
      if (op.fixedState >= 0) { // an inflow state is imposed as given, never mirrored
        op.source = HaloSource::Fixed;
        op.srcPatch = p;
        op.reflectMask = 0;
        plan.ops.push_back(op);
        return;
      }
      if (const int same = index.at(level, virtualAt); same >= 0) {
        op.source = HaloSource::SameLevel;
        op.srcPatch = same;
        plan.ops.push_back(op);
        return;
      }
      Vec<int, Dim> parentAt;
      for (int a = 0; a < Dim; ++a)
        parentAt[a] = virtualAt[a] >> 1;
      if (const int coarse = level > 0 ? index.at(level - 1, parentAt) : -1; coarse >= 0) {
        op.source = HaloSource::Coarser;
        op.srcPatch = coarse;
        for (int a = 0; a < Dim; ++a)
          set(op.shift[a], op.shift[a] + (virtualAt[a] & 1) * n); // the virtual patch's corner
        plan.ops.push_back(op);
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
        part.srcPatch = index.at(level + 1, childAt);
        if (part.srcPatch < 0)
          throw std::invalid_argument("halo plan: patch " + std::to_string(p) + " on level " +
                                      std::to_string(level) +
                                      " has a neighbour more than one level finer or none");
        plan.ops.push_back(part);
      }
    });
  }
  return plan;
}

template <int Dim>
HaloPlan<Dim> buildUniformHaloPlan(const UniformPatchGrid<Dim>& grid,
                                   const DomainBoundary<Dim>& boundary) {
  std::vector<PatchPlacement<Dim>> patches(grid.numPatches());
  for (int p = 0; p < grid.numPatches(); ++p)
    patches[p].index = grid.patchCoords(p);
  return buildHaloPlan<Dim>(grid.layout(), patches, grid.patchesPerAxis(), boundary);
}

template <int Dim>
void fillHalos(const HaloPlan<Dim>& plan, const PatchLayout<Dim>& layout,
               const ReflectionParity& parity, double* data) {
  constexpr int kMaxVars = 32;
  const int nv = layout.numVars;
  if (nv > kMaxVars)
    throw std::invalid_argument("fillHalos: at most 32 variables per cell");
  if (parity.size() != std::size_t(Dim * nv))
    throw std::invalid_argument("fillHalos: reflection parity must have Dim * numVars entries");
  const std::ptrdiff_t numOps = std::ptrdiff_t(plan.ops.size());

  // The same values as fillHaloCell (the device's per-cell form), with what is fixed for an
  // operation (signs, source pointers) worked out once per operation: the host loop over a box
  // is then a few loads and stores per cell.
#pragma omp parallel for schedule(dynamic, 16)
  for (std::ptrdiff_t o = 0; o < numOps; ++o) {
    const HaloOp<Dim>& op = plan.ops[o];
    const double* fixed =
        op.source == HaloSource::Fixed ? plan.inflowStates[op.fixedState].data() : nullptr;
    double sign[kMaxVars];
    const double* src[kMaxVars];
    double* dst[kMaxVars];
    for (int v = 0; v < nv; ++v) {
      sign[v] = haloSign(op, parity.data(), nv, v);
      src[v] = data + layout.varOffset(op.srcPatch, v);
      dst[v] = data + layout.varOffset(op.dstPatch, v);
    }
    CellIndex<Dim> c;
    for (int a = 0; a < Dim; ++a)
      c[a] = op.lo[a];
    while (true) {
      CellIndex<Dim> u{};
      for (int a = 0; a < Dim; ++a)
        u[a] = op.scale[a] * c[a] + op.shift[a];
      const int at = layout.cellOffset(c);
      for (int v = 0; v < nv; ++v)
        dst[v][at] = sign[v] * haloValue(op, layout, src[v], fixed, u, v);
      int a = 0; // advance the box's cell counter, x fastest
      for (; a < Dim; ++a) {
        if (++c[a] < op.hi[a])
          break;
        c[a] = op.lo[a];
      }
      if (a == Dim)
        break;
    }
  }
}

template HaloPlan<2> buildHaloPlan(const PatchLayout<2>&, std::span<const PatchPlacement<2>>,
                                   Vec<int, 2>, const DomainBoundary<2>&, int);
template HaloPlan<3> buildHaloPlan(const PatchLayout<3>&, std::span<const PatchPlacement<3>>,
                                   Vec<int, 3>, const DomainBoundary<3>&, int);
template HaloPlan<2> buildUniformHaloPlan(const UniformPatchGrid<2>&, const DomainBoundary<2>&);
template HaloPlan<3> buildUniformHaloPlan(const UniformPatchGrid<3>&, const DomainBoundary<3>&);
template void fillHalos(const HaloPlan<2>&, const PatchLayout<2>&, const ReflectionParity&,
                        double*);
template void fillHalos(const HaloPlan<3>&, const PatchLayout<3>&, const ReflectionParity&,
                        double*);

} // namespace tessera
