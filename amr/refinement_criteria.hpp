#pragma once
// Refinement criteria: what a patch asks of the next adapt, from its data (halo filled) and its
// geometry. A criterion is any callable with the RefinementCriterion signature, so a case can
// bring its own; the built-in ones are Loehner's estimator, a normalised gradient, value
// thresholds and regions.
#include <cmath>
#include <functional>
#include <vector>

#include "amr/forest.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"

namespace tessera::amr {

// One patch as a criterion sees it.
template <int Dim>
struct PatchView {
  const PatchLayout<Dim>& layout;
  const double* data; // the patch's block of the state, halo included
  const PatchGeometry<Dim>& geometry;
  int level;

  double at(int var, CellIndex<Dim> c) const {
    return data[std::size_t(var) * layout.varStride() + layout.cellOffset(c)];
  }
};

template <int Dim>
using RefinementCriterion = std::function<AdaptFlag(const PatchView<Dim>&)>;

// A criterion looks at one quantity per cell: any callable quantity(patch, cell) -> double. This
// one is a variable of the stored (conserved) state; a PDE can offer derived ones (pressure).
template <int Dim>
auto storedVariable(int var) {
  return [var](const PatchView<Dim>& patch, const CellIndex<Dim>& c) { return patch.at(var, c); };
}

// Loehner's normalised second derivative of one variable (Loehner 1987; as in FLASH and
// PARAMESH), per cell E = sqrt(sum_a D2_a^2 / sum_a (|D+_a| + |D-_a| + filter S_a)^2) with the
// second difference D2, the one-sided differences D+ and D-, and S = |u+| + 2|u| + |u-| keeping
// small ripples on a large value from counting. The patch refines where the largest E exceeds
// `refine` and may coarsen where it stays below `coarsen`.
template <int Dim, class Quantity>
RefinementCriterion<Dim> loehnerCriterion(Quantity quantity, double refine, double coarsen,
                                          double filter = 0.01) {
  return [=](const PatchView<Dim>& patch) {
    double largest = 0.0;
    for (int n = 0; n < patch.layout.interiorCells(); ++n) {
      const CellIndex<Dim> c = patch.layout.interiorCell(n);
      const double u = quantity(patch, c);
      double num = 0.0, den = 0.0;
      for (int a = 0; a < Dim; ++a) {
        CellIndex<Dim> lo = c, hi = c;
        --lo[a];
        ++hi[a];
        const double up = quantity(patch, hi), um = quantity(patch, lo);
        const double d2 = up - 2.0 * u + um;
        const double d = std::fabs(up - u) + std::fabs(u - um) +
                         filter * (std::fabs(up) + 2.0 * std::fabs(u) + std::fabs(um));
        num += d2 * d2;
        den += d * d;
      }
      if (den > 0.0)
        largest = std::fmax(largest, std::sqrt(num / den));
    }
    return largest > refine ? AdaptFlag::Refine
                            : (largest < coarsen ? AdaptFlag::Coarsen : AdaptFlag::Keep);
  };
}

// The normalised gradient, per cell the largest over the axes of |u+ - u-| / (|u+| + |u-|): the
// relative change across the cell, which also sees smooth waves (rarefactions) and the smeared
// contacts of a first-order scheme that the second-derivative estimator lets go.
template <int Dim, class Quantity>
RefinementCriterion<Dim> gradientCriterion(Quantity quantity, double refine, double coarsen) {
  return [=](const PatchView<Dim>& patch) {
    double largest = 0.0;
    for (int n = 0; n < patch.layout.interiorCells(); ++n) {
      const CellIndex<Dim> c = patch.layout.interiorCell(n);
      for (int a = 0; a < Dim; ++a) {
        CellIndex<Dim> lo = c, hi = c;
        --lo[a];
        ++hi[a];
        const double up = quantity(patch, hi), um = quantity(patch, lo);
        const double scale = std::fabs(up) + std::fabs(um);
        if (scale > 0.0)
          largest = std::fmax(largest, std::fabs(up - um) / scale);
      }
    }
    return largest > refine ? AdaptFlag::Refine
                            : (largest < coarsen ? AdaptFlag::Coarsen : AdaptFlag::Keep);
  };
}

// Refines where the quantity exceeds `refineAbove` somewhere in the patch; may coarsen where it
// stays below `coarsenBelow` everywhere.
template <int Dim, class Quantity>
RefinementCriterion<Dim> thresholdCriterion(Quantity quantity, double refineAbove,
                                            double coarsenBelow) {
  return [=](const PatchView<Dim>& patch) {
    double largest = -INFINITY;
    for (int n = 0; n < patch.layout.interiorCells(); ++n)
      largest = std::fmax(largest, quantity(patch, patch.layout.interiorCell(n)));
    return largest > refineAbove ? AdaptFlag::Refine
                                 : (largest < coarsenBelow ? AdaptFlag::Coarsen : AdaptFlag::Keep);
  };
}

// Refines patches that overlap the box [lower, upper] until they reach `level`.
template <int Dim>
RefinementCriterion<Dim> regionCriterion(Vec<double, Dim> lower, Vec<double, Dim> upper,
                                         int level) {
  return [=](const PatchView<Dim>& patch) {
    bool overlaps = true;
    for (int a = 0; a < Dim; ++a) {
      const double lo = patch.geometry.origin[a];
      const double hi = lo + patch.layout.cellsPerAxis * patch.geometry.dx[a];
      overlaps = overlaps && lo < upper[a] && hi > lower[a];
    }
    return overlaps && patch.level < level ? AdaptFlag::Refine : AdaptFlag::Coarsen;
  };
}

// Several criteria together: refine if any asks to, coarsen only if all allow it.
template <int Dim>
RefinementCriterion<Dim> anyOf(std::vector<RefinementCriterion<Dim>> criteria) {
  return [criteria = std::move(criteria)](const PatchView<Dim>& patch) {
    bool allCoarsen = true;
    for (const auto& criterion : criteria) {
      const AdaptFlag f = criterion(patch);
      if (f == AdaptFlag::Refine)
        return AdaptFlag::Refine;
      allCoarsen = allCoarsen && f == AdaptFlag::Coarsen;
    }
    return allCoarsen ? AdaptFlag::Coarsen : AdaptFlag::Keep;
  };
}

} // namespace tessera::amr
