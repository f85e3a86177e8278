// The implicit unstructured Euler solver on the device against its host twin: on the bump channel
// in all four cell shapes, 8 pseudo-time steps from the freestream with every scatter strategy for
// the diagonal blocks (K = 25), with Rusanov's and Roe's Jacobians, in both precisions; every
// step's residual norm and the final state
// agree with the host's. They differ in the order of the additions into each diagonal block
// (atomics) and in contractions of the device compiler, not in the algorithm: bounds 1e-10
// relative for fp64, and 1e-5 for mixed precision, where a round-off difference in a double
// entry can move its fp32 copy by one ulp (6e-8) and the sweeps carry that into dQ. Not measured
// yet (no device at hand when written); skipped where no device is visible.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "engine/atomics/strategy.hpp"
#include "engine/linalg/precision.hpp"
#include "engine/memory.hpp"
#include "solvers/unstructured/unstructured_implicit.hpp"
#include "tests/support/bump_channel.hpp"

namespace tessera {
namespace {

constexpr int kSteps = 8;

struct Run {
  std::vector<double> residuals, state;
};

// kSteps steps of an implicit solver: the residual measured before each, the state after.
template <class Implicit>
Run stepped(Implicit& implicit, const UnstructuredEuler& solver) {
  Run r;
  for (int n = 0; n < kSteps; ++n)
    r.residuals.push_back(implicit.iterate().residual);
  r.state = solver.hostState();
  return r;
}

template <class Precision>
Run run(const ColorContiguousMesh& colored, MemorySpace space, atomics::Strategy strategy,
        JacobianFlux jacobian) {
  const Euler<3> pde;
  UnstructuredEuler solver(pde, colored.mesh, test::bumpChannelBoundary(pde), 0.9, space);
  solver.initialise([&](const Vec<double, 3>&) { return test::bumpFreestream(pde); });
  ImplicitSettings settings;
  settings.jacobianStrategy = strategy;
  settings.jacobian = jacobian;
  UnstructuredImplicit<Precision> implicit(solver, colored.pattern, settings);
  return stepped(implicit, solver);
}

double relativeDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double scale = 0.0, difference = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    scale = std::max(scale, std::fabs(b[i]));
    difference = std::max(difference, std::fabs(a[i] - b[i]));
  }
  return difference / scale;
}

template <class Precision>
void expectDeviceMatchesHost(double bound) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  const ColorContiguousMesh colored = colorContiguousMesh(
      test::bumpChannelMesh({.nx = 12, .ny = 4, .nz = 4, .cells = unstructured::BoxCells::Mixed}));
  for (JacobianFlux jacobian : {JacobianFlux::Rusanov, JacobianFlux::Roe}) {
    const char* flux = kJacobianFluxNames[int(jacobian)];
    SCOPED_TRACE(flux);
    const Run host =
        run<Precision>(colored, MemorySpace::Host, atomics::Strategy::GlobalAtomic, jacobian);
    for (atomics::Strategy s : atomics::kAllStrategies) {
      SCOPED_TRACE(atomics::strategyName(s));
      const Run device = run<Precision>(colored, MemorySpace::Device, s, jacobian);
      for (int n = 0; n < kSteps; ++n)
        EXPECT_NEAR(device.residuals[std::size_t(n)], host.residuals[std::size_t(n)],
                    bound * host.residuals[0])
            << "step " << n;
      const double state = relativeDifference(device.state, host.state);
      EXPECT_LE(state, bound);
      std::printf("%s %s, %s's Jacobian: state after %d steps %.2g relative to the host\n",
                  Precision::kName.data(), std::string(atomics::strategyName(s)).c_str(), flux,
                  kSteps, state);
    }
  }
}

TEST(UnstructuredImplicitDevice, Fp64StepsMatchTheHostWithEveryStrategy) {
  expectDeviceMatchesHost<linalg::DoublePrecision>(1e-10);
}

TEST(UnstructuredImplicitDevice, MixedStepsMatchTheHostWithEveryStrategy) {
  expectDeviceMatchesHost<linalg::MixedPrecision>(1e-5);
}

