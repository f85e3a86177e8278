#pragma once
// LeVeque's still lake over a bump (J. Comput. Phys. 146, 1998), the test of a well-balanced
// shallow-water scheme: the bed b = 0.8 exp(-5 (x - 0.9)^2 - 50 (y - 0.5)^2) on [0, 2] x [0, 1],
// the surface flat at h + b = 1, walls all round. The lake_at_rest program runs it on the host,
// Tessera's device tests on a GPU (tests/gpu/test_lake_at_rest_device.cpp).
#include <algorithm>
#include <cmath>
#include <mpi.h>

#include "drivers/amr_solver.hpp"
#include "shallow_water.hpp"

namespace lake_over_bump {

using Water = ShallowWater<2>;

inline Water water() {
  Water w;
  w.bumpHeight = 0.8;
  w.bumpCentre = {{0.9, 0.5}};
  w.bumpWidth = {{1.0 / std::sqrt(5.0), 1.0 / std::sqrt(50.0)}};
  return w;
}

// The lake at rest over the water's bed, its surface at `surface`.
inline auto lake(const Water& w, double surface = 1.0) {
  return [w, surface](const tessera::Vec<double, 2>& x) {
    return w.toConserved({{surface - w.bed(x), 0.0, 0.0}});
  };
}

// The lake on 8 x 4 level-0 patches of 8^2 cells and up to maxLevel levels above them where the
// depth changes by more than 2% across a cell (over the bump), second order (PLM with van Leer's
// limiter, HLLE, SSP-RK2), regridding every 4 steps; initialised, and well balanced about the
// lake where asked.
inline tessera::AmrSolver<Water> solver(int maxLevel, tessera::MemorySpace space, bool balanced) {
  using namespace tessera;
  AmrSettings settings;
  settings.maxLevel = maxLevel;
  const amr::IndicatorCriterion criterion{amr::Indicator::Gradient, 0, true, 0.02, 0.01};
  const PatchScheme secondOrder{
      {ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hlle}, kSspRk2};
  AmrSolver<Water> amr(MPI_COMM_WORLD, water(), PatchLayout<2>{8, 2, Water::kNumVars}, {{8, 4}},
                       {{0.0, 0.0}}, {{2.0, 1.0}}, DomainBoundary<2>::all(BoundaryKind::Reflecting),
                       settings, criterion, 0.4, space, secondOrder);
  amr.initialise([](const auto&, const auto&) { return lake(water()); });
  if (balanced)
    amr.solver().setEquilibrium(lake(water()));
  return amr;
}

// How far the lake has moved: the largest |velocity| and |h + b - 1| over every rank's cells.
struct Departure {
  double speed = 0.0, surface = 0.0;
};

inline Departure departure(const tessera::AmrSolver<Water>& amr) {
  const Water w = water();
  const auto& state = amr.solver().hostState();
  const auto& layout = state.layout();
  double worst[2] = {0.0, 0.0};
  for (int p = 0; p < amr.solver().numPatches(); ++p)
    for (int n = 0; n < layout.interiorCells(); ++n) {
      const tessera::CellIndex<2> c = layout.interiorCell(n);
      const double h = state.at(p, 0, c);
      worst[0] =
          std::max({worst[0], std::fabs(state.at(p, 1, c) / h), std::fabs(state.at(p, 2, c) / h)});
      worst[1] = std::max(
          worst[1],
          std::fabs(h + w.bed(amr.solver().geometry()[std::size_t(p)].cellCenter(c)) - 1.0));
    }
  MPI_Allreduce(MPI_IN_PLACE, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return {worst[0], worst[1]};
}

} // namespace lake_over_bump
