// A step that is asked for a built-in criterion's flags (PatchSolver::flagNextStep) evaluates it
// on the state the step starts from, with the halos its first stage filled: the flags equal the
// host criterion's on that state, and differ from those of the state the step ends with where the
// test makes them differ (a threshold between a patch's largest density before and after the
// step). The step itself is the one taken without flags, bit for bit.
#include <cmath>
#include <gtest/gtest.h>
#include <optional>
#include <vector>

#include "physics/euler/euler.hpp"
#include "solvers/patch/patch_solver.hpp"
#include "solvers/patch/refinement_flags.hpp"

namespace tessera {
namespace {

const PatchScheme kSecondOrder{
    {ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hllc}, kSspRk2};

// 4 x 3 patches of 8^2 cells on [0, 1]^2, periodic, a density pulse moving along x and y.
PatchSolver<Euler<2>> movingPulse(const PatchScheme& scheme) {
  const UniformPatchGrid<2> grid(PatchLayout<2>{8, scheme.spatial.halo(), 4}, {{4, 3}},
                                 {{0.0, 0.0}}, {{1.0, 1.0}});
  PatchSolver<Euler<2>> solver(Euler<2>{}, grid, DomainBoundary<2>::all(BoundaryKind::Periodic),
                               0.4, MemorySpace::Host, scheme);
  solver.initialise([](const Vec<double, 2>& x) {
    const double r2 = std::pow(x[0] - 0.45, 2) + std::pow(x[1] - 0.5, 2);
    return Euler<2>{}.toConserved({{1.0 + 2.0 * std::exp(-r2 / 0.01), 1.5, 0.7, 1.0}});
  });
  return solver;
}

std::vector<amr::AdaptFlag> flagsOf(PatchSolver<Euler<2>>& solver,
                                    const amr::IndicatorCriterion& criterion) {
  solver.fillCurrentHalos(HaloCells::ReadByKernels);
  return solver.refinementFlags(criterion);
}

// The largest density of each patch.
std::vector<double> largestDensity(const PatchSolver<Euler<2>>& solver) {
  std::vector<double> largest(solver.numPatches(), 0.0);
  const auto& state = solver.hostState();
  const auto& layout = solver.layout();
  for (int p = 0; p < solver.numPatches(); ++p)
    for (int n = 0; n < layout.interiorCells(); ++n)
      largest[p] = std::fmax(largest[p], state.at(p, Euler<2>::kDensity, layout.interiorCell(n)));
  return largest;
}

void expectFlagsOfTheStart(const PatchScheme& scheme) {
  // A reference step finds the patch whose largest density changes most, and the threshold
  // between its values before and after.
  auto reference = movingPulse(scheme);
  const double dt = reference.stableDt();
  const std::vector<double> before = largestDensity(reference);
  reference.advance(dt);
  const std::vector<double> after = largestDensity(reference);
  int changed = 0;
  for (int p = 1; p < reference.numPatches(); ++p)
    if (std::fabs(after[p] - before[p]) > std::fabs(after[changed] - before[changed]))
      changed = p;
  ASSERT_GT(std::fabs(after[changed] - before[changed]), 1e-3);
  const amr::IndicatorCriterion threshold{amr::Indicator::Threshold, Euler<2>::kDensity, false,
                                          0.5 * (before[changed] + after[changed]), 0.0};

  auto solver = movingPulse(scheme);
  const std::vector<amr::AdaptFlag> atStart = flagsOf(solver, threshold);
  solver.flagNextStep(threshold);
  solver.advance(dt);
  const std::optional<std::vector<amr::AdaptFlag>> ofStep = solver.takeStepFlags();
  ASSERT_TRUE(ofStep.has_value());
  EXPECT_EQ(*ofStep, atStart);
  EXPECT_NE(*ofStep, flagsOf(solver, threshold)) << "the test must tell start and end apart";
  EXPECT_FALSE(solver.takeStepFlags().has_value()) << "the flags are taken once";

  // The flagged step is the unflagged one.
  const auto& layout = solver.layout();
  for (int p = 0; p < solver.numPatches(); ++p)
    for (int v = 0; v < 4; ++v)
      for (int n = 0; n < layout.interiorCells(); ++n)
        ASSERT_EQ(solver.hostState().at(p, v, layout.interiorCell(n)),
                  reference.hostState().at(p, v, layout.interiorCell(n)))
            << "patch " << p << " variable " << v << " cell " << n;
}

TEST(StepFlags, AreTheCriterionsOnTheStateTheStepStartsFromFirstOrder) {
  expectFlagsOfTheStart(PatchScheme{});
}

TEST(StepFlags, AreTheCriterionsOnTheStateTheStepStartsFromSecondOrder) {
  expectFlagsOfTheStart(kSecondOrder);
}

TEST(StepFlags, NoneWithoutARequest) {
  auto solver = movingPulse(PatchScheme{});
  solver.advance(solver.stableDt());
  EXPECT_FALSE(solver.takeStepFlags().has_value());
}

} // namespace
} // namespace tessera
