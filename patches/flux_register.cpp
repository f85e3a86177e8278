#include "patches/flux_register.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/ordered_gather.hpp"
#include "patches/placement_index.hpp"
#include "patches/reflux_cell.hpp"

namespace tessera {

namespace {

// Appends the reflux operations of patch p's faces, axis by axis and side by side.
template <int Dim>
void appendRefluxFaces(const PlacementIndex<Dim>& index,
                       std::span<const PatchPlacement<Dim>> patches,
                       const Vec<int, Dim>& level0PatchesPerAxis,
                       const DomainBoundary<Dim>& boundary, int p,
                       std::vector<RefluxOp<Dim>>& plan) {
  const int level = patches[p].level;
  for (int axis = 0; axis < Dim; ++axis)
    for (int side = 0; side < 2; ++side) {
      const int patchesOnLevel = level0PatchesPerAxis[axis] << level;
      Vec<int, Dim> across = patches[p].index;
      across[axis] += side == 0 ? -1 : 1;
      const bool inside = across[axis] >= 0 && across[axis] < patchesOnLevel;
      if (!inside && boundary.kind[axis][side] != BoundaryKind::Periodic)
        continue; // a physical face
      across[axis] = (across[axis] + patchesOnLevel) % patchesOnLevel;
      Vec<int, Dim> parent;
      for (int a = 0; a < Dim; ++a)
        parent[a] = across[a] >> 1;
      if (index.at(level, across) >= 0 || (level > 0 && index.at(level - 1, parent) >= 0))
        continue; // the same level or coarser across this face: nothing to correct here
      // Finer: the children of `across` that touch this face.
      for (int k = 0; k < (1 << Dim); ++k) {
        RefluxOp<Dim> op;
        Vec<int, Dim> childAt;
        for (int a = 0; a < Dim; ++a) {
          op.child[a] = (k >> a) & 1;
          childAt[a] = 2 * across[a] + op.child[a];
        }
        if (op.child[axis] != (side == 0 ? 1 : 0))
          continue; // not on the face
        op.coarsePatch = p;
        op.finePatch = index.at(level + 1, childAt);
        op.axis = axis;
        op.side = side;
        if (op.finePatch < 0)
          throw std::invalid_argument("reflux plan: patch " + std::to_string(p) +
                                      " has a face neighbour more than one level finer");
        plan.push_back(op);
      }
    }
}

} // namespace

template <int Dim>
std::vector<RefluxOp<Dim>>
buildRefluxPlan(const PlacementIndex<Dim>& index, std::span<const PatchPlacement<Dim>> patches,
                Vec<int, Dim> level0PatchesPerAxis, const DomainBoundary<Dim>& boundary,
                int correctedPatches) {
  const int corrected = correctedPatches < 0 ? int(patches.size()) : correctedPatches;
  // The patches split over the host's threads (the lookups miss the cache; the device waits).
  std::vector<RefluxOp<Dim>> plan = gatherInOrder<RefluxOp<Dim>>(
      corrected, [&](int begin, int end, std::vector<RefluxOp<Dim>>& ops) {
        for (int p = begin; p < end; ++p)
          appendRefluxFaces<Dim>(index, patches, level0PatchesPerAxis, boundary, p, ops);
      });
  // Axis by axis (patches, sides and children in order within an axis): a coarse cell corrected
  // at two faces gets the x correction before the y one, in every mirror image alike.
  std::stable_sort(plan.begin(), plan.end(),
                   [](const RefluxOp<Dim>& a, const RefluxOp<Dim>& b) { return a.axis < b.axis; });
  return plan;
}

template <int Dim>
std::vector<RefluxOp<Dim>>
buildRefluxPlan(std::span<const PatchPlacement<Dim>> patches, Vec<int, Dim> level0PatchesPerAxis,
                const DomainBoundary<Dim>& boundary, int correctedPatches) {
  return buildRefluxPlan<Dim>(PlacementIndex<Dim>(patches), patches, level0PatchesPerAxis, boundary,
                              correctedPatches);
}

template <int Dim>
void reflux(std::span<const RefluxOp<Dim>> plan, const PatchLayout<Dim>& layout,
            std::span<const PatchGeometry<Dim>> geometry, const double* fluxRegister, double dt,
            double* qNew) {
  const FluxRegisterLayout<Dim> registers{layout.cellsPerAxis, layout.numVars};
  const int coveredCells = refluxCoveredCells<Dim>(layout.cellsPerAxis);
  // Serial: two operations write one coarse cell where two of its faces meet at an edge.
  for (const RefluxOp<Dim>& op : plan) {
    const double ratio = dt / geometry[op.coarsePatch].dx[op.axis];
    for (int f = 0; f < coveredCells; ++f) {
      const RefluxFaceCell<Dim> face = refluxFaceCell(op, layout.cellsPerAxis, f);
      for (int v = 0; v < layout.numVars; ++v)
        qNew[layout.index(op.coarsePatch, v, face.cell)] +=
            refluxCorrection(op, face, registers, fluxRegister, ratio, v);
    }
  }
}

template std::vector<RefluxOp<2>> buildRefluxPlan(const PlacementIndex<2>&,
                                                  std::span<const PatchPlacement<2>>, Vec<int, 2>,
                                                  const DomainBoundary<2>&, int);
template std::vector<RefluxOp<3>> buildRefluxPlan(const PlacementIndex<3>&,
                                                  std::span<const PatchPlacement<3>>, Vec<int, 3>,
                                                  const DomainBoundary<3>&, int);
template std::vector<RefluxOp<2>> buildRefluxPlan(std::span<const PatchPlacement<2>>, Vec<int, 2>,
                                                  const DomainBoundary<2>&, int);
template std::vector<RefluxOp<3>> buildRefluxPlan(std::span<const PatchPlacement<3>>, Vec<int, 3>,
                                                  const DomainBoundary<3>&, int);
template void reflux(std::span<const RefluxOp<2>>, const PatchLayout<2>&,
                     std::span<const PatchGeometry<2>>, const double*, double, double*);
template void reflux(std::span<const RefluxOp<3>>, const PatchLayout<3>&,
                     std::span<const PatchGeometry<3>>, const double*, double, double*);

} // namespace tessera
