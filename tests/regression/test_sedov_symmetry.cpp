// The Sedov blast centred in a square stays mirror-symmetric: x -> 1 - x and y -> 1 - y map the
// solution onto itself (momentum components change sign) to round-off, and so does x <-> y.
#include <cmath>
#include <gtest/gtest.h>

#include "solvers/initial_conditions.hpp"
#include "solvers/patch/patch_solver.hpp"

namespace tessera {
namespace {

TEST(SedovSymmetry, MirrorAndDiagonalSymmetryHoldWhileTheShockExpands) {
  const int n = 16, np = 4, cells = n * np;
  const UniformPatchGrid<2> grid(PatchLayout<2>{n, 1, 4}, {{np, np}}, {{0, 0}}, {{1, 1}});
  SedovBlast<2> ic;
  ic.centre = {{0.5, 0.5}};
  ic.radius = 3.5 / cells;
  ic.placeOn(grid);
  PatchSolver<Euler<2>> solver(ic.pde, grid, DomainBoundary<2>::all(BoundaryKind::Outflow), 0.4);
  solver.initialise(ic);
  // To t = 0.1 the shock reaches R ~ 0.31 (R = (E t^2 / rho)^(1/4)): still inside the box.
  while (solver.time() < 0.1)
    solver.advance(solver.stableDt());
  ASSERT_GT(solver.step(), 50);

  // Global cell (i, j) -> value of variable v.
  auto value = [&](int v, int i, int j) {
    const int p = grid.patchIndex({{i / n, j / n}});
    return solver.state().at(p, v, {{i % n, j % n}});
  };
  double maxRho = 0.0;
  for (int j = 0; j < cells; ++j)
    for (int i = 0; i < cells; ++i)
      maxRho = std::max(maxRho, value(0, i, j));
  ASSERT_GT(maxRho, 1.5) << "the blast has not developed a shock";

  double mirrorX = 0, mirrorY = 0, diagonal = 0;
  for (int j = 0; j < cells; ++j)
    for (int i = 0; i < cells; ++i) {
      const int mi = cells - 1 - i, mj = cells - 1 - j;
      for (int v : {0, 3}) {
        const double q = value(v, i, j), scale = std::fabs(q) + 1e-300;
        mirrorX = std::max(mirrorX, std::fabs(value(v, mi, j) - q) / scale);
        mirrorY = std::max(mirrorY, std::fabs(value(v, i, mj) - q) / scale);
        diagonal = std::max(diagonal, std::fabs(value(v, j, i) - q) / scale);
      }
      const double mx = value(1, i, j), my = value(2, i, j);
      const double momentumScale = std::fabs(mx) + std::fabs(my) + 1e-300;
      mirrorX = std::max(mirrorX, std::fabs(value(1, mi, j) + mx) / momentumScale);
      mirrorY = std::max(mirrorY, std::fabs(value(2, i, mj) + my) / momentumScale);
      diagonal = std::max(diagonal, std::fabs(value(2, j, i) - mx) / momentumScale);
    }
  std::printf("largest relative asymmetry: mirror x %.3e, mirror y %.3e, diagonal %.3e\n", mirrorX,
              mirrorY, diagonal);
  EXPECT_LE(mirrorX, 1e-14);
  EXPECT_LE(mirrorY, 1e-14);
  EXPECT_LE(diagonal, 1e-12);
}

} // namespace
} // namespace tessera
