// Newton-Krylov steps (ImplicitSettings::linearSolver = Gmres: flexible GMRES with the second-order
// residual's own Jacobian, applied by differences of the residual, right-preconditioned by the
// multicolor sweeps) against the sweeps alone (defect correction with the first-order matrix), on
// the subsonic bump channel (Mach 0.5) in 12 x 4 x 1 cubes cut into tetrahedra, second order with
// the default scheme (node-neighbour least squares, Venkatakrishnan): both reach the same steady
// state (the residual's zero does not depend on how each step's system is solved), Newton-Krylov
// in far fewer nonlinear iterations (here 13 against 416 to 1e-10). A first-order start
// ends where it is set to (a drop of the residual, a count of steps, whichever comes first), and
// the steady state is the same after it. A stalled GMRES strengthens the preconditioner.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <vector>

#include "engine/linalg/precision.hpp"
#include "solvers/unstructured/unstructured_implicit.hpp"
#include "tests/support/bump_channel.hpp"

namespace tessera {
namespace {

const Euler<3> kPde{};

struct Converged {
  int iterations = 0;
  double relativeResidual = 1.0;
  std::vector<double> state;
  std::vector<PseudoTimeStep> steps; // each measurement
};

// The first-order start of `start` (its firstOrderIterations and firstOrderDrop), its Krylov
// vectors and sweeps, with the other settings of this test.
Converged converge(const ColorContiguousMesh& colored, LinearSolver linear, double cflMax,
                   const ImplicitSettings& start = {}) {
  UnstructuredEuler solver(kPde, colored.mesh, test::bumpChannelBoundary(kPde), 0.9,
                           MemorySpace::Host, UnstructuredScheme{});
  solver.initialise([](const Vec<double, 3>&) { return test::bumpFreestream(kPde); });
  ImplicitSettings settings;
  settings.residualDrop = 1e-10;
  settings.maxIterations = 2000;
  settings.cflMax = cflMax;
  settings.linearSolver = linear;
  settings.firstOrderIterations = start.firstOrderIterations;
  settings.firstOrderDrop = start.firstOrderDrop;
  settings.krylovVectors = start.krylovVectors;
  settings.sweeps = start.sweeps;
  UnstructuredImplicit<linalg::DoublePrecision> implicit(solver, colored.pattern, settings);
  Converged c;
  const PseudoTimeStep last =
      implicit.solve([&](const PseudoTimeStep& s) { c.steps.push_back(s); });
  c.iterations = last.iteration;
  c.relativeResidual = last.relativeResidual;
  c.state = solver.hostState();
  return c;
}

// How many measurements were first order; they must come first.
int firstOrderSteps(const Converged& c) {
  int count = 0;
  for (const PseudoTimeStep& s : c.steps)
    count += s.firstOrder;
  for (int i = 0; i < count; ++i)
    EXPECT_TRUE(c.steps[std::size_t(i)].firstOrder)
        << "a first-order step after a second-order one";
  return count;
}

double largestDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::fabs(a[i] - b[i]));
  return worst;
}

TEST(NewtonKrylov, ReachesTheSweepsSteadyStateInFarFewerIterations) {
  const ColorContiguousMesh colored = colorContiguousMesh(test::bumpChannelMesh(
      {.nx = 12, .ny = 4, .nz = 1, .cells = unstructured::BoxCells::Tetrahedra}));
  // The sweeps at the CFL ceiling the tessera program gives them at second order (beyond it
  // defect correction stalls); Newton-Krylov up to the first-order ceiling.
  const Converged sweeps = converge(colored, LinearSolver::Sweeps, 100.0);
  const Converged newton = converge(colored, LinearSolver::Gmres, 1e5);
  std::printf("to 1e-10: sweeps %d iterations, Newton-Krylov %d\n", sweeps.iterations,
              newton.iterations);
  ASSERT_LE(sweeps.relativeResidual, 1e-10);
  ASSERT_LE(newton.relativeResidual, 1e-10);
  EXPECT_LE(2 * newton.iterations, sweeps.iterations);
  EXPECT_LE(largestDifference(newton.state, sweeps.state), 1e-7) << "the steady states differ";
}

// A step whose GMRES stalled (its linear residual above half) raises the preconditioner's sweeps by
// half for the steps after it, up to 4 times implicit.sweeps; the steady state stays the sweeps'.
TEST(NewtonKrylov, AStalledLinearSolveStrengthensThePreconditioner) {
  const ColorContiguousMesh colored = colorContiguousMesh(test::bumpChannelMesh(
      {.nx = 12, .ny = 4, .nz = 1, .cells = unstructured::BoxCells::Tetrahedra}));
  ImplicitSettings weak; // GMRES of 2 vectors with 2 sweeps: stalls at long steps
  weak.krylovVectors = 2;
  weak.sweeps = 2;
  const Converged sweeps = converge(colored, LinearSolver::Sweeps, 100.0);
  const Converged newton = converge(colored, LinearSolver::Gmres, 1e5, weak);
  ASSERT_LE(newton.relativeResidual, 1e-10);
  ASSERT_GE(newton.steps.size(), 2u);
  EXPECT_EQ(newton.steps[0].preconditionerSweeps, 2);
  int stalls = 0;
  for (std::size_t k = 1; k < newton.steps.size(); ++k) {
    const PseudoTimeStep& s = newton.steps[k];
    const int before = newton.steps[k - 1].preconditionerSweeps;
    const bool stalled = s.linearResidual > 0.5;
    stalls += stalled;
    EXPECT_EQ(s.preconditionerSweeps, stalled ? std::min(8, (3 * before + 1) / 2) : before)
        << "iteration " << s.iteration;
  }
  EXPECT_GE(stalls, 3);
  EXPECT_EQ(newton.steps.back().preconditionerSweeps, 8);
  EXPECT_LE(largestDifference(newton.state, sweeps.state), 1e-7) << "the steady states differ";
}

TEST(NewtonKrylov, AFirstOrderStartEndsWhereItIsSetTo) {
  const ColorContiguousMesh colored = colorContiguousMesh(test::bumpChannelMesh(
      {.nx = 12, .ny = 4, .nz = 1, .cells = unstructured::BoxCells::Tetrahedra}));
  const Converged plain = converge(colored, LinearSolver::Gmres, 1e5);
  EXPECT_EQ(firstOrderSteps(plain), 0);

  // By its drop: first order while the residual is above a hundredth of the first.
  ImplicitSettings byDrop;
  byDrop.firstOrderDrop = 1e-2;
  const Converged dropped = converge(colored, LinearSolver::Gmres, 1e5, byDrop);
  const int started = firstOrderSteps(dropped);
  ASSERT_GT(started, 0);
  for (int i = 0; i < started; ++i)
    EXPECT_GT(dropped.steps[std::size_t(i)].relativeResidual, 1e-2) << "step " << i;
  ASSERT_LE(dropped.relativeResidual, 1e-10);
  EXPECT_LE(largestDifference(dropped.state, plain.state), 1e-7) << "the steady states differ";

  // By its count, which comes before a drop by 1e-12.
  ImplicitSettings byCount;
  byCount.firstOrderIterations = 3;
  byCount.firstOrderDrop = 1e-12;
  const Converged counted = converge(colored, LinearSolver::Gmres, 1e5, byCount);
  EXPECT_EQ(firstOrderSteps(counted), 3);
  ASSERT_LE(counted.relativeResidual, 1e-10);
  EXPECT_LE(largestDifference(counted.state, plain.state), 1e-7) << "the steady states differ";
}

} // namespace
} // namespace tessera
