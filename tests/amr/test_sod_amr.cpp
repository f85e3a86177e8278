// Sod's shock tube (Toro's test 1) with AMR: level 0 has half the finest resolution and the
// refinement (normalised density gradient) follows the rarefaction, the contact and the shock;
// the L1 density error against the exact solution must be within 10% of the error on the grid
// refined everywhere (the uniform grid of the finest resolution), with fewer cells.
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>

#include "drivers/amr_solver.hpp"
#include "drivers/step_toward.hpp"
#include "solvers/initial_conditions.hpp"
#include "tests/support/exact_riemann.hpp"

namespace tessera {
namespace {

constexpr double kEndTime = 0.25;

// L1 error of the density per unit length along x (the problem is one-dimensional; every cell
// counts with its share of the cross-section).
double l1DensityError(const PatchSolver<Euler<2>>& solver, double height) {
  const test::ExactRiemannSolver exact({1.0, 0.0, 1.0}, {0.125, 0.0, 0.1}, 1.4);
  const auto& layout = solver.layout();
  double l1 = 0.0;
  for (int p = 0; p < solver.numPatches(); ++p) {
    const auto& g = solver.geometry()[p];
    for (int c = 0; c < layout.interiorCells(); ++c) {
      const CellIndex<2> cell = layout.interiorCell(c);
      const double x0 = g.origin[0] + cell[0] * g.dx[0];
      const double rho = exact.cellAverage(x0, x0 + g.dx[0], 0.5, kEndTime).rho;
      l1 += std::fabs(solver.state().at(p, 0, cell) - rho) * g.cellVolume() / height;
    }
  }
  return l1;
}

struct SodRun {
  double l1;
  long long cells;
};

// 25 level-0 patches of 8^2 cells along x, one across (200 x 8 cells), refined once where the
// criterion asks (400 x 16 cells where refined).
SodRun runSod(const amr::RefinementCriterion<2>& criterion) {
  RiemannProblem<2> ic; // Toro's test 1 by default
  const double height = 8.0 / 200;
  DomainBoundary<2> boundary = DomainBoundary<2>::all(BoundaryKind::Periodic);
  boundary.kind[0] = {BoundaryKind::Outflow, BoundaryKind::Outflow};
  AmrSettings settings;
  settings.maxLevel = 1;
  settings.regridInterval = 2;
  AmrSolver<Euler<2>> amr(MPI_COMM_WORLD, ic.pde, PatchLayout<2>{8, 1, 4}, {{25, 1}}, {{0.0, 0.0}},
                          {{1.0, height}}, boundary, settings, criterion, 0.45);
  amr.initialise([&](const auto&, const auto&) { return ic; });
  long long cells = 0, steps = 0;
  while (amr.solver().time() < kEndTime) {
    stepToward(amr, kEndTime);
    cells += amr.solver().numCells();
    ++steps;
  }
  return {l1DensityError(amr.solver(), height), cells / steps};
}

TEST(SodAmr, ErrorWithinTenPercentOfTheUniformFineGrid) {
  const SodRun uniform = runSod([](const auto&) { return amr::AdaptFlag::Refine; });
  const SodRun adaptive =
      runSod(amr::gradientCriterion<2>(amr::storedVariable<2>(Euler<2>::kDensity), 0.02, 0.01));
  std::printf("Sod L1(rho) at 400 cells along x: refined everywhere %.5f, adaptive %.5f (%+.1f%%) "
              "with %.0f%% of the cells\n",
              uniform.l1, adaptive.l1, 100 * (adaptive.l1 / uniform.l1 - 1),
              100.0 * double(adaptive.cells) / double(uniform.cells));
  EXPECT_NEAR(uniform.l1, 0.01184, 0.00001) << "the uniform 400-cell error of the foundation";
  EXPECT_LE(adaptive.l1, 1.10 * uniform.l1);
  EXPECT_LT(adaptive.cells, uniform.cells);
}

} // namespace
} // namespace tessera
