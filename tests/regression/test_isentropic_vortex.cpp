// The isentropic vortex (Yee, Sandham & Djomehri 1999; Shu 1998): a smooth exact solution of the
// Euler equations, advected by a uniform flow through a periodic box. The L1 density error over
// four resolutions gives the observed order of accuracy, which must be second order for PLM with
// SSP-RK2: at least 1.9 unlimited and 1.7 with van Leer's limiter (which clips the vortex's
// smooth extrema to first order in a few cells), in 2D and in 3D (the vortex extruded along z);
// and on a static two-level mesh (2D unlimited and limited, 3D unlimited), whose coarse-fine faces
// (prolongation into halos, refluxing) must not spoil the order. The reference is the exact
// solution, the vortex translated.
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <numbers>
#include <vector>

#include "patches/flux_register.hpp"
#include "patches/halo_plan.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/patch/patch_solver.hpp"

namespace tessera {
namespace {

constexpr double kSide = 10.0;    // the periodic box [-5, 5]^2 (times the extrusion)
constexpr double kStrength = 5.0; // beta
constexpr double kEndTime = 1.0;

// The exact state at x and time t: the vortex centred at (t, t), images wrapped into the box.
template <int Dim>
typename Euler<Dim>::State vortexAt(const Euler<Dim>& pde, const Vec<double, Dim>& x, double t) {
  const double g = pde.gamma;
  const auto wrap = [](double d) { return d - kSide * std::round(d / kSide); };
  const double dx = wrap(x[0] - t), dy = wrap(x[1] - t);
  const double r2 = dx * dx + dy * dy;
  const double bump = kStrength / (2.0 * std::numbers::pi) * std::exp(0.5 * (1.0 - r2));
  const double temperature = 1.0 - (g - 1.0) / (2.0 * g) * bump * bump;
  typename Euler<Dim>::State w = Euler<Dim>::State::filled(0.0);
  w[0] = std::pow(temperature, 1.0 / (g - 1.0));
  w[1] = 1.0 - bump * dy;
  w[2] = 1.0 + bump * dx;
  w[Dim + 1] = std::pow(w[0], g);
  return pde.toConserved(w);
}

// Patches of `n` cells: `cells` per side in x and y, one patch thick in z. refined: the patches
// whose lower corner lies in the central square [-2.5, 2.5)^2 are replaced by 2^Dim children.
template <int Dim>
struct VortexMesh {
  PatchLayout<Dim> layout;
  Vec<int, Dim> level0;
  std::vector<PatchPlacement<Dim>> placements;
  std::vector<PatchGeometry<Dim>> geometry;

  VortexMesh(int cells, int n, bool refined) : layout{n, 2, Dim + 2} {
    const int perSide = cells / n;
    level0 = Vec<int, Dim>::filled(1);
    level0[0] = level0[1] = perSide;
    const double h0 = kSide / cells;
    const auto central = [&](int i) { return 4 * i >= perSide && 4 * i < 3 * perSide; };
    for (int j = 0; j < perSide; ++j)
      for (int i = 0; i < perSide; ++i) {
        Vec<int, Dim> at{};
        at[0] = i;
        at[1] = j;
        if (!(refined && central(i) && central(j))) {
          add(0, at, h0);
          continue;
        }
        for (int c = 0; c < (1 << Dim); ++c) {
          Vec<int, Dim> child;
          for (int a = 0; a < Dim; ++a)
            child[a] = 2 * at[a] + ((c >> a) & 1);
          add(1, child, 0.5 * h0);
        }
      }
  }

