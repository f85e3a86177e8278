// A uniformly refined forest is the uniform patch grid of the foundation: the same cells, the
// same halo fill, the same answers (to round-off; the patches are only numbered differently).
#include <cmath>
#include <gtest/gtest.h>
#include <map>

#include "amr/forest.hpp"
#include "amr/forest_patches.hpp"
#include "solvers/initial_conditions.hpp"
#include "solvers/patch/patch_solver.hpp"

namespace tessera::amr {
namespace {

// Runs `steps` steps on the uniform grid and on the forest with the same cells, and returns the
// largest relative difference of any conserved variable in any cell.
template <int Dim, class Initial>
double largestDifference(Vec<int, Dim> trees, int level, int n, const DomainBoundary<Dim>& boundary,
                         const Initial& ic, int steps) {
  constexpr int nv = Dim + 2;
  const PatchLayout<Dim> layout{n, 1, nv};
  Vec<int, Dim> patches = trees;
  Vec<bool, Dim> periodic;
  for (int a = 0; a < Dim; ++a) {
    patches[a] <<= level;
    periodic[a] = boundary.kind[a][0] == BoundaryKind::Periodic;
  }
  const Vec<double, Dim> lower = Vec<double, Dim>::filled(-1.0),
                         upper = Vec<double, Dim>::filled(1.0);
  const UniformPatchGrid<Dim> grid(layout, patches, lower, upper);
  PatchSolver<Euler<Dim>> uniform(ic.pde, grid, boundary, 0.3);

  const Forest<Dim> forest(MPI_COMM_WORLD, trees, periodic, level);
  PatchSolver<Euler<Dim>> adaptive(ic.pde, layout, leafGeometry(forest, layout, lower, upper),
                                   forestHaloPlan(forest, layout, boundary), 0.3);
  EXPECT_EQ(adaptive.numCells(), uniform.numCells());

  uniform.initialise(ic);
  adaptive.initialise(ic);
  for (int s = 0; s < steps; ++s) {
    const double dt = uniform.stableDt();
    EXPECT_EQ(adaptive.stableDt(), dt) << "step " << s;
    uniform.advance(dt);
    adaptive.advance(dt);
  }
  double worst = 0.0;
  for (int p = 0; p < adaptive.numPatches(); ++p) {
    const int u = grid.patchIndex(forest.leaves()[p].index);
    for (int c = 0; c < layout.interiorCells(); ++c)
      for (int v = 0; v < nv; ++v) {
        const CellIndex<Dim> cell = layout.interiorCell(c);
        const double a = adaptive.state().at(p, v, cell), b = uniform.state().at(u, v, cell);
        worst = std::max(worst, std::fabs(a - b) / (std::fabs(b) + 1e-300));
      }
  }
  return worst;
}

TEST(UniformForest, SedovMatchesTheUniformGrid2D) {
  SedovBlast<2> ic;
  ic.radius = 0.1;
  const UniformPatchGrid<2> grid(PatchLayout<2>{8, 1, 4}, {{8, 12}}, {{-1, -1}}, {{1, 1}});
  ic.placeOn(grid);
  DomainBoundary<2> boundary = DomainBoundary<2>::all(BoundaryKind::Reflecting);
  boundary.kind[1] = {BoundaryKind::Outflow, BoundaryKind::Outflow};
  const double worst = largestDifference<2>({{2, 3}}, 2, 8, boundary, ic, 60);
  EXPECT_LE(worst, 1e-13);
}

TEST(UniformForest, PeriodicPulseMatchesTheUniformGrid3D) {
  EulerPulse<3> ic;
  ic.pulse.centre = {{0.2, -0.1, 0.3}};
  ic.pulse.width = 0.4;
  ic.velocity = {{1.0, 0.5, -0.25}};
  const double worst = largestDifference<3>({{1, 2, 1}}, 1, 4,
                                            DomainBoundary<3>::all(BoundaryKind::Periodic), ic, 30);
  EXPECT_LE(worst, 1e-13);
}

} // namespace
} // namespace tessera::amr
