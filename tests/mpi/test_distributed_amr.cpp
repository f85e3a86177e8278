// The adaptive patch solver on several ranks against one rank, run by ctest on 1, 2 and 4 ranks
// (label mpi), on the host and (where there is one) on the device: a Sedov blast in 2D and 3D,
// adapted every 4 steps (Loehner on pressure, buffer on, so that flags cross the ranks), 100
// steps in 2D and 48 in 3D (12 adapts; the 3D runs cost most of the suite), at first order and with
// the default second-order scheme (PLM, van Leer, HLLC, SSP-RK2: two stages, each with its ghost
// exchange and refluxing). Each rank also runs the same case alone (MPI_COMM_SELF) as the
// reference.
// - The distributed mesh is the one-rank mesh: every patch of every rank is a patch of the
//   reference, and the ranks' patch counts add up to the reference's.
// - Every owned cell equals the reference's cell to 1e-13 relative to the variable's largest
//   magnitude: a patch sees the same halo values (its ghosts' interiors are exact copies), the
//   same fluxes and corrections, and the same dt (a minimum).
// - Mass and energy summed over the ranks stay at their initial totals to 1e-13 relative: the
//   box's walls reflect, and refluxing across ranks keeps coarse-fine faces conservative.
// - After every adapt the largest rank holds at most 5% more patches than the mean.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <memory>
#include <mpi.h>
#include <span>
#include <vector>

#include "drivers/amr_solver.hpp"
#include "engine/memory.hpp"
#include "patches/placement_index.hpp"
#include "solvers/initial_conditions.hpp"

