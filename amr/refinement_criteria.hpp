#pragma once
// Refinement criteria: what a patch asks of the next adapt, from its data (halo filled) and its
// geometry. A criterion is any callable with the RefinementCriterion signature, so a case can
// bring its own; the built-in ones are Loehner's estimator, a normalised gradient and value
// thresholds (their per-cell indicators are in indicator_criterion.hpp), and regions.
#include <cmath>
#include <functional>
#include <vector>

#include "amr/forest.hpp"
#include "patches/indicator_criterion.hpp"
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

// A built-in criterion on the host: the largest indicator over the patch's interior cells decides.
template <int Dim, class Quantity>
RefinementCriterion<Dim> indicatorCriterion(Quantity quantity, IndicatorCriterion criterion) {
  return [=](const PatchView<Dim>& patch) {
    const auto at = [&](const CellIndex<Dim>& c) { return quantity(patch, c); };
    return patchFlag<Dim>(criterion, at, patch.layout);
  };
}

// Loehner's estimator (loehnerIndicator): refines where the largest exceeds `refine`, may coarsen
// where it stays below `coarsen`.
template <int Dim, class Quantity>
RefinementCriterion<Dim> loehnerCriterion(Quantity quantity, double refine, double coarsen,
                                          double filter = 0.01) {
  return indicatorCriterion<Dim>(quantity, {Indicator::Loehner, 0, false, refine, coarsen, filter});
}

// The normalised gradient (gradientIndicator), with the same limits.
template <int Dim, class Quantity>
RefinementCriterion<Dim> gradientCriterion(Quantity quantity, double refine, double coarsen) {
  return indicatorCriterion<Dim>(quantity, {Indicator::Gradient, 0, false, refine, coarsen});
}

// Refines where the quantity exceeds `refineAbove` somewhere in the patch; may coarsen where it
// stays below `coarsenBelow` everywhere.
template <int Dim, class Quantity>
RefinementCriterion<Dim> thresholdCriterion(Quantity quantity, double refineAbove,
                                            double coarsenBelow) {
  return indicatorCriterion<Dim>(quantity,
                                 {Indicator::Threshold, 0, false, refineAbove, coarsenBelow});
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
