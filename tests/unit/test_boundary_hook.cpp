// The user boundary hook (solvers/patch/boundary_hook.hpp): after a halo fill, the halo cells
// across a hooked face take the hook's state where it gives one and keep the face kind's value
// where it gives none; the hook sees the cell centres and the time of the stage being filled
// (SSP-RK2: t and t + dt).
#include <cmath>
#include <gtest/gtest.h>
#include <optional>
#include <vector>

#include "physics/advection/advection.hpp"
#include "solvers/patch/patch_solver.hpp"

namespace tessera {
namespace {

using Scalar = Vec<double, 1>;

// A 2D grid of 4 x 2 patches of 4^2 cells on [0, 1]^2, outflow everywhere, a scalar 1 + x.
PatchSolver<Advection<2>> scalarGrid(PatchScheme scheme = {}) {
  const UniformPatchGrid<2> grid(PatchLayout<2>{4, scheme.spatial.halo(), 1}, {{4, 2}},
                                 {{0.0, 0.0}}, {{1.0, 1.0}});
  PatchSolver<Advection<2>> solver(Advection<2>{}, grid,
                                   DomainBoundary<2>::all(BoundaryKind::Outflow), 0.4,
                                   MemorySpace::Host, scheme);
  solver.initialise([](const Vec<double, 2>& x) { return Scalar{{1.0 + x[0]}}; });
  return solver;
}

TEST(BoundaryHook, SetsTheHookedHaloCellsItGivesAStateFor) {
  auto solver = scalarGrid();
  BoundaryHook<2, 1> hook;
  hook.upper = {{1.0, 1.0}};
  hook.hooked[1][1] = true; // the top face only
  hook.state = [](const Vec<double, 2>& x, double, int axis, int side) -> std::optional<Scalar> {
    EXPECT_EQ(axis, 1);
    EXPECT_EQ(side, 1);
    EXPECT_GT(x[1], 1.0); // a halo cell's centre lies outside
    if (x[0] < 0.5)
      return Scalar{{-7.0 - x[0]}};
    return std::nullopt;
  };
  solver.setBoundaryHook(hook);
  solver.fillCurrentHalos();
  int hooked = 0, kept = 0;
  for (int p = 0; p < solver.numPatches(); ++p) {
    const auto& g = solver.geometry()[p];
    for (int i = 0; i < 4; ++i) {
      const CellIndex<2> top{{i, 4}}, bottom{{i, -1}};
      const double x = g.cellCenter(0, i);
      if (g.origin[1] > 0.4) { // the top row of patches
        if (x < 0.5) {
          EXPECT_EQ(solver.state().at(p, 0, top), -7.0 - x);
          ++hooked;
        } else {
          EXPECT_EQ(solver.state().at(p, 0, top), 1.0 + x); // outflow: the cell below
          ++kept;
        }
      } else { // the bottom face is not hooked: outflow
        EXPECT_EQ(solver.state().at(p, 0, bottom), 1.0 + x);
      }
    }
  }
  EXPECT_EQ(hooked, 8);
  EXPECT_EQ(kept, 8);
}

TEST(BoundaryHook, SeesEachStagesTime) {
  PatchScheme scheme;
  scheme.integrator = kSspRk2;
  auto solver = scalarGrid(scheme);
  std::vector<double> times;
  BoundaryHook<2, 1> hook;
  hook.upper = {{1.0, 1.0}};
  hook.hooked[0][0] = true;
  hook.state = [&](const Vec<double, 2>&, double t, int, int) -> std::optional<Scalar> {
    if (times.empty() || times.back() != t)
      times.push_back(t);
    return Scalar{{1.0}};
  };
  solver.setBoundaryHook(hook);
  solver.advance(0.01);
  solver.advance(0.02);
  // Stages at 0 and 0.01, then at 0.01 (the same time, not recorded again) and 0.03.
  ASSERT_EQ(times.size(), 3u);
  EXPECT_EQ(times[0], 0.0);
  EXPECT_EQ(times[1], 0.01);
  EXPECT_DOUBLE_EQ(times[2], 0.03);
}

} // namespace
} // namespace tessera
