// The implicit unstructured Euler solver (backward Euler in pseudo-time, multicolor point-implicit
// sweeps) on a subsonic channel over a bump (tests/support/bump_channel.hpp, Mach 0.5, 24 x 8 x 1
// hexahedra), from the freestream:
// - it drops the L2 density residual by 12 orders (fp64 and mixed precision) within a bounded
//   number of steps, more than the 8 the issue asks for, also on a mesh of all four cell shapes;
// - explicit forward Euler with local time steps (each cell its own stable step; the residual's
//   zero, hence the steady state, does not depend on the steps) reaches the same state: max over
//   cells and variables of |q_implicit - q_explicit| / max |q_freestream| <= 1e-8;
// - the steady state's mass flux in equals the mass flux out (relative 1e-8), the walls passing
//   none.
// Measured (2 cores): 27 steps to 12 orders on the hexahedra, 75 on the mixed mesh, both
// precisions (bounds 40 and 100, kChannels); explicit: 2075 local steps to 12 orders (bound
// 200000), the states then differ by 2.5e-13 (bound 1e-8); mass flux in and out differ by 5e-14
// relative (bound 1e-8), walls pass at most 1e-18 of it (bound 1e-12).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <utility>
#include <vector>

#include "engine/atomics/strategy.hpp"
#include "engine/linalg/precision.hpp"
#include "solvers/unstructured/unstructured_implicit.hpp"
#include "tests/support/bump_channel.hpp"

namespace tessera {
namespace {

const Euler<3> kPde{};

struct Channel {
  ColorContiguousMesh colored;

  explicit Channel(const test::BumpChannel& spec = {})
      : colored(colorContiguousMesh(test::bumpChannelMesh(spec))) {}

