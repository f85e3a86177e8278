#pragma once
// From forest leaves to patches: the geometry of each leaf's patch and the halo plan.
#include <stdexcept>
#include <vector>

#include "amr/forest.hpp"
#include "patches/boundary.hpp"
#include "patches/flux_register.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"

namespace tessera::amr {

// Patches per axis on `level` across the whole domain.
template <int Dim>
Vec<int, Dim> patchesPerAxisOnLevel(const Forest<Dim>& forest, int level) {
  Vec<int, Dim> n = forest.treesPerAxis();
  for (int a = 0; a < Dim; ++a)
    n[a] <<= level;
  return n;
}

// The geometry of every leaf's patch in a box [lower, upper]; the same arithmetic as
// UniformPatchGrid, so that a uniformly refined forest has exactly the uniform grid's cells.
template <int Dim>
std::vector<PatchGeometry<Dim>> leafGeometry(const Forest<Dim>& forest,
                                             const PatchLayout<Dim>& layout, Vec<double, Dim> lower,
                                             Vec<double, Dim> upper) {
  std::vector<PatchGeometry<Dim>> geometry;
  geometry.reserve(forest.leaves().size());
  for (const Leaf<Dim>& leaf : forest.leaves()) {
    const Vec<int, Dim> np = patchesPerAxisOnLevel(forest, leaf.level);
    PatchGeometry<Dim> g{};
    for (int a = 0; a < Dim; ++a) {
      g.dx[a] = (upper[a] - lower[a]) / (np[a] * layout.cellsPerAxis);
      g.origin[a] = lower[a] + double(leaf.index[a] * layout.cellsPerAxis) * g.dx[a];
    }
    geometry.push_back(g);
  }
  return geometry;
}

// The patch placements of the forest's leaves.
template <int Dim>
std::vector<PatchPlacement<Dim>> leafPlacements(const Forest<Dim>& forest) {
  std::vector<PatchPlacement<Dim>> placements;
  placements.reserve(forest.leaves().size());
  for (const Leaf<Dim>& leaf : forest.leaves())
    placements.push_back({leaf.level, leaf.index});
  return placements;
}

// The halo plan of the forest's leaves, across levels. The boundary's periodic axes must be the
// forest's.
template <int Dim>
HaloPlan<Dim> forestHaloPlan(const Forest<Dim>& forest, const PatchLayout<Dim>& layout,
                             const DomainBoundary<Dim>& boundary) {
  for (int a = 0; a < Dim; ++a)
    if ((boundary.kind[a][0] == BoundaryKind::Periodic) != forest.periodic()[a])
      throw std::invalid_argument("forestHaloPlan: periodic axes differ from the forest's");
  const auto placements = leafPlacements(forest);
  return buildHaloPlan<Dim>(layout, placements, forest.treesPerAxis(), boundary);
}

// The coarse-fine faces of the forest's leaves, for refluxing.
template <int Dim>
std::vector<RefluxOp<Dim>> forestRefluxPlan(const Forest<Dim>& forest,
                                            const DomainBoundary<Dim>& boundary) {
  const auto placements = leafPlacements(forest);
  return buildRefluxPlan<Dim>(placements, forest.treesPerAxis(), boundary);
}

} // namespace tessera::amr
