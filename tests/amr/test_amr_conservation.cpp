// Conservation across levels: on a closed (periodic) domain covered by patches of three levels, a
// density pulse crosses coarse-fine faces for 1000 steps; with refluxing, total mass, momentum and
// energy stay constant to round-off (1e-12 relative). Without refluxing they drift. The same with
// the second-order schemes and SSP-RK2 and RK3 (each stage refluxes with its weight), and on an
// adaptive mesh that regrids every four steps.
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

#include "amr/forest.hpp"
#include "amr/forest_patches.hpp"
#include "drivers/amr_solver.hpp"
#include "solvers/initial_conditions.hpp"
#include "solvers/patch/patch_solver.hpp"

namespace tessera::amr {
namespace {

// Refines the leaves whose patch centre lies within 0.5 of the domain centre, then those within
// 0.3 (trees of unit size, the domain centred on the origin): levels 1, 2 and 3.
template <int Dim>
void refineCentre(Forest<Dim>& forest) {
  for (double radius : {0.5, 0.3}) {
    std::vector<AdaptFlag> flags;
    for (const auto& leaf : forest.leaves()) {
      double r2 = 0.0;
      for (int a = 0; a < Dim; ++a) {
        const double centre =
            (leaf.index[a] + 0.5) / (1 << leaf.level) - 0.5 * forest.treesPerAxis()[a];
        r2 += centre * centre;
      }
      flags.push_back(r2 < radius * radius ? AdaptFlag::Refine : AdaptFlag::Keep);
    }
    forest.adapt(flags, 0, 3);
  }
}

const PatchScheme kSecondOrderRk2{
    {ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hllc}, kSspRk2};
const PatchScheme kSecondOrderRk3{
    {ReconstructionKind::Plm, LimiterKind::MonotonizedCentral, RiemannSolverKind::Hlle}, kSspRk3};

template <int Dim>
EulerPulse<Dim> movingPulse() {
  EulerPulse<Dim> ic;
  ic.pulse.width = 0.3;
  ic.pulse.amplitude = 0.8;
  for (int a = 0; a < Dim; ++a)
    ic.velocity[a] = 1.0 - 0.3 * a;
  return ic;
}

template <int Dim>
typename Euler<Dim>::State relativeChange(const typename Euler<Dim>::State& before,
                                          const typename Euler<Dim>::State& after) {
  typename Euler<Dim>::State relative;
  for (int v = 0; v < Dim + 2; ++v)
    relative[v] = std::fabs(after[v] - before[v]) / std::fabs(before[v]);
  return relative;
}

template <int Dim>
typename Euler<Dim>::State drift(bool withReflux, int steps, const PatchScheme& scheme = {}) {
  Vec<int, Dim> trees = Vec<int, Dim>::filled(2);
  Forest<Dim> forest(MPI_COMM_WORLD, trees, Vec<bool, Dim>::filled(true), 1);
  refineCentre(forest);
  const PatchLayout<Dim> layout{8, scheme.spatial.halo(), Dim + 2};
  const auto boundary = DomainBoundary<Dim>::all(BoundaryKind::Periodic);
  const Vec<double, Dim> lower = Vec<double, Dim>::filled(-1.0),
                         upper = Vec<double, Dim>::filled(1.0);
  const EulerPulse<Dim> ic = movingPulse<Dim>();
  PatchSolver<Euler<Dim>> solver(ic.pde, layout, leafGeometry(forest, layout, lower, upper),
                                 forestHaloPlan(forest, layout, boundary), 0.8 / Dim,
                                 withReflux ? forestRefluxPlan(forest, boundary)
                                            : std::vector<RefluxOp<Dim>>{},
                                 MemorySpace::Host, {}, scheme);
  int levels[4] = {0, 0, 0, 0};
  for (const auto& leaf : forest.leaves())
    ++levels[leaf.level];
  EXPECT_GT(levels[1], 0);
  EXPECT_GT(levels[2], 0);
  EXPECT_GT(levels[3], 0);
  solver.initialise(ic);
  const auto before = solver.conservedTotals();
  for (int s = 0; s < steps; ++s)
    solver.advance(solver.stableDt());
  return relativeChange<Dim>(before, solver.conservedTotals());
}

// The pulse on a mesh that adapts to it every four steps (levels 0 to 2, refined where density
// changes by more than 5% across a cell).
typename Euler<2>::State adaptiveDrift(const PatchScheme& scheme, int steps) {
  const EulerPulse<2> ic = movingPulse<2>();
  AmrSolver<Euler<2>> amr(
      MPI_COMM_WORLD, ic.pde, PatchLayout<2>{8, scheme.spatial.halo(), 4}, {{4, 4}}, {{-1.0, -1.0}},
      {{1.0, 1.0}}, DomainBoundary<2>::all(BoundaryKind::Periodic), AmrSettings{0, 2, 4, true},
      amr::IndicatorCriterion{amr::Indicator::Gradient, 0, true, 0.05, 0.02, 0.0}, 0.4,
      MemorySpace::Host, scheme);
  amr.initialise([&](const auto&, const auto&) { return ic; });
  const auto before = amr.solver().conservedTotals();
  for (int s = 0; s < steps; ++s)
    amr.advance(amr.stableDt());
  EXPECT_GE(amr.finestLevel(), 1) << "the mesh must have refined";
  return relativeChange<2>(before, amr.solver().conservedTotals());
}

TEST(AmrConservation, RefluxingConservesEverythingAcrossLevels2D) {
  const auto relative = drift<2>(true, 1000);
  for (int v = 0; v < 4; ++v)
    EXPECT_LE(relative[v], 1e-12) << "variable " << v;
  // The same run without refluxing loses conservation: the test can tell.
  const auto without = drift<2>(false, 1000);
  EXPECT_GT(without[0], 1e-10);
}

TEST(AmrConservation, EveryStageRefluxesAtSecondOrder2D) {
  for (const PatchScheme& scheme : {kSecondOrderRk2, kSecondOrderRk3}) {
    const auto relative = drift<2>(true, 1000, scheme);
    for (int v = 0; v < 4; ++v)
      EXPECT_LE(relative[v], 1e-12) << scheme.integrator.name << ", variable " << v;
  }
}

TEST(AmrConservation, AdaptiveRunsConserveAtSecondOrder2D) {
  for (const PatchScheme& scheme : {kSecondOrderRk2, kSecondOrderRk3}) {
    const auto relative = adaptiveDrift(scheme, 1000);
    for (int v = 0; v < 4; ++v)
      EXPECT_LE(relative[v], 1e-12) << scheme.integrator.name << ", variable " << v;
  }
}

TEST(AmrConservation, RefluxingConservesEverythingAcrossLevels3D) {
  const auto relative = drift<3>(true, 200);
  for (int v = 0; v < 5; ++v)
    EXPECT_LE(relative[v], 1e-12) << "variable " << v;
}

} // namespace
} // namespace tessera::amr
