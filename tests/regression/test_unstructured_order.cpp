// The order of accuracy of the unstructured solver on a smooth flow: the subsonic channel over a
// bump (tests/support/bump_channel.hpp, Mach 0.5) solved to its steady state by the implicit
// solver on three meshes of 24 x 8, 48 x 16 and 96 x 32 hexahedra (one layer between symmetry
// planes), the floor's cells following the bump. The exact solution is isentropic, so the entropy
// error
//   E = sqrt(sum_c V_c (s_c / s_inf - 1)^2 / sum_c V_c),  s = p / rho^gamma,
// is the discretisation's alone; its observed order log2(E_h / E_h/2) must be at least 1.8 at
// second order with the default scheme (least squares, Venkatakrishnan's limiter, whose threshold
// leaves this smooth flow unlimited, Roe), while first order gives well under 1.5. Green-Gauss
// gradients are first-order accurate in the cells along the walls (their nodes average the cells,
// whose fit would extrapolate there): measured orders 1.36 and 1.54, bound 1.4 on the finer pair.
// The x-force on the floor, the bump's drag, is zero in this inviscid subsonic flow
// (d'Alembert's paradox): it falls with order 2.4 to 2.7 at second order (bound 1.8), about 0.7
// at first order.
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "engine/linalg/precision.hpp"
#include "solvers/unstructured/unstructured_euler.hpp"
#include "solvers/unstructured/unstructured_implicit.hpp"
#include "tests/support/bump_channel.hpp"

