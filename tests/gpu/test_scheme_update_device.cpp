// The device fused update of every spatial scheme (donor cell and PLM with each limiter, times
// Rusanov, HLLE and HLLC) and Runge-Kutta stage form against its host twin, on 2D and 3D patch
// grids of N = 8, 16 and 32 with reflecting and periodic boundaries: every interior cell of the
// new state and its rows' x halo cells (copies of the rows' ends), every flux-register entry, every
// patch's eigenvalue (outputs poisoned with NaN before the run) agree to 1e-12 of each variable's
// largest magnitude, and both count the same cells that fell back to first order. The data hold a
// pressure jump of seven orders, so that unlimited PLM takes the fallback. The stage forms: a
// forward-Euler step, a stage that keeps 3/4 of another state, and one written over that state in
// place (the last stage of SSP-RK3). The device reads same-level faces through face links, as the
// solver runs it, with those faces' halo cells, and the edges and corners, NaN. The unfused
// second-order pipeline, the benchmarks' baseline, agrees with the host twin too. Skipped where no
// device is visible.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "patches/face_links.hpp"
#include "patches/flux_register.hpp"
#include "physics/advection/advection.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/patch/fused_update_device.hpp"
#include "solvers/patch/fused_update_host.hpp"
#include "solvers/patch/scheme_unfused_device.hpp"
#include "tests/support/filled_grid.hpp"
#include "tests/support/scale_agreement.hpp"