  UnstructuredEuler freestreamSolver() const {
    UnstructuredEuler solver(kPde, colored.mesh, test::bumpChannelBoundary(kPde), 0.9);
    solver.initialise([](const Vec<double, 3>&) { return test::bumpFreestream(kPde); });
    return solver;
  }
};

template <class Precision>
PseudoTimeStep solveImplicit(UnstructuredEuler& solver, const Channel& channel, double drop) {
  ImplicitSettings settings;
  settings.residualDrop = drop;
  UnstructuredImplicit<Precision> implicit(solver, channel.colored.pattern, settings);
  return implicit.solve([](const PseudoTimeStep& s) {
    std::printf("%s step %3d  |R| / |R0| = %.3e  CFL %.3g\n", Precision::kName.data(), s.iteration,
                s.relativeResidual, s.cfl);
  });
}

// Forward Euler with local steps q_c += cfl step_c / V_c R_c until the density residual has
// dropped by `drop` (or maxSteps); returns the steps taken.
int solveExplicitLocal(UnstructuredEuler& solver, double drop, int maxSteps) {
  const int cells = solver.numCells();
  double first = -1.0;
  for (int n = 0; n < maxSteps; ++n) {
    const double* r = solver.currentResidual();
    double norm = 0.0;
    for (int c = 0; c < cells; ++c)
      norm += r[5 * c] * r[5 * c];
    norm = std::sqrt(norm);
    first = first < 0.0 ? norm : first;
    if (norm <= drop * first)
      return n;
    const double* step = solver.localStableSteps();
    const double* volume = solver.volumes();
    double* q = solver.stateData();
    for (int c = 0; c < cells; ++c)
      for (int v = 0; v < 5; ++v)
        q[5 * c + v] += 0.9 * step[c] / volume[c] * r[5 * c + v];
  }
  return maxSteps;
}

// The mass fluxes in through the inlet (tag 1) and out through the outlet (tag 2), and the
// largest through a wall or symmetry face.
struct MassFlux {
  double in = 0.0, out = 0.0, wall = 0.0;
};

MassFlux massFlux(UnstructuredEuler& solver) {
  const EulerFaceFlux flux{kPde, solver.faces(), solver.stateData(), solver.farfield()};
  const unstructured::Mesh& mesh = solver.mesh();
  MassFlux m;
  for (int f = 0; f < mesh.numFaces(); ++f) {
    if (mesh.neighbour[std::size_t(f)] >= 0)
      continue;
    double toOwner[5], unused[5];
    flux(f, toOwner, unused);
    const double leaving = -toOwner[0];
    const int tag = mesh.faceTag[std::size_t(f)];
    if (tag == 1)
      m.in -= leaving;
    else if (tag == 2)
      m.out += leaving;
    else
      m.wall = std::max(m.wall, std::fabs(leaving));
  }
  return m;
}

double maxRelativeDifference(const std::vector<double>& a, const std::vector<double>& b) {
  const Euler<3>::State free = test::bumpFreestream(kPde);
  double scale = 0.0, difference = 0.0;
  for (int v = 0; v < 5; ++v)
    scale = std::max(scale, std::fabs(free[v]));
  for (std::size_t i = 0; i < a.size(); ++i)
    difference = std::max(difference, std::fabs(a[i] - b[i]));
  return difference / scale;
}

// The channel in hexahedra, and in all four shapes (BoxCells::Mixed, 4 layers in z, 1200 cells),
// with a bound on the steps to 12 orders: measured 27 and 75, both precisions (the mixed mesh's
// 15 sweeps leave more of each linear system unsolved, about 0.7 per step against 0.33).
struct ChannelCase {
  test::BumpChannel spec;
  int maxSteps;
};
const ChannelCase kChannels[] = {
    {{}, 40},
    {{.nx = 12, .ny = 4, .nz = 4, .cells = unstructured::BoxCells::Mixed}, 100},
};

template <class Precision>
void expectTwelveOrdersOnEveryChannel() {
  for (const ChannelCase& c : kChannels) {
    const Channel channel(c.spec);
    UnstructuredEuler solver = channel.freestreamSolver();
    const PseudoTimeStep last = solveImplicit<Precision>(solver, channel, 1e-12);
    EXPECT_LE(last.relativeResidual, 1e-12);
    EXPECT_LE(last.iteration, c.maxSteps);
  }
}

TEST(UnstructuredImplicit, Fp64DropsTheResidualTwelveOrders) {
  expectTwelveOrdersOnEveryChannel<linalg::DoublePrecision>();
}

// fp32 off-diagonal blocks and updates: the right-hand side stays fp64, so the updates shrink
// with the residual and the iteration reaches the same depth (no fp32 floor on this case).
TEST(UnstructuredImplicit, MixedPrecisionDropsTheResidualTwelveOrders) {
  expectTwelveOrdersOnEveryChannel<linalg::MixedPrecision>();
}

TEST(UnstructuredImplicit, ExplicitLocalSteppingReachesTheSameSteadyState) {
  const Channel channel;
  UnstructuredEuler implicitSolver = channel.freestreamSolver();
  solveImplicit<linalg::DoublePrecision>(implicitSolver, channel, 1e-12);
  UnstructuredEuler explicitSolver = channel.freestreamSolver();
  const int steps = solveExplicitLocal(explicitSolver, 1e-12, 200000);
  const double difference =
      maxRelativeDifference(implicitSolver.hostState(), explicitSolver.hostState());
  std::printf("explicit steps %d, max |q_implicit - q_explicit| / |q_inf| = %.3e\n", steps,
              difference);
  EXPECT_LT(steps, 200000);
  EXPECT_LE(difference, 1e-8);

  const MassFlux m = massFlux(implicitSolver);
  std::printf("mass flux in %.15g out %.15g, largest through a wall %.3e\n", m.in, m.out, m.wall);
  EXPECT_NEAR(m.out, m.in, 1e-8 * m.in);
  EXPECT_LE(m.wall, 1e-12 * m.in);
}

// The one-pass assembly (every strategy but the gather: the diagonal scatter writes the
// off-diagonal blocks on the side) and the two-pass one (the gather, with the off-diagonal pass)
// take the same 8 steps from the freestream on the mixed-shape channel: every residual norm and
// the final state within 1e-12 relative of the gather's (fp64; they differ only in the order of
// the additions into the diagonal blocks).
TEST(UnstructuredImplicit, OnePassAndTwoPassAssemblyTakeTheSameSteps) {
  const Channel channel({.nx = 12, .ny = 4, .nz = 4, .cells = unstructured::BoxCells::Mixed});
  const auto run = [&](atomics::Strategy strategy) {
    UnstructuredEuler solver = channel.freestreamSolver();
    ImplicitSettings settings;
    settings.jacobianStrategy = strategy;
    UnstructuredImplicit<linalg::DoublePrecision> implicit(solver, channel.colored.pattern,
                                                           settings);
    std::vector<double> norms;
    for (int n = 0; n < 8; ++n)
      norms.push_back(implicit.iterate().residual);
    return std::pair{norms, solver.hostState()};
  };
  ASSERT_FALSE(atomics::evaluatesEachFaceOnce(atomics::Strategy::Gather));
  const auto [twoPassNorms, twoPassState] = run(atomics::Strategy::Gather);
  for (atomics::Strategy strategy : atomics::kAllStrategies) {
    if (!atomics::evaluatesEachFaceOnce(strategy))
      continue;
    const auto [norms, state] = run(strategy);
    for (std::size_t n = 0; n < norms.size(); ++n)
      EXPECT_NEAR(norms[n], twoPassNorms[n], 1e-12 * twoPassNorms[0])
          << atomics::strategyName(strategy) << " step " << n;
    EXPECT_LE(maxRelativeDifference(state, twoPassState), 1e-12) << atomics::strategyName(strategy);
  }
}

} // namespace
} // namespace tessera
