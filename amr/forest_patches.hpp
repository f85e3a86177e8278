#pragma once
// From forest leaves to patches: the geometry of each leaf's patch, and the halo plan of a forest
// whose leaves share one level (a uniformly refined forest is a uniform patch grid).
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "amr/forest.hpp"
#include "patches/boundary.hpp"
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

// The halo plan of a forest whose leaves all sit on one level. Periodic axes of the boundary must
// be the forest's periodic axes.
template <int Dim>
HaloPlan<Dim> singleLevelHaloPlan(const Forest<Dim>& forest, const PatchLayout<Dim>& layout,
                                  const DomainBoundary<Dim>& boundary) {
  const auto& leaves = forest.leaves();
  if (leaves.empty())
    return {};
  const int level = leaves.front().level;
  SameLevelPatches<Dim> patches;
  patches.patchesPerAxis = patchesPerAxisOnLevel(forest, level);
  const auto key = [np = patches.patchesPerAxis](Vec<int, Dim> c) {
    long long k = 0;
    for (int a = Dim - 1; a >= 0; --a)
      k = k * np[a] + c[a];
    return k;
  };
  std::unordered_map<long long, int> leafAt;
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    if (leaves[i].level != level)
      throw std::invalid_argument("singleLevelHaloPlan: the forest's leaves are on several levels");
    patches.positions.push_back(leaves[i].index);
    leafAt[key(leaves[i].index)] = int(i);
  }
  for (int a = 0; a < Dim; ++a)
    if ((boundary.kind[a][0] == BoundaryKind::Periodic) != forest.periodic()[a])
      throw std::invalid_argument("singleLevelHaloPlan: periodic axes differ from the forest's");
  patches.patchAt = [&leafAt, key](Vec<int, Dim> c) {
    const auto it = leafAt.find(key(c));
    return it == leafAt.end() ? -1 : it->second;
  };
  return buildSameLevelHaloPlan(layout, patches, boundary);
}

} // namespace tessera::amr