  void add(int level, Vec<int, Dim> at, double h) {
    placements.push_back({level, at});
    PatchGeometry<Dim> g;
    for (int a = 0; a < Dim; ++a) {
      g.dx[a] = h;
      g.origin[a] = (a < 2 ? -0.5 * kSide : 0.0) + at[a] * layout.cellsPerAxis * h;
    }
    geometry.push_back(g);
  }
};

template <int Dim>
double vortexL1Error(int cells, LimiterKind limiter, bool refined, int cellsPerPatch) {
  Euler<Dim> pde;
  const VortexMesh<Dim> mesh(cells, cellsPerPatch, refined);
  const auto boundary = DomainBoundary<Dim>::all(BoundaryKind::Periodic);
  PatchScheme scheme;
  scheme.spatial = {ReconstructionKind::Plm, limiter, RiemannSolverKind::Hllc};
  scheme.integrator = kSspRk2;
  PatchSolver<Euler<Dim>> solver(
      pde, mesh.layout, mesh.geometry,
      buildHaloPlan<Dim>(mesh.layout, mesh.placements, mesh.level0, boundary), 0.4 / Dim,
      buildRefluxPlan<Dim>(mesh.placements, mesh.level0, boundary), MemorySpace::Host, {}, scheme);
  solver.initialise([&](const Vec<double, Dim>& x) { return vortexAt(pde, x, 0.0); });
  while (solver.time() < kEndTime) {
    const double dt = solver.stableDt();
    if (solver.time() + dt >= kEndTime)
      solver.advanceTo(kEndTime);
    else
      solver.advance(dt);
  }
  double l1 = 0.0, volume = 0.0;
  const auto& layout = mesh.layout;
  for (int p = 0; p < solver.numPatches(); ++p)
    for (int k = 0; k < layout.interiorCells(); ++k) {
      const CellIndex<Dim> c = layout.interiorCell(k);
      Vec<double, Dim> x;
      for (int a = 0; a < Dim; ++a)
        x[a] = mesh.geometry[p].cellCenter(a, c[a]);
      const double v = mesh.geometry[p].cellVolume();
      l1 += std::fabs(solver.state().at(p, 0, c) - vortexAt(pde, x, kEndTime)[0]) * v;
      volume += v;
    }
  return l1 / volume;
}

// The least-squares slope of log(error) against log(cells), negated: the observed order.
template <int Dim>
double observedOrder(LimiterKind limiter, bool refined, const std::vector<int>& cells,
                     int cellsPerPatch = 8) {
  std::vector<double> lx, ly;
  for (int n : cells) {
    const double e = vortexL1Error<Dim>(n, limiter, refined, cellsPerPatch);
    std::printf("%dD %s%s: %4d cells per side, L1(rho) %.4e\n", Dim,
                std::string(kLimiterNames[int(limiter)]).c_str(), refined ? ", two levels" : "", n,
                e);
    lx.push_back(std::log(double(n)));
    ly.push_back(std::log(e));
  }
  const double mx = (lx[0] + lx[1] + lx[2] + lx[3]) / 4, my = (ly[0] + ly[1] + ly[2] + ly[3]) / 4;
  double sxy = 0.0, sxx = 0.0;
  for (int k = 0; k < 4; ++k) {
    sxy += (lx[k] - mx) * (ly[k] - my);
    sxx += (lx[k] - mx) * (lx[k] - mx);
  }
  const double order = -sxy / sxx;
  std::printf("  observed order %.3f\n", order);
  return order;
}

TEST(IsentropicVortex, SecondOrderUnlimited2D) {
  EXPECT_GE(observedOrder<2>(LimiterKind::None, false, {32, 64, 128, 256}), 1.9);
}

TEST(IsentropicVortex, SecondOrderWithTheDefaultLimiter2D) {
  EXPECT_GE(observedOrder<2>(LimiterKind::VanLeer, false, {32, 64, 128, 256}), 1.7);
}

TEST(IsentropicVortex, SecondOrderOnATwoLevelMesh2D) {
  EXPECT_GE(observedOrder<2>(LimiterKind::None, true, {32, 64, 128, 256}), 1.9);
}

TEST(IsentropicVortex, SecondOrderWithTheDefaultLimiterOnATwoLevelMesh2D) {
  EXPECT_GE(observedOrder<2>(LimiterKind::VanLeer, true, {32, 64, 128, 256}), 1.7);
}

// In 3D, patches of 4^3 (the box 4 cells thick, 8 where refined), so that the refined square is the
// central one from 16 cells per side; up to 64, a fifth of the cost of 8^3 patches up to 128.
TEST(IsentropicVortex, SecondOrderOnATwoLevelMesh3D) {
  EXPECT_GE(observedOrder<3>(LimiterKind::None, true, {16, 32, 48, 64}, 4), 1.9);
}

TEST(IsentropicVortex, SecondOrderExtrudedIn3D) {
  EXPECT_GE(observedOrder<3>(LimiterKind::None, false, {16, 32, 48, 64}, 4), 1.9);
  EXPECT_GE(observedOrder<3>(LimiterKind::VanLeer, false, {16, 32, 48, 64}, 4), 1.7);
}

} // namespace
} // namespace tessera
