// Conservation: on a periodic domain total mass, momentum and energy change by no more than
// round-off (1e-13 relative) over 500 steps; behind reflecting walls mass and energy do.
#include <cmath>
#include <gtest/gtest.h>

#include "solvers/initial_conditions.hpp"
#include "solvers/patch/patch_solver.hpp"

namespace tessera {
namespace {

template <ConservationLaw PDE, class Initial>
void expectConserved(PDE pde, Initial ic, Vec<int, PDE::kDim> patches, int n,
                     const DomainBoundary<PDE::kDim>& boundary, const std::vector<int>& vars,
                     int steps) {
  constexpr int Dim = PDE::kDim;
  UniformPatchGrid<Dim> grid(PatchLayout<Dim>{n, 1, PDE::kNumVars}, patches,
                             Vec<double, Dim>::filled(0.0), Vec<double, Dim>::filled(1.0));
  PatchSolver<PDE> solver(pde, grid, boundary, 0.9 / Dim);
  solver.initialise(ic);
  const auto before = solver.conservedTotals();
  // The scale of each total: the integral of |q|, so that a total near zero is judged fairly.
  typename PDE::State scale = PDE::State::filled(0.0);
  const auto& layout = grid.layout();
  for (int p = 0; p < grid.numPatches(); ++p)
    for (int c = 0; c < layout.interiorCells(); ++c)
      for (int v = 0; v < PDE::kNumVars; ++v)
        scale[v] += std::fabs(solver.state().at(p, v, layout.interiorCell(c))) *
                    solver.geometry()[p].cellVolume();
  for (int s = 0; s < steps; ++s)
    solver.advance(solver.stableDt());
  const auto after = solver.conservedTotals();
  for (int v : vars)
    EXPECT_LE(std::fabs(after[v] - before[v]), 1e-13 * scale[v])
        << "variable " << v << ": " << before[v] << " -> " << after[v];
  EXPECT_EQ(solver.step(), steps);
}

TEST(Conservation, EulerPulsePeriodic2D500Steps) {
  EulerPulse<2> ic;
  ic.pulse.centre = {{0.3, 0.6}};
  ic.pulse.amplitude = 0.5;
  ic.velocity = {{1.0, -0.5}};
  expectConserved(ic.pde, ic, {{4, 4}}, 16, DomainBoundary<2>::all(BoundaryKind::Periodic),
                  {0, 1, 2, 3}, 500);
}

TEST(Conservation, EulerPulsePeriodic3D500Steps) {
  EulerPulse<3> ic;
  ic.pulse.centre = {{0.3, 0.6, 0.5}};
  ic.pulse.amplitude = 0.5;
  ic.velocity = {{1.0, -0.5, 0.25}};
  expectConserved(ic.pde, ic, {{2, 2, 2}}, 8, DomainBoundary<3>::all(BoundaryKind::Periodic),
                  {0, 1, 2, 3, 4}, 500);
}

TEST(Conservation, SedovBehindReflectingWallsKeepsMassAndEnergy) {
  const UniformPatchGrid<2> grid(PatchLayout<2>{16, 1, 4}, {{4, 4}}, {{0, 0}}, {{1, 1}});
  SedovBlast<2> ic;
  ic.centre = {{0.4, 0.55}};
  ic.radius = 0.06;
  ic.placeOn(grid);
  // Long enough for the blast to reach and reflect from the walls.
  expectConserved(ic.pde, ic, {{4, 4}}, 16, DomainBoundary<2>::all(BoundaryKind::Reflecting),
                  {0, 3}, 500);
}

TEST(Conservation, AdvectionPeriodic2D) {
  Advection<2> pde;
  pde.velocity = {{0.7, -1.3}};
  ScalarPulse<2> ic{{{{0.5, 0.5}}, 0.15, 2.0, 0.5}};
  expectConserved(pde, ic, {{4, 2}}, 8, DomainBoundary<2>::all(BoundaryKind::Periodic), {0}, 500);
}

} // namespace
} // namespace tessera