namespace tessera {
namespace {

const Euler<3> kPde{};

// The entropy error and the x-force on the floor (the bump's drag, 0 in inviscid subsonic flow:
// d'Alembert).
struct SteadyErrors {
  double entropy = 0.0, drag = 0.0;
};

// The channel of nx x nx/3 hexahedra, or of six tetrahedra in each.
SteadyErrors steadyErrors(int nx, const UnstructuredScheme& scheme,
                          unstructured::BoxCells cells = unstructured::BoxCells::Hexahedra) {
  const ColorContiguousMesh colored = colorContiguousMesh(test::bumpChannelMesh(
      {.nx = nx,
       .ny = nx / 3,
       .cells = cells,
       // Tetrahedra: one layer as thick as a cell is long, so that refining keeps their shape.
       .thickness = cells == unstructured::BoxCells::Tetrahedra ? 3.0 / nx : 0.2}));
  UnstructuredEuler solver(kPde, colored.mesh, test::bumpChannelBoundary(kPde), 0.9,
                           MemorySpace::Host, scheme);
  solver.initialise([](const Vec<double, 3>&) { return test::bumpFreestream(kPde); });
  ImplicitSettings settings;
  settings.residualDrop = 1e-10;
  settings.maxIterations = 2000;
  settings.cflMax = scheme.secondOrder() ? 50.0 : settings.cflMax;
  UnstructuredImplicit<linalg::DoublePrecision> implicit(solver, colored.pattern, settings);
  const PseudoTimeStep last = implicit.solve([](const PseudoTimeStep&) {});
  EXPECT_LE(last.relativeResidual, 1e-10) << describe(scheme) << ", nx = " << nx;

  const Euler<3>::State inf = test::bumpFreestream(kPde);
  const double sInf = kPde.pressure(inf) / std::pow(inf[0], kPde.gamma);
  const std::vector<double>& q = solver.hostState();
  double sum = 0.0, volume = 0.0;
  for (int c = 0; c < solver.numCells(); ++c) {
    Euler<3>::State s;
    for (int v = 0; v < 5; ++v)
      s[v] = q[5 * std::size_t(c) + std::size_t(v)];
    const double error = kPde.pressure(s) / std::pow(s[0], kPde.gamma) / sInf - 1.0;
    const double v = solver.mesh().cellVolume[std::size_t(c)];
    sum += v * error * error;
    volume += v;
  }
  const double drag = solver.wallForces({0.0, 0.0, 0.0})[0].force[0]; // on the floor (tag 3)
  std::printf("%s, %d x %d: entropy error %.4e, floor's drag %.3e, after %d iterations\n",
              describe(scheme).c_str(), nx, nx / 3, std::sqrt(sum / volume), drag, last.iteration);
  return {std::sqrt(sum / volume), drag};
}

// The observed orders of the entropy error between the meshes, and the drag's.
struct Orders {
  std::vector<double> entropy, drag;
};

// On the meshes nx, 2 nx and 4 nx.
Orders observedOrders(const UnstructuredScheme& scheme,
                      unstructured::BoxCells cells = unstructured::BoxCells::Hexahedra,
                      int nx = 24) {
  const SteadyErrors coarse = steadyErrors(nx, scheme, cells),
                     medium = steadyErrors(2 * nx, scheme, cells),
                     fine = steadyErrors(4 * nx, scheme, cells);
  return {{std::log2(coarse.entropy / medium.entropy), std::log2(medium.entropy / fine.entropy)},
          {std::log2(coarse.drag / medium.drag), std::log2(medium.drag / fine.drag)}};
}

TEST(UnstructuredOrder, SecondOrderEntropyErrorOfTheBumpChannelFallsWithOrderTwo) {
  UnstructuredScheme greenGauss;
  greenGauss.gradient = UnstructuredGradient::GreenGauss;
  for (const UnstructuredScheme& scheme : {UnstructuredScheme{}, greenGauss}) {
    const Orders orders = observedOrders(scheme);
    std::printf("%s: observed orders %.3f, %.3f (entropy), %.3f, %.3f (drag)\n",
                describe(scheme).c_str(), orders.entropy[0], orders.entropy[1], orders.drag[0],
                orders.drag[1]);
    EXPECT_GE(orders.entropy[1], scheme.gradient == UnstructuredGradient::GreenGauss ? 1.4 : 1.8)
        << describe(scheme);
    EXPECT_GE(orders.drag[1], 1.8) << describe(scheme);
  }
  const Orders first = observedOrders(UnstructuredScheme::firstOrderRusanov());
  std::printf("first order: observed orders %.3f, %.3f (entropy), %.3f, %.3f (drag)\n",
              first.entropy[0], first.entropy[1], first.drag[0], first.drag[1]);
  EXPECT_LT(first.entropy[1], 1.5);
  EXPECT_LT(first.drag[1], 1.5);
}

// The same channel cut into tetrahedra, 12 x 4 to 48 x 16 cubes of six (288 to 4608 cells, the
// layer as thick as a cube is long), where the default gradient is over the node neighbours:
// unlimited, the scheme's own order. Measured (2026-11-28): entropy 1.43 and 1.96, drag 2.9 and
// 3.4 (29 s on 2 cores); one level finer, from 24 x 8 to 96 x 32, entropy 1.96 and 2.10. With
// Venkatakrishnan's K = 5 the finest of those pairs drops to 1.57: on tetrahedra the cell size
// V^(1/3) that sets the threshold is half a hexahedron's, and the limiter clips the flow's smooth
// extrema there.
TEST(UnstructuredOrder, SecondOrderOnTetrahedraFallsWithOrderTwo) {
  UnstructuredScheme unlimited;
  unlimited.limiter = UnstructuredLimiter::None;
  const Orders orders = observedOrders(unlimited, unstructured::BoxCells::Tetrahedra, 12);
  std::printf("tetrahedra, %s: observed orders %.3f, %.3f (entropy), %.3f, %.3f (drag)\n",
              describe(unlimited).c_str(), orders.entropy[0], orders.entropy[1], orders.drag[0],
              orders.drag[1]);
  EXPECT_GE(orders.entropy[1], 1.8);
  EXPECT_GE(orders.drag[1], 1.8);
}

} // namespace
} // namespace tessera