// Newton-Krylov on the device against the host, on the bump channel in tetrahedra with the
// default second-order scheme, 8 steps from the freestream. Its products divide the residual's
// round-off by a differencing step eps ~ 1e-8, so device and host, which sum in other orders,
// part further than the sweeps do; the yardstick is the host's own spread: the host run again
// with the initial density nudged by 1 + 2^-52 over half the channel. Every residual and the final
// state of the device are within 100 times that spread of the host's.
template <class Precision>
Run runNewtonKrylov(const ColorContiguousMesh& colored, MemorySpace space, double nudge) {
  const Euler<3> pde;
  UnstructuredEuler solver(pde, colored.mesh, test::bumpChannelBoundary(pde), 0.9, space,
                           UnstructuredScheme{});
  solver.initialise([&](const Vec<double, 3>& x) {
    Euler<3>::State q = test::bumpFreestream(pde);
    if (x[0] > 0.5)
      q[0] *= 1.0 + nudge;
    return q;
  });
  ImplicitSettings settings;
  settings.linearSolver = LinearSolver::Gmres;
  UnstructuredImplicit<Precision> implicit(solver, colored.pattern, settings);
  return stepped(implicit, solver);
}

double largestResidualDifference(const Run& a, const Run& b) {
  double d = 0.0;
  for (std::size_t n = 0; n < b.residuals.size(); ++n)
    d = std::max(d, std::fabs(a.residuals[n] / b.residuals[n] - 1.0));
  return d;
}

template <class Precision>
void expectNewtonKrylovMatchesHost() {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  const ColorContiguousMesh colored = colorContiguousMesh(test::bumpChannelMesh(
      {.nx = 12, .ny = 4, .nz = 2, .cells = unstructured::BoxCells::Tetrahedra}));
  const Run host = runNewtonKrylov<Precision>(colored, MemorySpace::Host, 0.0);
  const Run nudged = runNewtonKrylov<Precision>(colored, MemorySpace::Host, 0x1p-52);
  const Run device = runNewtonKrylov<Precision>(colored, MemorySpace::Device, 0.0);
  const double residualSpread = largestResidualDifference(nudged, host);
  const double stateSpread = relativeDifference(nudged.state, host.state);
  ASSERT_GT(stateSpread, 0.0) << "the nudge changed nothing";
  const double residuals = largestResidualDifference(device, host);
  const double state = relativeDifference(device.state, host.state);
  std::printf("%s Newton-Krylov, %d steps: residuals %.2g (spread %.2g), state %.2g (spread "
              "%.2g) relative to the host; residual %.3g of the first\n",
              Precision::kName.data(), kSteps, residuals, residualSpread, state, stateSpread,
              host.residuals.back() / host.residuals.front());
  EXPECT_LE(residuals, 100.0 * residualSpread);
  EXPECT_LE(state, 100.0 * stateSpread);
}

TEST(UnstructuredImplicitDevice, Fp64NewtonKrylovMatchesTheHost) {
  expectNewtonKrylovMatchesHost<linalg::DoublePrecision>();
}

TEST(UnstructuredImplicitDevice, MixedNewtonKrylovMatchesTheHost) {
  expectNewtonKrylovMatchesHost<linalg::MixedPrecision>();
}

