#include "patches/halo_plan.hpp"

#include <stdexcept>
#include <string>

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

} // namespace

template <int Dim>
HaloPlan<Dim> buildSameLevelHaloPlan(const PatchLayout<Dim>& layout,
                                     const SameLevelPatches<Dim>& patches,
                                     const DomainBoundary<Dim>& boundary) {
  const int n = layout.cellsPerAxis;
  const int h = layout.halo;
  const Vec<int, Dim> np = patches.patchesPerAxis;

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

  for (int p = 0; p < int(patches.positions.size()); ++p) {
    const Vec<int, Dim> pc = patches.positions[p];
    forEachNeighbourDirection<Dim>([&](Vec<int, Dim> d) {
      HaloOp<Dim> op;
      op.dstPatch = p;
      Vec<int, Dim> src = pc;
      for (int a = 0; a < Dim; ++a) {
        op.lo[a] = d[a] < 0 ? -h : (d[a] == 0 ? 0 : n);
        op.hi[a] = d[a] < 0 ? 0 : (d[a] == 0 ? n : n + h);
        op.scale[a] = 1;
        op.shift[a] = 0;
        if (d[a] == 0)
          continue;
        const int side = d[a] < 0 ? 0 : 1;
        const int neighbour = pc[a] + d[a];
        const bool inside = neighbour >= 0 && neighbour < np[a];
        const BoundaryKind kind = boundary.kind[a][side];
        if (inside || kind == BoundaryKind::Periodic) {
          src[a] = (neighbour + np[a]) % np[a];
          op.shift[a] = -d[a] * n;
        } else if (kind == BoundaryKind::Outflow) {
          op.scale[a] = 0;
          op.shift[a] = side == 0 ? 0 : n - 1;
        } else if (kind == BoundaryKind::Reflecting) {
          op.scale[a] = -1;
          op.shift[a] = side == 0 ? -1 : 2 * n - 1;
          op.reflectMask |= 1 << a;
        } else if (op.fixedState < 0) { // Inflow; at a corner of two inflow faces the first wins
          op.fixedState = inflowIndex[a][side];
        }
      }
      op.srcPatch = patches.patchAt(src);
      if (op.srcPatch < 0)
        throw std::invalid_argument("halo plan: no patch at a neighbouring position");
      plan.ops.push_back(op);
    });
  }
  return plan;
}

template <int Dim>
HaloPlan<Dim> buildUniformHaloPlan(const UniformPatchGrid<Dim>& grid,
                                   const DomainBoundary<Dim>& boundary) {
  SameLevelPatches<Dim> patches;
  for (int p = 0; p < grid.numPatches(); ++p)
    patches.positions.push_back(grid.patchCoords(p));
  patches.patchesPerAxis = grid.patchesPerAxis();
  patches.patchAt = [&grid](Vec<int, Dim> c) { return grid.patchIndex(c); };
  return buildSameLevelHaloPlan(grid.layout(), patches, boundary);
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

#pragma omp parallel for schedule(dynamic, 16)
  for (std::ptrdiff_t o = 0; o < numOps; ++o) {
    const HaloOp<Dim>& op = plan.ops[o];
    double sign[kMaxVars];
    for (int v = 0; v < nv; ++v) {
      sign[v] = 1.0;
      for (int a = 0; a < Dim; ++a)
        if (op.reflectMask & (1 << a))
          sign[v] *= parity[a * nv + v];
    }
    const double* fixed = op.fixedState >= 0 ? plan.inflowStates[op.fixedState].data() : nullptr;

    CellIndex<Dim> c = op.lo;
    while (true) {
      CellIndex<Dim> s{};
      for (int a = 0; a < Dim; ++a)
        s[a] = op.scale[a] * c[a] + op.shift[a];
      for (int v = 0; v < nv; ++v) {
        const std::size_t dst = layout.index(op.dstPatch, v, c);
        data[dst] = fixed ? fixed[v] : sign[v] * data[layout.index(op.srcPatch, v, s)];
      }
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

template HaloPlan<2> buildSameLevelHaloPlan(const PatchLayout<2>&, const SameLevelPatches<2>&,
                                            const DomainBoundary<2>&);
template HaloPlan<3> buildSameLevelHaloPlan(const PatchLayout<3>&, const SameLevelPatches<3>&,
                                            const DomainBoundary<3>&);
template HaloPlan<2> buildUniformHaloPlan(const UniformPatchGrid<2>&, const DomainBoundary<2>&);
template HaloPlan<3> buildUniformHaloPlan(const UniformPatchGrid<3>&, const DomainBoundary<3>&);
template void fillHalos(const HaloPlan<2>&, const PatchLayout<2>&, const ReflectionParity&,
                        double*);
template void fillHalos(const HaloPlan<3>&, const PatchLayout<3>&, const ReflectionParity&,
                        double*);

} // namespace tessera
