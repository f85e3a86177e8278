// A step's first halo fill needs no dt: PatchSolver::stableDt launches it before it waits for dt
// (on a device the fill then runs while dt crosses to the host). The halos are filled once: the
// step that follows fills none for its first stage, and its result is the step's that filled them
// itself, bit for bit.
#include <cmath>
#include <gtest/gtest.h>

#include "physics/euler/euler.hpp"
#include "solvers/patch/patch_solver.hpp"

namespace tessera {
namespace {

// 3 x 2 patches of 8^2 cells on [0, 1]^2, reflecting walls, a density pulse moving along x.
PatchSolver<Euler<2>> movingPulse(const PatchScheme& scheme) {
  const UniformPatchGrid<2> grid(PatchLayout<2>{8, scheme.spatial.halo(), 4}, {{3, 2}},
                                 {{0.0, 0.0}}, {{1.0, 1.0}});
  PatchSolver<Euler<2>> solver(Euler<2>{}, grid, DomainBoundary<2>::all(BoundaryKind::Reflecting),
                               0.4, MemorySpace::Host, scheme);
  solver.initialise([](const Vec<double, 2>& x) {
    const double r2 = std::pow(x[0] - 0.4, 2) + std::pow(x[1] - 0.5, 2);
    return Euler<2>{}.toConserved({{1.0 + 2.0 * std::exp(-r2 / 0.01), 1.5, 0.3, 1.0}});
  });
  return solver;
}

void expectTheFillComesWithDt(const PatchScheme& scheme) {
  auto ahead = movingPulse(scheme), itself = movingPulse(scheme);
  const double dt = ahead.stableDt();
  const double filled = ahead.times().halo;
  EXPECT_GT(filled, 0.0) << "stableDt filled the halos";
  ahead.advance(dt);
  if (scheme.integrator.stages == 1)
    EXPECT_EQ(ahead.times().halo, filled) << "the step filled its halos again";
  else
    EXPECT_GT(ahead.times().halo, filled) << "the later stages fill their own halos";

  itself.advance(dt); // no stableDt: the first stage fills its halos
  int differ = 0;
  const auto& layout = ahead.layout();
  for (int p = 0; p < ahead.numPatches(); ++p)
    for (int v = 0; v < Euler<2>::kNumVars; ++v)
      for (int n = 0; n < layout.interiorCells(); ++n) {
        const CellIndex<2> c = layout.interiorCell(n);
        differ += int(ahead.hostState().at(p, v, c) != itself.hostState().at(p, v, c));
      }
  EXPECT_EQ(differ, 0);
  EXPECT_EQ(ahead.stableDt(), itself.stableDt());
}

TEST(FillAhead, FirstOrderStepFillsItsHalosWithItsDt) {
  expectTheFillComesWithDt(PatchScheme{});
}

TEST(FillAhead, SecondOrderStepFillsItsFirstStagesHalosWithItsDt) {
  expectTheFillComesWithDt(PatchScheme{
      {ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hllc}, kSspRk2});
}

} // namespace
} // namespace tessera
