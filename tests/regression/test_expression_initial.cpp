// Initial states written as formulas in the case (io/expression_initial.hpp) run to the exact
// solutions of their problems at the scheme's order: a smooth density wave carried at speed 1
// through a periodic domain (exact: the initial profile moved by t; its cell averages in closed
// form), and Toro's test 1 (Sod) written as a conditional (exact: tests/support's Riemann solver,
// written independently of the solver). The default second-order scheme (PLM with van Leer's
// limiter, HLLC, SSP-RK2) must converge at an order of at least 1.8 on the wave, which its limiter
// clips only at the two extrema; first order (donor cell, Rusanov, forward Euler) must cut Sod's
// L1 error by at least 0.75 when the cells halve (Kuznetsov's dx^(1/2) for discontinuous data,
// with slack).
#include <cmath>
#include <gtest/gtest.h>
#include <numbers>
#include <string>
#include <vector>

#include "io/config.hpp"
#include "io/expression_initial.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/patch/patch_solver.hpp"
#include "tests/support/exact_riemann.hpp"

namespace tessera {
namespace {

constexpr int kCellsPerPatch = 8;

// The formulas of a case file's [initial] table, read as the tessera program reads them.
io::ExpressionInitial<Euler<2>> initialFrom(const std::string& initialTable) {
  io::Config cfg =
      io::Config::fromString("[initial]\ntype = \"expression\"\n" + initialTable, "case.toml");
  return io::readExpressionInitial(cfg, Euler<2>{});
}

// The run of `cells` cells along [0, 1] (one patch row across y) to endTime; the density of the
// first row's cells, left to right.
std::vector<double> densityAlongX(const io::ExpressionInitial<Euler<2>>& initial, int cells,
                                  BoundaryKind xBoundary, const PatchScheme& scheme,
                                  double endTime) {
  const UniformPatchGrid<2> grid(PatchLayout<2>{kCellsPerPatch, scheme.spatial.halo(), 4},
                                 {{cells / kCellsPerPatch, 1}}, {{0.0, 0.0}},
                                 {{1.0, double(kCellsPerPatch) / cells}});
  DomainBoundary<2> boundary = DomainBoundary<2>::all(BoundaryKind::Periodic);
  boundary.kind[0] = {xBoundary, xBoundary};
  PatchSolver<Euler<2>> solver(Euler<2>{}, grid, boundary, 0.4, MemorySpace::Host, scheme);
  solver.initialise(initial);
  while (solver.time() < endTime)
    solver.advance(std::min(solver.stableDt(), endTime - solver.time()));
  std::vector<double> rho(static_cast<std::size_t>(cells));
  for (int p = 0; p < grid.numPatches(); ++p)
    for (int i = 0; i < kCellsPerPatch; ++i)
      rho[std::size_t(grid.patchCoords(p)[0] * kCellsPerPatch + i)] =
          solver.state().at(p, 0, CellIndex<2>{{i, 0}});
  return rho;
}

const PatchScheme kSecondOrder{
    {ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hllc}, kSspRk2};

TEST(ExpressionInitial, ASmoothWaveConvergesAtSecondOrder) {
  const auto initial = initialFrom(R"toml(parameters = { amplitude = 0.2 }
density = "1 + amplitude * sin(2 * pi * x)"
velocity_x = "1"
velocity_y = "0"
pressure = "1"
)toml");
  constexpr double kEnd = 0.25, kAmplitude = 0.2;
  const auto l1 = [&](int cells) {
    const std::vector<double> rho =
        densityAlongX(initial, cells, BoundaryKind::Periodic, kSecondOrder, kEnd);
    const double dx = 1.0 / cells, k = 2 * std::numbers::pi;
    double error = 0.0;
    for (int i = 0; i < cells; ++i) { // the exact cell average of 1 + a sin(k (x - t))
      const double lo = i * dx - kEnd, hi = (i + 1) * dx - kEnd;
      const double exact = 1.0 + kAmplitude * (std::cos(k * lo) - std::cos(k * hi)) / (k * dx);
      error += std::fabs(rho[std::size_t(i)] - exact) * dx;
    }
    return error;
  };
  const double coarse = l1(64), fine = l1(128);
  const double order = std::log2(coarse / fine);
  EXPECT_GE(order, 1.8) << "L1 " << coarse << " at 64 cells, " << fine << " at 128";
  EXPECT_LT(fine, 1e-3);
}

TEST(ExpressionInitial, SodWrittenAsAConditionalConvergesToTheExactSolution) {
  const auto initial = initialFrom(R"toml(density = "x < 0.5 ? 1 : 0.125"
velocity_x = "0"
velocity_y = "0"
pressure = "x < 0.5 ? 1 : 0.1"
)toml");
  constexpr double kEnd = 0.25;
  const test::ExactRiemannSolver exact({1.0, 0.0, 1.0}, {0.125, 0.0, 0.1}, 1.4);
  const auto l1 = [&](int cells) {
    const std::vector<double> rho =
        densityAlongX(initial, cells, BoundaryKind::Outflow, PatchScheme{}, kEnd);
    const double dx = 1.0 / cells;
    double error = 0.0;
    for (int i = 0; i < cells; ++i)
      error +=
          std::fabs(rho[std::size_t(i)] - exact.cellAverage(i * dx, (i + 1) * dx, 0.5, kEnd).rho) *
          dx;
    return error;
  };
  const double coarse = l1(200), fine = l1(400);
  EXPECT_LE(fine, 0.75 * coarse) << "L1 " << coarse << " at 200 cells, " << fine << " at 400";
  EXPECT_LT(fine, 0.02);
}

} // namespace
} // namespace tessera
