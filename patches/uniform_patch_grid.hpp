#pragma once
// UniformPatchGrid<Dim>: a box domain tiled by equal patches, patch p at integer coordinates with
// x fastest. The single-level grid the AMR forest must reproduce when uniformly refined.
#include <stdexcept>
#include <vector>

#include "engine/small_vector.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

template <int Dim>
class UniformPatchGrid {
public:
  UniformPatchGrid(PatchLayout<Dim> layout, Vec<int, Dim> patchesPerAxis, Vec<double, Dim> lower,
                   Vec<double, Dim> upper)
      : layout_(layout), patchesPerAxis_(patchesPerAxis), lower_(lower), upper_(upper) {
    if (layout.cellsPerAxis < 1 || layout.halo < 1 || layout.cellsPerAxis < layout.halo)
      throw std::invalid_argument("UniformPatchGrid: need N >= h >= 1");
    for (int a = 0; a < Dim; ++a) {
      if (patchesPerAxis[a] < 1)
        throw std::invalid_argument("UniformPatchGrid: need at least one patch per axis");
      if (!(upper[a] > lower[a]))
        throw std::invalid_argument("UniformPatchGrid: need upper > lower on every axis");
    }
  }

  const PatchLayout<Dim>& layout() const { return layout_; }
  Vec<int, Dim> patchesPerAxis() const { return patchesPerAxis_; }
  Vec<double, Dim> lower() const { return lower_; }
  Vec<double, Dim> upper() const { return upper_; }

  int numPatches() const {
    int n = 1;
    for (int a = 0; a < Dim; ++a)
      n *= patchesPerAxis_[a];
    return n;
  }
  long long numCells() const { return (long long)numPatches() * layout_.interiorCells(); }

  Vec<int, Dim> patchCoords(int p) const {
    Vec<int, Dim> c{};
    for (int a = 0; a < Dim; ++a) {
      c[a] = p % patchesPerAxis_[a];
      p /= patchesPerAxis_[a];
    }
    return c;
  }
  int patchIndex(Vec<int, Dim> c) const {
    int p = 0;
    for (int a = Dim - 1; a >= 0; --a)
      p = p * patchesPerAxis_[a] + c[a];
    return p;
  }

  double cellSize(int axis) const {
    return (upper_[axis] - lower_[axis]) / (patchesPerAxis_[axis] * layout_.cellsPerAxis);
  }

  PatchGeometry<Dim> geometry(int p) const {
    const Vec<int, Dim> c = patchCoords(p);
    PatchGeometry<Dim> g{};
    for (int a = 0; a < Dim; ++a) {
      g.dx[a] = cellSize(a);
      // Integer cell offset times dx keeps neighbouring patches' cell centres consistent.
      g.origin[a] = lower_[a] + double(c[a] * layout_.cellsPerAxis) * g.dx[a];
    }
    return g;
  }

  std::vector<PatchGeometry<Dim>> geometries() const {
    std::vector<PatchGeometry<Dim>> g(numPatches());
    for (int p = 0; p < numPatches(); ++p)
      g[p] = geometry(p);
    return g;
  }

private:
  PatchLayout<Dim> layout_;
  Vec<int, Dim> patchesPerAxis_;
  Vec<double, Dim> lower_, upper_;
};

} // namespace tessera
