#pragma once
// Moving patch data between levels. A coarse patch covers 2^Dim children, each the size of one
// coarse patch octant refined twice; `child` gives the octant (0 or 1 per axis).
//
// Prolongation is conservative and limited-linear: each coarse cell gets the minmod of its two
// one-sided differences per axis, and its 2^Dim fine cells take the coarse value plus or minus a
// quarter of each slope, so their mean is the coarse value and no new extremum appears.
// Restriction is the mean of the 2^Dim fine cells. Prolongation then restriction gives back the
// coarse data (to round-off). Both are written per cell, for the host and the device.
#include <cmath>
#include <cstddef>

#include "engine/backend.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

TESSERA_INLINE double minmod(double a, double b) {
  if (a * b <= 0.0)
    return 0.0;
  return std::fabs(a) < std::fabs(b) ? a : b;
}

// The limited-linear value in the 2^Dim-th part `sub` (0 or 1 per axis) of coarse cell `parent`
// of `coarse`, one variable of a patch. With interiorOnly, a cell at the patch's edge takes a
// one-sided slope on that axis, the minmod of the two differences inward: halo plans read only
// interior cells, so that every operation of a plan is independent of the others. The cells at a
// coarse patch's edge are exactly those that fill a finer neighbour's halo, and a zero slope there
// (first order) cost second-order schemes their order across coarse-fine faces (the isentropic
// vortex on two levels: observed order 1.66 with it, 2.08 with the one-sided slope).
// Without interiorOnly a slope reads a halo cell across a face at its place plus faceShift[face]
// where a shift table is given (face links, patches/face_links.hpp: the neighbour's cell).
template <int Dim>
TESSERA_INLINE double limitedLinearValue(const PatchLayout<Dim>& layout, const double* coarse,
                                         CellIndex<Dim> parent, Vec<int, Dim> sub,
                                         bool interiorOnly,
                                         const std::ptrdiff_t* faceShift = nullptr) {
  const int n = layout.cellsPerAxis;
  const double centre = coarse[layout.cellOffset(parent)];
  double value = centre;
  for (int a = 0; a < Dim; ++a) {
    double slope = 0.0;
    if (interiorOnly && (parent[a] == 0 || parent[a] == n - 1)) {
      if (n < 3)
        continue;
      const int inward = parent[a] == 0 ? 1 : -1;
      CellIndex<Dim> near = parent, far = parent;
      near[a] += inward;
      far[a] += 2 * inward;
      const double next = coarse[layout.cellOffset(near)];
      slope = minmod(inward * (next - centre), inward * (coarse[layout.cellOffset(far)] - next));
    } else {
      CellIndex<Dim> lo = parent, hi = parent;
      --lo[a];
      ++hi[a];
      const std::ptrdiff_t below = faceShift && lo[a] < 0 ? faceShift[2 * a] : 0;
      const std::ptrdiff_t above = faceShift && hi[a] >= n ? faceShift[2 * a + 1] : 0;
      slope = minmod(coarse[layout.cellOffset(hi) + above] - centre,
                     centre - coarse[layout.cellOffset(lo) + below]);
    }
    value += (sub[a] == 0 ? -0.25 : 0.25) * slope;
  }
  return value;
}

// The value of fine cell `fine` of child `child` prolonged from `coarse`, the data of one
// variable of the parent patch (halo filled: the slopes at the patch edge use it; faceShift as
// limitedLinearValue's).
template <int Dim>
TESSERA_INLINE double prolongedValue(const PatchLayout<Dim>& layout, const double* coarse,
                                     Vec<int, Dim> child, CellIndex<Dim> fine,
                                     const std::ptrdiff_t* faceShift = nullptr) {
  const int half = layout.cellsPerAxis / 2;
  CellIndex<Dim> parent;
  Vec<int, Dim> sub;
  for (int a = 0; a < Dim; ++a) {
    parent[a] = child[a] * half + fine[a] / 2;
    sub[a] = fine[a] % 2;
  }
  return limitedLinearValue(layout, coarse, parent, sub, false, faceShift);
}

// The mean of 2^D values v[k], k = x + 2y + 4z, summed in pairs axis by axis: data and its mirror
// image give bitwise mirror-image means (a plain running sum would round them differently).
template <int D>
TESSERA_INLINE double symmetricMean(double (&v)[1 << D]) {
  for (int n = 1 << D; n > 1; n /= 2)
    for (int k = 0; k < n / 2; ++k)
      v[k] = v[2 * k] + v[2 * k + 1];
  return v[0] / double(1 << D);
}

// The value of the coarse cell `cell` of the parent, lying in child `child`, restricted from that
// child's data `fine` (one variable).
template <int Dim>
TESSERA_INLINE double restrictedValue(const PatchLayout<Dim>& layout, const double* fine,
                                      Vec<int, Dim> child, CellIndex<Dim> cell) {
  const int half = layout.cellsPerAxis / 2;
  double values[1 << Dim];
  for (int k = 0; k < (1 << Dim); ++k) {
    CellIndex<Dim> f;
    for (int a = 0; a < Dim; ++a)
      f[a] = 2 * (cell[a] - child[a] * half) + ((k >> a) & 1);
    values[k] = fine[layout.cellOffset(f)];
  }
  return symmetricMean<Dim>(values);
}

// Whole-patch forms on the host: every variable of child patch `finePatch` from parent patch
// `coarsePatch` (halo filled), and the octant `child` of parent patch `coarsePatch` from child
// patch `finePatch`.
template <int Dim>
void prolongPatch(const PatchLayout<Dim>& layout, const double* coarseData, int coarsePatch,
                  Vec<int, Dim> child, double* fineData, int finePatch) {
  for (int v = 0; v < layout.numVars; ++v) {
    const double* coarse = coarseData + layout.varOffset(coarsePatch, v);
    double* fine = fineData + layout.varOffset(finePatch, v);
    for (int n = 0; n < layout.interiorCells(); ++n) {
      const CellIndex<Dim> c = layout.interiorCell(n);
      fine[layout.cellOffset(c)] = prolongedValue(layout, coarse, child, c);
    }
  }
}

template <int Dim>
void restrictPatch(const PatchLayout<Dim>& layout, const double* fineData, int finePatch,
                   Vec<int, Dim> child, double* coarseData, int coarsePatch) {
  const int half = layout.cellsPerAxis / 2;
  const PatchLayout<Dim> octant{half, 0, 1}; // numbering of the parent cells the child covers
  for (int v = 0; v < layout.numVars; ++v) {
    const double* fine = fineData + layout.varOffset(finePatch, v);
    double* coarse = coarseData + layout.varOffset(coarsePatch, v);
    for (int n = 0; n < octant.interiorCells(); ++n) {
      CellIndex<Dim> c = octant.interiorCell(n);
      for (int a = 0; a < Dim; ++a)
        c[a] += child[a] * half;
      coarse[layout.cellOffset(c)] = restrictedValue(layout, fine, child, c);
    }
  }
}

} // namespace tessera
