// The distributed implicit solver against one rank, run by ctest on 1, 2 and 4 ranks (label mpi),
// on the host and (where there is one) on the device, fp64 and mixed precision, with Rusanov's and
// Roe's Jacobians (each with the first-order residual of its flux): the subsonic channel over a
// bump (tests/support/bump_channel.hpp, 24 x 8 x 2 hexahedra) from the freestream, 12 pseudo-time
// steps. Each rank also runs the solver alone (MPI_COMM_SELF) as the reference: the same global
// coloring, so the same sweeps up to the order in which sums add. The early pseudo-time steps
// amplify round-off strongly: on one rank, multiplying the initial density by 1 + 2^-52 over half
// the channel changes the state after 12 steps by 9e-10 (fp64, relative to the variable's largest
// magnitude). That one-rank spread is the yardstick:
// - every measured relative residual of the distributed run equals the reference's within 100
//   times the spread of the nudged one-rank run's residuals, and the residual falls by more
//   than 4 orders;
// - every owned cell's state equals the reference's within 100 times the nudged run's spread.
// Measured (host, Rusanov's Jacobian): fp64 residuals 3.3e-12 (2 ranks) and 6.2e-12 (4 ranks)
// against a spread of 3.8e-12, states 7.8e-10 and 8.6e-10 against 9.0e-10; mixed residuals 7.3e-8
// and 9.7e-8 against 1.2e-8, states 7.2e-7 and 1.9e-6 against 2.6e-6. Without the per-color
// exchange the halo rows keep zero updates: residuals differ by 84 and 206, states by 30 and 12.
// Newton-Krylov (ImplicitSettings::linearSolver = Gmres) runs the same comparison with the
// default second-order scheme, over 7 steps: its products perturb the owned states, whose halo
// copies the exchange brings before each residual, and its dot products sum over the ranks.
// Its differencing divides round-off by eps ~ 1e-8, so its one-rank spread is wider. Measured
// (host, fp64, Rusanov's Jacobian): residuals 6.7e-6 (2 ranks) and 1.1e-5 (4 ranks) against a
// spread of 1.8e-5, states 8.3e-5 and 6.3e-5 against 7.0e-5; without the exchange of the perturbed
// states, 2 ranks' residuals differ by 2.6e3 (measured with 10 Krylov vectors).
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <mpi.h>
#include <tuple>
#include <vector>

#include "engine/linalg/precision.hpp"
#include "solvers/unstructured/distributed_unstructured_implicit.hpp"
#include "tests/support/bump_channel.hpp"

