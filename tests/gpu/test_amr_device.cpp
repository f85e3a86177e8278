// Whole adaptive runs on the device against the same runs on the host: Sod's shock tube and the
// Sedov blast, 2D and 3D, three levels, regridding every 4 steps with the criterion evaluated on
// the device. After 50 steps the meshes are the same and every interior value agrees to 1e-12 of
// its variable's largest magnitude: first order, and the Sedov blast with every combination of
// reconstruction, limiter, Riemann solver and Runge-Kutta method; a pulse in an atmosphere under
// gravity, well balanced. Skipped where no device is visible.
#include <algorithm>
#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <optional>

#include "drivers/amr_solver.hpp"
#include "solvers/initial_conditions.hpp"
#include "tests/support/unphysical_patch_case.hpp"

namespace tessera {
namespace {

constexpr int kSteps = 50;

template <int Dim>
struct Case {
  PatchLayout<Dim> layout;
  Vec<int, Dim> level0;
  DomainBoundary<Dim> boundary;
  amr::IndicatorCriterion criterion;
  PatchScheme scheme{};
  BoundaryHook<Dim, Dim + 2> hook{};
  Euler<Dim> pde{};
  std::function<typename Euler<Dim>::State(const Vec<double, Dim>&)> equilibrium{};
};

template <int Dim>
AmrSolver<Euler<Dim>> makeSolver(const Case<Dim>& c, MemorySpace space) {
  AmrSettings settings;
  settings.maxLevel = 2;
  settings.regridInterval = 4;
  return AmrSolver<Euler<Dim>>(MPI_COMM_WORLD, c.pde, c.layout, c.level0,
                               Vec<double, Dim>::filled(0.0), Vec<double, Dim>::filled(1.0),
                               c.boundary, settings, c.criterion, 0.8 / Dim, space, c.scheme);
}

template <int Dim, class MakeInitial>
void run(AmrSolver<Euler<Dim>>& amr, const Case<Dim>& c, MakeInitial makeInitial) {
  if (c.hook.state)
    amr.solver().setBoundaryHook(c.hook);
  amr.initialise(makeInitial);
  if (c.equilibrium)
    amr.solver().setEquilibrium(c.equilibrium);
  for (int s = 0; s < kSteps; ++s)
    amr.advance(amr.solver().stableDt());
}

template <int Dim, class MakeInitial>
void expectDeviceEqualsHost(const Case<Dim>& c, MakeInitial makeInitial) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  SCOPED_TRACE(describe(c.scheme.spatial) + " with " + c.scheme.integrator.name);
  auto host = makeSolver<Dim>(c, MemorySpace::Host);
  auto device = makeSolver<Dim>(c, MemorySpace::Device);
  run<Dim>(host, c, makeInitial);
  run<Dim>(device, c, makeInitial);
  ASSERT_EQ(host.forest().leaves(), device.forest().leaves()) << "the meshes differ";
  ASSERT_EQ(host.finestLevel(), 2) << "the case should refine to the finest level";
  // Each step's dt comes from the device's eigenvalues, within a few units in the last place of
  // the host's (engine/arithmetic.hpp).
  EXPECT_NEAR(device.solver().time(), host.solver().time(), 1e-12 * host.solver().time());

