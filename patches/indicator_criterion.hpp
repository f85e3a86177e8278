#pragma once
// The built-in refinement criteria as data: which indicator (Loehner, gradient, threshold), on
// which variable, with which limits. Written this way, a criterion runs wherever the state lives:
// the per-cell indicators below are TESSERA_HOST_DEVICE and shared by the host criteria
// (amr/refinement_criteria.hpp) and the device flag kernel, so that both flag the same patches.
#include <cmath>

#include "engine/backend.hpp"
#include "patches/adapt_flag.hpp"
#include "patches/patch_layout.hpp"

namespace tessera::amr {

enum class Indicator { Loehner, Gradient, Threshold };

struct IndicatorCriterion {
  Indicator indicator = Indicator::Loehner;
  int variable = 0;      // index among the PDE's primitive or conserved variables
  bool primitive = true; // which of the two
  double refine = 0.8;   // the patch refines where its largest indicator exceeds this
  double coarsen = 0.2;  // and may coarsen where it stays below this
  double filter = 0.01;  // Loehner's noise filter
};

// Loehner's normalised second derivative at cell c (Loehner 1987; as in FLASH and PARAMESH):
// E = sqrt(sum_a D2_a^2 / sum_a (|D+_a| + |D-_a| + filter S_a)^2) with the second difference D2,
// the one-sided differences D+ and D-, and S = |u+| + 2|u| + |u-| keeping small ripples on a large
// value from counting. quantity(cell) -> double; 0 where the data is constant.
template <int Dim, class Quantity>
TESSERA_INLINE double loehnerIndicator(const Quantity& quantity, CellIndex<Dim> c, double filter) {
  const double u = quantity(c);
  double num = 0.0, den = 0.0;
  for (int a = 0; a < Dim; ++a) {
    CellIndex<Dim> lo = c, hi = c;
    --lo[a];
    ++hi[a];
    const double up = quantity(hi), um = quantity(lo);
    const double d2 = up - 2.0 * u + um;
    const double d = std::fabs(up - u) + std::fabs(u - um) +
                     filter * (std::fabs(up) + 2.0 * std::fabs(u) + std::fabs(um));
    num += d2 * d2;
    den += d * d;
  }
  return den > 0.0 ? std::sqrt(num / den) : 0.0;
}

// The normalised gradient at cell c, the largest over the axes of |u+ - u-| / (|u+| + |u-|): the
// relative change across the cell, which also sees smooth waves (rarefactions) and the smeared
// contacts of a first-order scheme that the second-derivative estimator lets go.
template <int Dim, class Quantity>
TESSERA_INLINE double gradientIndicator(const Quantity& quantity, CellIndex<Dim> c) {
  double largest = 0.0;
  for (int a = 0; a < Dim; ++a) {
    CellIndex<Dim> lo = c, hi = c;
    --lo[a];
    ++hi[a];
    const double up = quantity(hi), um = quantity(lo);
    const double scale = std::fabs(up) + std::fabs(um);
    if (scale > 0.0)
      largest = std::fmax(largest, std::fabs(up - um) / scale);
  }
  return largest;
}

// The indicator of a criterion at one cell; the threshold criterion's is the value itself.
template <int Dim, class Quantity>
TESSERA_INLINE double cellIndicator(const IndicatorCriterion& criterion, const Quantity& quantity,
                                    CellIndex<Dim> c) {
  switch (criterion.indicator) {
  case Indicator::Loehner:
    return loehnerIndicator<Dim>(quantity, c, criterion.filter);
  case Indicator::Gradient:
    return gradientIndicator<Dim>(quantity, c);
  default:
    return quantity(c);
  }
}

// The smallest value a patch's largest indicator starts from (the threshold criterion looks at
// values that may be negative).
TESSERA_INLINE double indicatorFloor(const IndicatorCriterion& criterion) {
  return criterion.indicator == Indicator::Threshold ? -INFINITY : 0.0;
}

// What a patch asks for, from its largest indicator.
TESSERA_INLINE AdaptFlag flagFor(const IndicatorCriterion& criterion, double largest) {
  return largest > criterion.refine
             ? AdaptFlag::Refine
             : (largest < criterion.coarsen ? AdaptFlag::Coarsen : AdaptFlag::Keep);
}

// What a patch asks for on the host: its largest indicator over the interior cells against the
// criterion's limits. quantity(cell) reads the patch, halo included. (The device kernel reduces
// the same maximum across a block's threads.)
template <int Dim, class Quantity>
AdaptFlag patchFlag(const IndicatorCriterion& criterion, const Quantity& quantity,
                    const PatchLayout<Dim>& layout) {
  double largest = indicatorFloor(criterion);
  for (int n = 0; n < layout.interiorCells(); ++n)
    largest = std::fmax(largest, cellIndicator<Dim>(criterion, quantity, layout.interiorCell(n)));
  return flagFor(criterion, largest);
}

} // namespace tessera::amr