namespace tessera {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// agreeToScale asks a NaN on one side to be NaN on the other: an eigenvalue of a state the stage
// made unphysical (the data's near vacuum does that to forward-Euler stages).
using test::agreeToScale;
using test::largestMagnitude;
using test::variableScales;

// Euler data with a smooth part, a density jump and a pressure jump of seven orders along a
// diagonal; `shift` moves the smooth part (a second state for q0).
template <int Dim>
auto eulerData(double shift) {
  return [shift](const Vec<double, Dim>& x) {
    Euler<Dim> pde;
    typename Euler<Dim>::State w;
    const double s = x[0] + 0.7 * x[1] + (Dim == 3 ? 0.4 * x[Dim - 1] : 0.0);
    w[0] = (s < 0.9 ? 1.0 : 0.3) + 0.2 * std::sin(6.0 * x[1] + shift);
    for (int a = 0; a < Dim; ++a)
      w[1 + a] = 0.8 - 0.4 * a + 0.1 * std::cos(5.0 * x[0] + shift);
    w[Dim + 1] = s < 0.6 ? 1.0 : 1e-7;
    return pde.toConserved(w);
  };
}

template <int Dim>
auto scalarData(double shift) {
  return [shift](const Vec<double, Dim>& x) {
    return Vec<double, 1>{{(x[0] < 0.5 ? 1.0 : 0.2) + 0.3 * std::sin(7.0 * x[1] + shift)}};
  };
}

template <int Dim>
test::FilledGrid<Dim> filledGrid(const auto& pde, const auto& data, int n) {
  DomainBoundary<Dim> boundary = DomainBoundary<Dim>::all(BoundaryKind::Reflecting);
  boundary.kind[1] = {BoundaryKind::Periodic, BoundaryKind::Periodic};
  Vec<int, Dim> patches;
  if constexpr (Dim == 2)
    patches = {{5, 3}};
  else
    patches = {{3, 2, 2}};
  using PDE = std::remove_cvref_t<decltype(pde)>;
  return test::FilledGrid<Dim>(pde, data, PatchLayout<Dim>{n, 2, PDE::kNumVars}, patches,
                               Vec<double, Dim>::filled(1.0), boundary);
}

enum class StageForm { ForwardEuler, KeepOther, InPlace };

template <class PDE>
void expectSchemeMatchesHost(const PDE& pde, const test::FilledGrid<PDE::kDim>& filled,
                             const test::FilledGrid<PDE::kDim>& other, const SpatialScheme& scheme,
                             StageForm form, long long& hostFallbacks) {
  constexpr int kDim = PDE::kDim;
  const auto& layout = filled.grid.layout();
  const int n = layout.cellsPerAxis, numPatches = filled.grid.numPatches();
  const std::size_t size = filled.q.array().size();
  const std::size_t registerSize =
      numPatches * FluxRegisterLayout<kDim>{n, PDE::kNumVars}.patchStride();
  const double dt = 0.15 * filled.geometry[0].dx[0];
  const RungeKuttaStage weights = form == StageForm::ForwardEuler ? kForwardEuler.stage[0]
                                  : form == StageForm::KeepOther  ? kSspRk3.stage[1]
                                                                  : kSspRk3.stage[2];
  SCOPED_TRACE(describe(scheme) + ", N = " + std::to_string(n) + ", stage form " +
               std::to_string(int(form)));

  // Host: q0 is the other state; in place, the output starts as it.
  std::vector<double> hostQ0(other.q.data(), other.q.data() + size);
  std::vector<double> hostOut = form == StageForm::InPlace ? hostQ0 : std::vector<double>(size, 0);
  std::vector<double> hostLambda(numPatches), hostRegister(registerSize);
  long long fallbacks = 0;
  const StageWeights hostStage =
      StageWeights::of(weights, dt, form == StageForm::InPlace ? hostOut.data() : hostQ0.data());
  fusedUpdateHost(pde, scheme, layout, std::span<const PatchGeometry<kDim>>(filled.geometry),
                  filled.q.data(), hostOut.data(), hostStage, hostLambda.data(),
                  hostRegister.data(), {}, &fallbacks);
  hostFallbacks += fallbacks;

  const auto [links, poisoned] = test::linkedWithPoisonedFaces(filled);
  ASSERT_GT(std::count_if(links.begin(), links.end(), [](int l) { return l >= 0; }), 0);
  const auto dq = toDevice(poisoned);
  const auto dLinks = toDevice(links);
  auto dQ0 = toDevice(hostQ0);
  auto dOut =
      form == StageForm::InPlace ? toDevice(hostQ0) : toDevice(std::vector<double>(size, kNaN));
  auto dLambda = toDevice(std::vector<double>(numPatches, kNaN));
  auto dRegister = toDevice(std::vector<double>(registerSize, kNaN));
  auto dFallbacks = toDevice(std::vector<unsigned long long>{0});
  const auto dGeometry = toDevice(filled.geometry);
  const double* q0 = form == StageForm::InPlace ? dOut.data() : dQ0.data();
  fusedUpdateDevice(pde, scheme, layout, dGeometry.data(), numPatches, dq.data(), dOut.data(),
                    StageWeights::of(weights, dt, q0), dLambda.data(), dRegister.data(), nullptr,
                    dFallbacks.data(), dLinks.data());
  const auto deviceOut = toHost(dOut), deviceLambda = toHost(dLambda),
             deviceRegister = toHost(dRegister);

  const auto scale = variableScales(hostOut, layout, numPatches);
  for (int p = 0; p < numPatches; ++p)
    for (int v = 0; v < PDE::kNumVars; ++v)
      for (int c = 0; c < layout.interiorCells(); ++c) {
        const CellIndex<kDim> cell = layout.interiorCell(c);
        const std::size_t i = layout.index(p, v, cell);
        ASSERT_TRUE(agreeToScale(deviceOut[i], hostOut[i], scale[std::size_t(v)]))
            << "state, patch " << p << " var " << v << " cell " << c << ": device " << deviceOut[i]
            << ", host " << hostOut[i];
        if (cell[0] != 0 && cell[0] != n - 1)
          continue;
        // The row's x halo cells beyond its end, as many as the scheme reads: copies of it.
        for (int h = 1; h <= scheme.halo(); ++h) {
          CellIndex<kDim> beyond = cell;
          beyond[0] = cell[0] == 0 ? -h : n - 1 + h;
          const std::size_t b = layout.index(p, v, beyond);
          ASSERT_TRUE(agreeToScale(deviceOut[b], hostOut[b], scale[std::size_t(v)]))
              << "row halo, patch " << p << " var " << v << " cell " << c << " + " << h
              << ": device " << deviceOut[b] << ", host " << hostOut[b];
          ASSERT_EQ(deviceOut[b], deviceOut[i]) << "row halo, patch " << p << " cell " << c;
        }
      }
  const double registerScale = largestMagnitude(hostRegister);
  for (std::size_t i = 0; i < registerSize; ++i)
    ASSERT_TRUE(agreeToScale(deviceRegister[i], hostRegister[i], registerScale))
        << "flux register entry " << i << ": device " << deviceRegister[i] << ", host "
        << hostRegister[i];
  for (int p = 0; p < numPatches; ++p)
    ASSERT_TRUE(agreeToScale(deviceLambda[p], hostLambda[p], std::fabs(hostLambda[p])))
        << "eigenvalue " << p << ": device " << deviceLambda[p] << ", host " << hostLambda[p];
  EXPECT_EQ((long long)toHost(dFallbacks)[0], fallbacks) << "first-order fallbacks";
}

// Every scheme that applies to the PDE, in every stage form.
template <class PDE>
void expectEverySchemeMatchesHost(const PDE& pde, const test::FilledGrid<PDE::kDim>& filled,
                                  const test::FilledGrid<PDE::kDim>& other) {
  long long unlimitedFallbacks = 0, ignored = 0;
  for (int r = 0; r < 2; ++r)
    for (int l = 0; l < (r == 0 ? 1 : 4); ++l)
      for (int f = 0; f < 3; ++f) {
        const SpatialScheme scheme{ReconstructionKind(r), LimiterKind(l), RiemannSolverKind(f)};
        if (!riemannSolverApplies<PDE>(scheme.riemannSolver))
          continue;
        for (StageForm form : {StageForm::ForwardEuler, StageForm::KeepOther, StageForm::InPlace})
          expectSchemeMatchesHost(pde, filled, other, scheme, form,
                                  scheme.limiter == LimiterKind::None && r == 1 ? unlimitedFallbacks
                                                                                : ignored);
      }
  if constexpr (requires { pde.gamma; }) {
    EXPECT_GT(unlimitedFallbacks, 0) << "the data must make unlimited PLM fall back";
  }
}

class SchemeUpdateDevice : public ::testing::TestWithParam<int> {
protected:
  void SetUp() override {
    if (!deviceAvailable())
      GTEST_SKIP() << "no GPU visible";
  }
};

TEST_P(SchemeUpdateDevice, Euler2DMatchesTheHostTwin) {
  const Euler<2> pde;
  expectEverySchemeMatchesHost(pde, filledGrid<2>(pde, eulerData<2>(0.0), GetParam()),
                               filledGrid<2>(pde, eulerData<2>(0.5), GetParam()));
}

TEST_P(SchemeUpdateDevice, Euler3DMatchesTheHostTwin) {
  const Euler<3> pde;
  expectEverySchemeMatchesHost(pde, filledGrid<3>(pde, eulerData<3>(0.0), GetParam()),
                               filledGrid<3>(pde, eulerData<3>(0.5), GetParam()));
}

TEST_P(SchemeUpdateDevice, Advection2DAnd3DMatchTheHostTwin) {
  Advection<2> a2;
  a2.velocity = {{0.7, -0.4}};
  expectEverySchemeMatchesHost(a2, filledGrid<2>(a2, scalarData<2>(0.0), GetParam()),
                               filledGrid<2>(a2, scalarData<2>(0.5), GetParam()));
  Advection<3> a3;
  a3.velocity = {{-0.5, 0.3, 0.9}};
  expectEverySchemeMatchesHost(a3, filledGrid<3>(a3, scalarData<3>(0.0), GetParam()),
                               filledGrid<3>(a3, scalarData<3>(0.5), GetParam()));
}

template <int Dim>
void expectUnfusedMatchesHost(int n) {
  const Euler<Dim> pde;
  const auto filled = filledGrid<Dim>(pde, eulerData<Dim>(0.0), n);
  const auto other = filledGrid<Dim>(pde, eulerData<Dim>(0.5), n);
  const auto& layout = filled.grid.layout();
  const int numPatches = filled.grid.numPatches();
  const std::size_t size = filled.q.array().size();
  const SpatialScheme scheme{ReconstructionKind::Plm, LimiterKind::VanLeer,
                             RiemannSolverKind::Hllc};
  const double dt = 0.15 * filled.geometry[0].dx[0];
  for (const RungeKuttaStage& weights : {kSspRk2.stage[0], kSspRk2.stage[1]}) {
    std::vector<double> q0(other.q.data(), other.q.data() + size), hostOut(size, 0.0),
        hostLambda(numPatches);
    fusedUpdateHost(pde, scheme, layout, std::span<const PatchGeometry<Dim>>(filled.geometry),
                    filled.q.data(), hostOut.data(), StageWeights::of(weights, dt, q0.data()),
                    hostLambda.data(), nullptr, {}, nullptr);
    const auto dq = toDevice(std::vector<double>(filled.q.data(), filled.q.data() + size));
    const auto dQ0 = toDevice(q0);
    auto dOut = toDevice(std::vector<double>(size, kNaN));
    auto dLambda = toDevice(std::vector<double>(numPatches, kNaN));
    const auto dGeometry = toDevice(filled.geometry);
    UnfusedSchemeDevice<Euler<Dim>, Plm<VanLeer>, Hllc> unfused(layout, numPatches);
    unfused.update(pde, dGeometry.data(), dq.data(), dOut.data(),
                   StageWeights::of(weights, dt, dQ0.data()), dLambda.data());
    const auto deviceOut = toHost(dOut), deviceLambda = toHost(dLambda);
    const auto scale = variableScales(hostOut, layout, numPatches);
    for (int p = 0; p < numPatches; ++p) {
      for (int v = 0; v < Euler<Dim>::kNumVars; ++v)
        for (int c = 0; c < layout.interiorCells(); ++c) {
          const std::size_t i = layout.index(p, v, layout.interiorCell(c));
          ASSERT_TRUE(agreeToScale(deviceOut[i], hostOut[i], scale[std::size_t(v)]))
              << "unfused, patch " << p << " var " << v << " cell " << c;
        }
      ASSERT_TRUE(agreeToScale(deviceLambda[p], hostLambda[p], std::fabs(hostLambda[p])))
          << "eigenvalue " << p;
    }
  }
}

TEST_P(SchemeUpdateDevice, UnfusedPipelineMatchesTheHostTwin) {
  expectUnfusedMatchesHost<2>(GetParam());
  expectUnfusedMatchesHost<3>(GetParam());
}

std::string patchSizeName(const ::testing::TestParamInfo<int>& size) {
  return std::string("N") + std::to_string(size.param);
}

INSTANTIATE_TEST_SUITE_P(PatchSizes, SchemeUpdateDevice, ::testing::Values(8, 16, 32),
                         patchSizeName);

} // namespace
} // namespace tessera