  const auto& layout = c.layout;
  const PatchStore<Dim>& h = host.solver().hostState();
  const PatchStore<Dim>& d = device.solver().hostState();
  for (int v = 0; v < layout.numVars; ++v) {
    double scale = 0.0, worst = 0.0;
    for (int p = 0; p < h.numPatches(); ++p)
      for (int n = 0; n < layout.interiorCells(); ++n) {
        const CellIndex<Dim> cell = layout.interiorCell(n);
        scale = std::max(scale, std::fabs(h.at(p, v, cell)));
        worst = std::max(worst, std::fabs(h.at(p, v, cell) - d.at(p, v, cell)));
      }
    EXPECT_LE(worst, 1e-12 * scale) << "variable " << v << " of " << h.numPatches() << " patches";
  }
}

template <int Dim>
Case<Dim> sodCase() {
  Case<Dim> c{PatchLayout<Dim>{8, 1, Dim + 2},
              Vec<int, Dim>::filled(2),
              DomainBoundary<Dim>::all(BoundaryKind::Reflecting),
              {amr::Indicator::Gradient, Euler<Dim>::kDensity, true, 0.02, 0.01}};
  c.level0[0] = 4;
  return c;
}

template <int Dim>
Case<Dim> sedovCase() {
  return {PatchLayout<Dim>{8, 1, Dim + 2},
          Vec<int, Dim>::filled(2),
          DomainBoundary<Dim>::all(BoundaryKind::Outflow),
          {amr::Indicator::Loehner, Dim + 1 /* pressure */, true, 0.8, 0.2}};
}

template <int Dim>
auto sod() {
  RiemannProblem<Dim> ic;
  ic.position = 0.45; // off the patch boundaries, so the first flags are not all alike
  return [ic](const auto&, const auto&) { return ic; };
}

template <int Dim>
auto sedov() {
  return [](const PatchLayout<Dim>& layout, std::span<const PatchGeometry<Dim>> geometry) {
    SedovBlast<Dim> ic;
    ic.centre = Vec<double, Dim>::filled(0.5);
    ic.radius = 0.04;
    ic.placeOn(layout, geometry);
    return ic;
  };
}

TEST(AmrOnDevice, Sod2DEqualsHost) {
  expectDeviceEqualsHost<2>(sodCase<2>(), sod<2>());
}
TEST(AmrOnDevice, Sod3DEqualsHost) {
  expectDeviceEqualsHost<3>(sodCase<3>(), sod<3>());
}
TEST(AmrOnDevice, Sedov2DEqualsHost) {
  expectDeviceEqualsHost<2>(sedovCase<2>(), sedov<2>());
}
TEST(AmrOnDevice, Sedov3DEqualsHost) {
  expectDeviceEqualsHost<3>(sedovCase<3>(), sedov<3>());
}

// A user boundary hook (a time-dependent inflow on part of the left wall) on the device: its
// values are uploaded each stage.
TEST(AmrOnDevice, BoundaryHookEqualsHost2D) {
  Case<2> c = sodCase<2>();
  c.scheme = {{ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hllc}, kSspRk2};
  c.layout.halo = 2;
  c.hook.upper = {{1.0, 1.0}};
  c.hook.hooked[0][0] = true;
  c.hook.state = [](const Vec<double, 2>& x, double t, int, int) -> std::optional<Euler<2>::State> {
    if (x[1] > 0.5)
      return std::nullopt;
    return Euler<2>{}.toConserved({{1.0 + 5.0 * t, 0.5, 0.0, 1.0 + 2.0 * t}});
  };
  expectDeviceEqualsHost<2>(c, sod<2>());
}

// Gravity's source pass and the equilibrium's residual (recomputed at every regrid) on the device:
// a pressure pulse in an isothermal atmosphere behind walls, the run well balanced about the
// atmosphere.
template <int Dim>
void expectGravityEqualsHost() {
  Case<Dim> c = sedovCase<Dim>();
  c.boundary = DomainBoundary<Dim>::all(BoundaryKind::Reflecting);
  c.scheme = {{ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hllc}, kSspRk2};
  c.layout.halo = 2;
  c.pde.gravity[Dim - 1] = -1.0;
  HydrostaticAtmosphere<Dim> atRest;
  atRest.pde = c.pde;
  c.equilibrium = atRest;
  expectDeviceEqualsHost<Dim>(c, [atRest](const auto&, const auto&) {
    return [atRest](const Vec<double, Dim>& x) {
      auto w = atRest.pde.toPrimitive(atRest(x));
      double r2 = 0.0;
      for (int a = 0; a < Dim; ++a)
        r2 += (x[a] - 0.5) * (x[a] - 0.5);
      w[Dim + 1] += 2.0 * std::exp(-r2 / 0.005);
      return atRest.pde.toConserved(w);
    };
  });
}

// The atmosphere alone on the device for 1,000 steps, refined below z = 0.22 (a threshold on
// density, so that coarse-fine faces cross it) and regridded every 4 steps: at rest to 1e-12.
template <int Dim>
void expectAtmosphereAtRestOnDevice() {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  Case<Dim> c = sedovCase<Dim>();
  c.boundary = DomainBoundary<Dim>::all(BoundaryKind::Reflecting);
  c.criterion = {amr::Indicator::Threshold, Euler<Dim>::kDensity, true, 0.8, 0.5};
  c.scheme = {{ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hllc}, kSspRk2};
  c.layout.halo = 2;
  c.pde.gravity[Dim - 1] = -1.0;
  HydrostaticAtmosphere<Dim> atRest;
  atRest.pde = c.pde;
  auto amr = makeSolver<Dim>(c, MemorySpace::Device);
  amr.initialise([atRest](const auto&, const auto&) { return atRest; });
  amr.solver().setEquilibrium(atRest);
  for (int s = 0; s < 1000; ++s)
    amr.advance(amr.solver().stableDt());
  ASSERT_EQ(amr.finestLevel(), 2);
  const PatchStore<Dim>& q = amr.solver().hostState();
  double speed = 0.0;
  for (int p = 0; p < q.numPatches(); ++p)
    for (int n = 0; n < c.layout.interiorCells(); ++n)
      for (int a = 0; a < Dim; ++a) {
        const CellIndex<Dim> cell = c.layout.interiorCell(n);
        speed = std::max(speed, std::fabs(q.at(p, 1 + a, cell) / q.at(p, 0, cell)));
      }
  EXPECT_LE(speed, 1e-12);
}

TEST(AmrOnDevice, WellBalancedAtmosphereStaysAtRest2D) {
  expectAtmosphereAtRestOnDevice<2>();
}
TEST(AmrOnDevice, WellBalancedAtmosphereStaysAtRest3D) {
  expectAtmosphereAtRestOnDevice<3>();
}

TEST(AmrOnDevice, GravityWellBalancedEqualsHost2D) {
  expectGravityEqualsHost<2>();
}
TEST(AmrOnDevice, GravityWellBalancedEqualsHost3D) {
  expectGravityEqualsHost<3>();
}

// Every scheme and integrator, with a halo of two: the Sedov blast, and Sod's shock tube for
// unlimited PLM, whose oscillations at the blast's strong shock drive the pressure negative.
template <int Dim>
void expectEverySchemeEqualsHost() {
  for (int r = 0; r < 2; ++r)
    for (int l = 0; l < (r == 0 ? 1 : 4); ++l)
      for (int f = 0; f < 3; ++f)
        for (const RungeKutta& rk : kRungeKuttaMethods) {
          const bool unlimited = r == 1 && LimiterKind(l) == LimiterKind::None;
          Case<Dim> c = unlimited ? sodCase<Dim>() : sedovCase<Dim>();
          c.scheme = {{ReconstructionKind(r), LimiterKind(l), RiemannSolverKind(f)}, rk};
          c.layout.halo = 2;
          if (unlimited)
            expectDeviceEqualsHost<Dim>(c, sod<Dim>());
          else
            expectDeviceEqualsHost<Dim>(c, sedov<Dim>());
        }
}

TEST(AmrOnDevice, EverySchemeEqualsHost2D) {
  expectEverySchemeEqualsHost<2>();
}
TEST(AmrOnDevice, EverySchemeEqualsHost3D) {
  expectEverySchemeEqualsHost<3>();
}

// A negative density on the device is reported like on the host (tests/support), naming the
// patch, the cell, its centre and the value.
TEST(AmrOnDevice, UnphysicalStateIsReported) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  const std::string m = test::unphysicalPatchMessage(MemorySpace::Device);
  EXPECT_NE(m.find(test::kUnphysicalPatchMessage), std::string::npos) << m;
}

} // namespace
} // namespace tessera