namespace tessera {
namespace {

// Newton-Krylov takes fewer: with Roe's Jacobian its residual reaches round-off (1e-14) by step
// 11, where differences of round-off measure nothing; at step 7 it is 5e-9 (6e-5 with Rusanov's).
constexpr int kSteps = 12, kNewtonKrylovSteps = 7;

double maxOverRanks(double value) {
  double largest = 0.0;
  MPI_Allreduce(&value, &largest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return largest;
}

struct ImplicitRun {
  std::vector<double> relativeResiduals;
  std::vector<double> state;   // owned cells, local order
  std::vector<int> globalCell; // of each owned cell
};

// perturbation: the initial density is multiplied by 1 + perturbation where x > 0.5.
template <class Precision>
ImplicitRun solve(MPI_Comm comm, const unstructured::Mesh& mesh, MemorySpace space,
                  JacobianFlux jacobian, LinearSolver linear, double perturbation = 0.0) {
  const Euler<3> pde;
  ImplicitSettings settings;
  settings.maxIterations = linear == LinearSolver::Gmres ? kNewtonKrylovSteps : kSteps;
  settings.residualDrop = 0.0; // all of them
  settings.jacobian = jacobian;
  settings.linearSolver = linear;
  // The sweeps: each Jacobian beside the first-order residual it linearises. Newton-Krylov: the
  // default second-order scheme, its Jacobian the preconditioner's.
  UnstructuredScheme scheme = UnstructuredScheme::firstOrderRusanov();
  if (jacobian == JacobianFlux::Roe)
    scheme.flux = UnstructuredFlux::Roe;
  if (linear == LinearSolver::Gmres)
    scheme = UnstructuredScheme{};
  DistributedUnstructuredImplicit<Precision> solver(comm, pde, mesh, test::bumpChannelBoundary(pde),
                                                    settings, space, scheme);
  solver.initialise([&](const Vec<double, 3>& x) {
    Euler<3>::State q = test::bumpFreestream(pde);
    if (x[0] > 0.5)
      q[0] *= 1.0 + perturbation;
    return q;
  });
  ImplicitRun run;
  solver.solve(
      [&](const PseudoTimeStep& s) { run.relativeResiduals.push_back(s.relativeResidual); });
  run.state = solver.ownedState();
  const auto& local = solver.localMesh();
  run.globalCell.assign(local.globalCell.begin(), local.globalCell.begin() + local.numOwned);
  return run;
}

using Case = std::tuple<MemorySpace, bool /* mixed */, JacobianFlux, LinearSolver>;

class DistributedImplicit : public ::testing::TestWithParam<Case> {
protected:
  void SetUp() override {
    if (std::get<0>(GetParam()) == MemorySpace::Device && !deviceAvailable())
      GTEST_SKIP() << "no device";
  }

  template <class Precision>
  void expectEqualsOneRank() {
    const MemorySpace space = std::get<0>(GetParam());
    const JacobianFlux jacobian = std::get<2>(GetParam());
    const LinearSolver linear = std::get<3>(GetParam());
    test::BumpChannel channel;
    channel.nz = 2;
    const unstructured::Mesh mesh = test::bumpChannelMesh(channel);
    const ImplicitRun one = solve<Precision>(MPI_COMM_SELF, mesh, space, jacobian, linear);
    const ImplicitRun nudged =
        solve<Precision>(MPI_COMM_SELF, mesh, space, jacobian, linear, 0x1p-52);
    const ImplicitRun many = solve<Precision>(MPI_COMM_WORLD, mesh, space, jacobian, linear);
    EXPECT_LT(one.relativeResiduals.back(), 1e-4);

    const double residualSpread = residualDifference(nudged, one);
    const double stateSpread = stateDifference(nudged, one);
    ASSERT_GT(stateSpread, 0.0) << "the nudge changed nothing";
    EXPECT_LE(maxOverRanks(residualDifference(many, one)), 100.0 * residualSpread);
    EXPECT_LE(maxOverRanks(stateDifference(many, one)), 100.0 * stateSpread);
  }

  // The largest relative difference of two runs' measured residuals, step by step.
  static double residualDifference(const ImplicitRun& a, const ImplicitRun& b) {
    if (a.relativeResiduals.size() != b.relativeResiduals.size())
      return INFINITY;
    double largest = 0.0;
    for (std::size_t i = 0; i < a.relativeResiduals.size(); ++i)
      largest = std::max(largest, std::fabs(a.relativeResiduals[i] / b.relativeResiduals[i] - 1.0));
    return largest;
  }

  // The largest difference of a's owned cells from the same cells of b, a one-rank run, relative
  // to the variable's largest magnitude in b.
  static double stateDifference(const ImplicitRun& a, const ImplicitRun& b) {
    std::vector<double> byGlobalCell(b.state.size());
    for (std::size_t c = 0; c < b.globalCell.size(); ++c)
      for (std::size_t v = 0; v < 5; ++v)
        byGlobalCell[5 * std::size_t(b.globalCell[c]) + v] = b.state[5 * c + v];
    double scale[5] = {};
    for (std::size_t i = 0; i < byGlobalCell.size(); ++i)
      scale[i % 5] = std::max(scale[i % 5], std::fabs(byGlobalCell[i]));
    double largest = 0.0;
    for (std::size_t c = 0; c < a.globalCell.size(); ++c)
      for (std::size_t v = 0; v < 5; ++v)
        largest = std::max(largest, std::fabs(a.state[5 * c + v] -
                                              byGlobalCell[5 * std::size_t(a.globalCell[c]) + v]) /
                                        scale[v]);
    return largest;
  }
};

TEST_P(DistributedImplicit, BumpChannelStepsEqualTheOneRankSteps) {
  if (std::get<1>(GetParam()))
    expectEqualsOneRank<linalg::MixedPrecision>();
  else
    expectEqualsOneRank<linalg::DoublePrecision>();
}

std::string caseName(const ::testing::TestParamInfo<Case>& param) {
  return std::string(std::get<0>(param.param) == MemorySpace::Host ? "Host" : "Device") +
         (std::get<1>(param.param) ? "Mixed" : "Fp64") +
         (std::get<2>(param.param) == JacobianFlux::Roe ? "RoeJacobian" : "RusanovJacobian") +
         (std::get<3>(param.param) == LinearSolver::Gmres ? "NewtonKrylov" : "");
}

INSTANTIATE_TEST_SUITE_P(
    SpacesAndPrecisions, DistributedImplicit,
    ::testing::Combine(::testing::Values(MemorySpace::Host, MemorySpace::Device), ::testing::Bool(),
                       ::testing::Values(JacobianFlux::Rusanov, JacobianFlux::Roe),
                       ::testing::Values(LinearSolver::Sweeps, LinearSolver::Gmres)),
    caseName);

} // namespace
} // namespace tessera