// Newton-Krylov's product without the matrix and its density flux scale
// (solvers/unstructured/matrix_free_product.hpp) on the device against their host twins on random
// vectors: equal to 1e-12 relative.
TEST(UnstructuredImplicitDevice, MatrixFreeProductMatchesTheHost) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  constexpr int kCells = 5000;
  std::uint64_t seed = 7;
  const auto random = [&seed] { // in [0, 1)
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return double(seed >> 11) * 0x1.0p-53;
  };
  std::vector<double> volume(kCells), step(kCells), v(5 * kCells), perturbed(5 * kCells),
      residual(5 * kCells), w(5 * kCells);
  for (int c = 0; c < kCells; ++c) {
    volume[std::size_t(c)] = 0.1 + random();
    step[std::size_t(c)] = 1e-3 + random();
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = random() - 0.5;
    residual[i] = random() - 0.5;
    perturbed[i] = residual[i] + 1e-7 * (random() - 0.5);
  }
  constexpr double kCfl = 37.0, kEps = 3e-8;
  const MatrixFreeProduct host{volume.data(),    step.data(),     kCfl, v.data(),
                               perturbed.data(), residual.data(), kEps, w.data()};
  for (int c = 0; c < kCells; ++c)
    host(c);
  const DeviceArray<double> dVolume = toDevice(volume), dStep = toDevice(step), dV = toDevice(v),
                            dPerturbed = toDevice(perturbed), dResidual = toDevice(residual);
  DeviceArray<double> dW(w.size(), MemorySpace::Device);
  matrixFreeProductDevice(kCells,
                          MatrixFreeProduct{dVolume.data(), dStep.data(), kCfl, dV.data(),
                                            dPerturbed.data(), dResidual.data(), kEps, dW.data()});
  EXPECT_LE(relativeDifference(toHost(dW), w), 1e-12);

  // The density flux scale of the round-off floor, on the same cells (v's values as states).
  std::vector<double> squares(kCells);
  for (int c = 0; c < kCells; ++c)
    DensityFluxScaleSquares{v.data(), volume.data(), step.data(), squares.data()}(c);
  DeviceArray<double> dSquares(squares.size(), MemorySpace::Device);
  densityFluxScaleSquaresDevice(
      kCells, DensityFluxScaleSquares{dV.data(), dVolume.data(), dStep.data(), dSquares.data()});
  EXPECT_LE(relativeDifference(toHost(dSquares), squares), 1e-12);
}

// The under-relaxed update (solvers/unstructured/relaxed_update.hpp) on the device against its
// host twin, on states whose updates span every factor from 1 to 0: each cell's dq is its state
// times a factor of either sign from 0.01 to 1000 with a random tilt per variable. Same factors
// exactly (they are powers of two chosen by comparisons), states to 1e-12 relative.
template <class T>
void expectRelaxedUpdateMatchesHost() {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  const Euler<3> pde;
  constexpr int kCells = 4096;
  std::vector<double> q, alphaHost(kCells), alphaDevice(kCells);
  std::vector<T> dq;
  std::uint64_t state = 99;
  const auto random = [&state] { // in [0, 1)
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return double(state >> 11) * 0x1.0p-53;
  };
  for (int c = 0; c < kCells; ++c) {
    const Euler<3>::State s = pde.toConserved(
        {{0.5 + random(), random() - 0.5, random() - 0.5, random() - 0.5, 0.2 + random()}});
    const double scale = (c % 2 == 0 ? 1.0 : -1.0) * std::pow(10.0, -2.0 + 5.0 * c / kCells);
    for (int v = 0; v < 5; ++v) {
      q.push_back(s[v]);
      dq.push_back(T(scale * (0.75 + 0.5 * random()) * s[v]));
    }
  }
  std::vector<double> qHost = q;
  const RelaxedCellUpdate<T> host{pde, dq.data(), qHost.data(), alphaHost.data(), kCells};
  for (int c = 0; c < kCells; ++c)
    host(c);
  DeviceArray<double> qDevice = toDevice(q), alpha(std::size_t(kCells), MemorySpace::Device);
  const DeviceArray<T> dqDevice = toDevice(dq);
  relaxedUpdateDevice(
      kCells, RelaxedCellUpdate<T>{pde, dqDevice.data(), qDevice.data(), alpha.data(), kCells});
  alpha.copyToHost(alphaDevice);
  EXPECT_EQ(alphaDevice, alphaHost);
  EXPECT_LE(relativeDifference(toHost(qDevice), qHost), 1e-12);
  int cut = 0, dropped = 0;
  for (double a : alphaHost) {
    cut += a > 0.0 && a < 1.0;
    dropped += a == 0.0;
  }
  EXPECT_GT(cut, 100);
  EXPECT_GT(dropped, 10);
  std::printf("%d of %d updates cut, %d dropped\n", cut, kCells, dropped);
}

TEST(UnstructuredImplicitDevice, RelaxedUpdateMatchesTheHostFp64) {
  expectRelaxedUpdateMatchesHost<double>();
}

TEST(UnstructuredImplicitDevice, RelaxedUpdateMatchesTheHostMixed) {
  expectRelaxedUpdateMatchesHost<float>();
}

} // namespace
} // namespace tessera
