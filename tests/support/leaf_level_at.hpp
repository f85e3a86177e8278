#pragma once
// The level of the forest's leaf whose patch holds a point, for tests that check halo cells
// against where they lie.
#include <span>

#include "amr/forest.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"

namespace tessera::test {

// The level of the leaf whose patch (geometry[p], cellsPerAxis cells a side) holds x strictly
// inside, or -1 outside the domain.
template <int Dim>
int leafLevelAt(const amr::Forest<Dim>& forest, std::span<const PatchGeometry<Dim>> geometry,
                const PatchLayout<Dim>& layout, const Vec<double, Dim>& x) {
  for (std::size_t p = 0; p < geometry.size(); ++p) {
    bool inside = true;
    for (int a = 0; a < Dim; ++a) {
      const double lo = geometry[p].origin[a];
      inside = inside && x[a] > lo && x[a] < lo + layout.cellsPerAxis * geometry[p].dx[a];
    }
    if (inside)
      return forest.leaves()[p].level;
  }
  return -1;
}

} // namespace tessera::test
