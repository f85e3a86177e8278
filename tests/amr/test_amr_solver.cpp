// The adaptive solver: regridding moves data without changing any total; with the mesh following
// a moving pulse, a closed domain conserves mass, momentum and energy over 1000 steps; 2:1 balance
// holds after every adapt.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

#include "drivers/amr_solver.hpp"
#include "solvers/initial_conditions.hpp"

namespace tessera {
namespace {

template <int Dim>
AmrSolver<Euler<Dim>> pulseInPeriodicBox(int regridInterval) {
  EulerPulse<Dim> ic;
  AmrSettings settings;
  settings.minLevel = 0;
  settings.maxLevel = 2;
  settings.regridInterval = regridInterval;
  return AmrSolver<Euler<Dim>>(
      MPI_COMM_WORLD, ic.pde, PatchLayout<Dim>{8, 1, Dim + 2}, Vec<int, Dim>::filled(3),
      Vec<double, Dim>::filled(-1.0), Vec<double, Dim>::filled(1.0),
      DomainBoundary<Dim>::all(BoundaryKind::Periodic), settings,
      amr::thresholdCriterion<Dim>(amr::storedVariable<Dim>(Euler<Dim>::kDensity), 1.15, 1.05),
      0.8 / Dim);
}

template <int Dim>
EulerPulse<Dim> movingPulse() {
  EulerPulse<Dim> ic;
  ic.pulse.centre = Vec<double, Dim>::filled(-0.3);
  ic.pulse.width = 0.25;
  ic.pulse.amplitude = 1.0;
  for (int a = 0; a < Dim; ++a)
    ic.velocity[a] = 1.0 - 0.4 * a;
  return ic;
}

TEST(AmrSolver, MeshFollowsThePulseAndConservesOver1000Steps) {
  auto amr = pulseInPeriodicBox<2>(4);
  const EulerPulse<2> ic = movingPulse<2>();
  amr.initialise([&](const auto&, const auto&) { return ic; });
  EXPECT_EQ(amr.finestLevel(), 2) << "the pulse is refined from the start";
  const auto before = amr.solver().conservedTotals();
  int regrids = 0;
  auto leaves = amr.forest().leaves();
  for (int s = 0; s < 1000; ++s) {
    amr.advance(amr.solver().stableDt());
    if (amr.forest().leaves() != leaves) {
      ++regrids;
      leaves = amr.forest().leaves();
    }
  }
  EXPECT_GT(regrids, 10) << "the mesh moves with the pulse";
  const auto after = amr.solver().conservedTotals();
  for (int v = 0; v < 4; ++v)
    EXPECT_LE(std::fabs(after[v] - before[v]), 1e-12 * std::fabs(before[v])) << "variable " << v;
}

// On the host a step is done when it returns, so no stage of a regrid runs beside one: each
// stage's whole time is past its step (RegridTimes::exposedStages), and it holds the phases timed
// inside it (the forest in the first, the remap plan, repartition and plans in the second, the
// halo plans in the third).
TEST(AmrSolver, OnTheHostARegridsStagesAreAllPastTheirSteps) {
  auto amr = pulseInPeriodicBox<2>(4);
  const EulerPulse<2> ic = movingPulse<2>();
  amr.initialise([&](const auto&, const auto&) { return ic; });
  const RegridTimes before = amr.regridTimes();
  for (int s = 0; s < 200; ++s)
    amr.advance(amr.solver().stableDt());
  const RegridTimes t = amr.regridTimes().since(before);
  EXPECT_EQ(t.overlapped, 0.0);
  for (double stage : t.exposedStages)
    EXPECT_GT(stage, 0.0);
  EXPECT_GE(t.exposedStages[0], t.forest);
  EXPECT_GE(t.exposedStages[1] + t.exposedStages[2], t.plans + t.partition);
}

TEST(AmrSolver, RegridAloneChangesNoTotal) {
  auto amr = pulseInPeriodicBox<3>(0);
  const EulerPulse<3> ic = movingPulse<3>();
  amr.initialise([&](const auto&, const auto&) { return ic; });
  for (int s = 0; s < 60; ++s)
    amr.advance(amr.solver().stableDt()); // the pulse moves off its refined region
  const auto before = amr.solver().conservedTotals();
  const std::size_t patchesBefore = amr.forest().leaves().size();
  ASSERT_TRUE(amr.regrid()) << "the mesh must change for this test to mean anything";
  EXPECT_NE(amr.forest().leaves().size(), patchesBefore);
  const auto after = amr.solver().conservedTotals();
  for (int v = 0; v < 5; ++v)
    EXPECT_LE(std::fabs(after[v] - before[v]), 1e-13 * std::fabs(before[v])) << "variable " << v;
}

// With a regrid every 61 steps, a built-in criterion flags the state the step three before the
// regrid's starts from (PatchSolver::flagNextStep, in the 58th step's update); the host adapts a
// forest of its own beside the 59th step and plans beside the 60th and 61st, after which the
// patches move onto it: after 61 steps the mesh is the one a regrid asked for after 57 steps
// leaves, the same as at the start before, and no flags wait after it.
TEST(AmrSolver, ARegridAdaptsToFlagsOfTheStepThreeBeforeIt) {
  const auto solverWith = [](int regridInterval) {
    AmrSettings settings;
    settings.minLevel = 0;
    settings.maxLevel = 2;
    settings.regridInterval = regridInterval;
    return AmrSolver<Euler<2>>(
        MPI_COMM_WORLD, Euler<2>{}, PatchLayout<2>{8, 1, 4}, Vec<int, 2>::filled(3),
        Vec<double, 2>::filled(-1.0), Vec<double, 2>::filled(1.0),
        DomainBoundary<2>::all(BoundaryKind::Periodic), settings,
        amr::IndicatorCriterion{amr::Indicator::Threshold, Euler<2>::kDensity, false, 1.15, 1.05},
        0.4);
  };
  auto every61 = solverWith(61), before = solverWith(0);
  const EulerPulse<2> ic = movingPulse<2>();
  for (auto* amr : {&every61, &before})
    amr->initialise([&](const auto&, const auto&) { return ic; });
  const auto initialLeaves = before.forest().leaves();
  for (int s = 0; s < 57; ++s) {
    const double dt = before.stableDt();
    every61.advance(dt);
    before.advance(dt);
  }
  ASSERT_TRUE(before.regrid()) << "the pulse must have moved off its mesh";
  EXPECT_FALSE(every61.pendingFlags());
  every61.advance(every61.stableDt());
  ASSERT_TRUE(every61.pendingFlags()) << "the 58th step takes the flags";
  EXPECT_EQ(every61.pendingFlags()->size(), initialLeaves.size());
  for (int s = 59; s <= 60; ++s) {
    every61.advance(every61.stableDt());
    EXPECT_TRUE(every61.pendingFlags()) << "they wait for the 61st step, after step " << s;
    EXPECT_EQ(every61.forest().leaves(), initialLeaves) << "no regrid after step " << s;
  }
  every61.advance(every61.stableDt());
  EXPECT_EQ(every61.forest().leaves(), before.forest().leaves());
  EXPECT_FALSE(every61.pendingFlags());
}

// A regrid's copied patches keep the eigenvalues the step computed; only the refined and coarsened
// ones are computed again: every patch's equals what a pass over the whole new state gives.
TEST(AmrSolver, ARegridKeepsTheEigenvaluesOfThePatchesItCopies) {
  auto amr = pulseInPeriodicBox<2>(0);
  const EulerPulse<2> ic = movingPulse<2>();
  amr.initialise([&](const auto&, const auto&) { return ic; });
  const auto before = amr.forest().leaves();
  for (int s = 0; s < 60; ++s)
    amr.advance(amr.stableDt());
  ASSERT_TRUE(amr.regrid()) << "the pulse must have moved off its mesh";
  const auto& after = amr.forest().leaves();
  int kept = 0;
  for (const auto& leaf : after)
    kept += int(std::find(before.begin(), before.end(), leaf) != before.end());
  ASSERT_GT(kept, 0);
  ASSERT_LT(kept, int(after.size())) << "the regrid must refine or coarsen some patches";

  const std::vector<double> carried = amr.solver().patchEigenvalues();
  // restore() computes every patch's eigenvalue from the state.
  PatchStore<2> state(amr.solver().layout(), amr.solver().numPatches(), MemorySpace::Host);
  state.copyPatchesFrom(amr.solver().hostState(), amr.solver().numPatches());
  amr.solver().restore(state, amr.solver().time(), amr.solver().step());
  EXPECT_EQ(carried, amr.solver().patchEigenvalues());
}

} // namespace
} // namespace tessera