namespace tessera {
namespace {

template <int Dim>
constexpr int kSteps = Dim == 2 ? 100 : 48;
constexpr int kRegridInterval = 4;

// Patches of 8^Dim cells, the smallest the device update takes.
const PatchScheme kSecondOrder{
    {ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hllc}, kSspRk2};

template <int Dim>
std::unique_ptr<AmrSolver<Euler<Dim>>> sedovBlast(MPI_Comm comm, MemorySpace space,
                                                  const PatchScheme& scheme) {
  const int level0 = Dim == 2 ? 16 : 4;
  const int maxLevel = Dim == 2 ? 3 : 2;
  AmrSettings settings;
  settings.maxLevel = maxLevel;
  settings.regridInterval = kRegridInterval;
  settings.buffer = true;
  amr::IndicatorCriterion criterion;
  criterion.indicator = amr::Indicator::Loehner;
  criterion.primitive = true;
  criterion.variable = Euler<Dim>::kEnergy; // pressure among the primitive variables
  criterion.refine = 0.8;
  criterion.coarsen = 0.3;
  SedovBlast<Dim> ic;
  // Off the centre, so that the ranks' boundaries cut the refined region unevenly and coarse
  // patches meet finer ones of other ranks.
  ic.centre = Vec<double, Dim>::filled(0.13);
  ic.radius = 3.5 / (level0 * 8 * (1 << maxLevel));
  auto amr = std::make_unique<AmrSolver<Euler<Dim>>>(
      comm, ic.pde, PatchLayout<Dim>{8, scheme.spatial.halo(), Dim + 2},
      Vec<int, Dim>::filled(level0), Vec<double, Dim>::filled(-0.5), Vec<double, Dim>::filled(0.5),
      DomainBoundary<Dim>::all(BoundaryKind::Reflecting), settings, criterion, 0.8 / Dim, space,
      scheme);
  amr->initialise([&](const PatchLayout<Dim>& layout, std::span<const PatchGeometry<Dim>> g) {
    ic.placeOn(layout, g, comm);
    return ic;
  });
  return amr;
}

long long sumOverRanks(long long value) {
  long long sum = 0;
  MPI_Allreduce(&value, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}
long long maxOverRanks(long long value) {
  long long largest = 0;
  MPI_Allreduce(&value, &largest, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return largest;
}
double maxOverRanks(double value) {
  double largest = 0.0;
  MPI_Allreduce(&value, &largest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return largest;
}

// The largest rank's patch count over the mean, less one.
double patchImbalance(long long patches) {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const double mean = double(sumOverRanks(patches)) / ranks;
  return double(maxOverRanks(patches)) / mean - 1.0;
}

template <int Dim>
void expectEqualsOneRank(MemorySpace space, const PatchScheme& scheme = {}) {
  using Solver = AmrSolver<Euler<Dim>>;
  constexpr int kVars = Dim + 2;
  const auto one = sedovBlast<Dim>(MPI_COMM_SELF, space, scheme);
  const auto many = sedovBlast<Dim>(MPI_COMM_WORLD, space, scheme);
  const auto before = many->solver().conservedTotals();
  double worstImbalance = patchImbalance(many->solver().numPatches());
  int adapts = 0;
  for (int s = 0; s < kSteps<Dim>; ++s) {
    one->advance(one->stableDt());
    many->advance(many->stableDt());
    if ((s + 1) % kRegridInterval == 0) {
      worstImbalance = std::max(worstImbalance, patchImbalance(many->solver().numPatches()));
      ++adapts;
    }
  }
  const auto after = many->solver().conservedTotals();
  const Solver& reference = *one;
  EXPECT_GE(reference.finestLevel(), 2) << "the blast did not refine";
  EXPECT_NEAR(many->time(), reference.time(), 1e-13 * reference.time());

  ASSERT_EQ(sumOverRanks(many->solver().numPatches()), reference.solver().numPatches())
      << "the ranks' patches are not the one-rank mesh";
  EXPECT_EQ(many->globalPatches(), reference.solver().numPatches());
  const auto placements = amr::leafPlacements(reference.forest());
  const PlacementIndex<Dim> index(placements);
  const auto& layout = reference.solver().layout();
  const PatchStore<Dim>& expected = reference.solver().hostState();
  const PatchStore<Dim>& actual = many->solver().hostState();
  double scale[kVars] = {};
  for (int p = 0; p < reference.solver().numPatches(); ++p)
    for (int n = 0; n < layout.interiorCells(); ++n)
      for (int v = 0; v < kVars; ++v)
        scale[v] = std::max(scale[v], std::fabs(expected.at(p, v, layout.interiorCell(n))));
  double difference[kVars] = {};
  const auto& leaves = many->forest().leaves();
  for (int p = 0; p < many->solver().numPatches(); ++p) {
    const int q = index.at(leaves[p].level, leaves[p].index);
    ASSERT_GE(q, 0) << "patch " << p << " is not on the one-rank mesh";
    for (int n = 0; n < layout.interiorCells(); ++n)
      for (int v = 0; v < kVars; ++v) {
        const CellIndex<Dim> c = layout.interiorCell(n);
        difference[v] = std::max(difference[v],
                                 std::fabs(actual.at(p, v, c) - expected.at(q, v, c)) / scale[v]);
      }
  }
  for (int v = 0; v < kVars; ++v)
    EXPECT_LE(maxOverRanks(difference[v]), 1e-13) << "variable " << v;
  for (int v : {0, kVars - 1})
    EXPECT_LE(std::fabs(after[v] - before[v]), 1e-13 * std::fabs(before[v])) << "variable " << v;
  EXPECT_EQ(adapts, kSteps<Dim> / kRegridInterval);
  EXPECT_LE(worstImbalance, 0.05) << "over " << many->globalPatches() << " patches";
}

class DistributedAmr : public ::testing::TestWithParam<MemorySpace> {
protected:
  void SetUp() override {
    if (GetParam() == MemorySpace::Device && !deviceAvailable())
      GTEST_SKIP() << "no device";
  }
};

TEST_P(DistributedAmr, Sedov2dEqualsTheOneRankRunAndConserves) {
  expectEqualsOneRank<2>(GetParam());
}

TEST_P(DistributedAmr, Sedov3dEqualsTheOneRankRunAndConserves) {
  expectEqualsOneRank<3>(GetParam());
}

TEST_P(DistributedAmr, SecondOrderSedov2dEqualsTheOneRankRunAndConserves) {
  expectEqualsOneRank<2>(GetParam(), kSecondOrder);
}

TEST_P(DistributedAmr, SecondOrderSedov3dEqualsTheOneRankRunAndConserves) {
  expectEqualsOneRank<3>(GetParam(), kSecondOrder);
}

std::string spaceName(const ::testing::TestParamInfo<MemorySpace>& param) {
  return param.param == MemorySpace::Host ? "Host" : "Device";
}

INSTANTIATE_TEST_SUITE_P(Spaces, DistributedAmr,
                         ::testing::Values(MemorySpace::Host, MemorySpace::Device), spaceName);

} // namespace
} // namespace tessera
