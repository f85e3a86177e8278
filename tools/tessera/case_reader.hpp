#pragma once
// From a case configuration to Tessera's objects: the patch grid, the boundary, the PDE and its
// initial data. Each reader names the keys it reads; Config turns bad values into errors.
#include <algorithm>
#include <array>
#include <string>

#include "io/config.hpp"
#include "patches/boundary.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "physics/advection/advection.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/initial_conditions.hpp"
#include "solvers/patch/patch_solver.hpp"

namespace tessera::cli {

inline constexpr std::array<const char*, 3> kAxisNames = {"x", "y", "z"};

template <int Dim>
Vec<double, Dim> toVec(const std::vector<double>& v) {
  Vec<double, Dim> r{};
  for (int a = 0; a < Dim; ++a)
    r[a] = v[a];
  return r;
}

// The patches' halo is the scheme's (PatchScheme::spatial.halo()).
template <int Dim>
UniformPatchGrid<Dim> readGrid(io::Config& cfg, int numVars, int halo) {
  PatchLayout<Dim> layout;
  layout.cellsPerAxis = cfg.getInt("mesh.cells_per_patch", 16, io::Range::closed(2, 128));
  layout.halo = halo;
  layout.numVars = numVars;
  const std::vector<int> patches =
      cfg.getInts("mesh.patches", std::vector<int>(Dim, 8), Dim, io::Range::closed(1, 1 << 20));
  const std::vector<double> lower =
      cfg.getDoubles("mesh.lower", std::vector<double>(Dim, 0.0), Dim);
  const std::vector<double> upper =
      cfg.getDoubles("mesh.upper", std::vector<double>(Dim, 1.0), Dim);
  Vec<int, Dim> np{};
  for (int a = 0; a < Dim; ++a) {
    np[a] = patches[a];
    if (!(upper[a] > lower[a]))
      cfg.fail(io::ConfigErrorKind::Inconsistent, "mesh.upper",
               "must exceed mesh.lower on every axis");
    // Level-0 cells narrower than 1e-100 have volumes that underflow; narrower than 1e-12 of the
    // coordinates' own size, their centres and faces round together (a double resolves 2e-16).
    const double cell = (upper[a] - lower[a]) / (double(patches[a]) * layout.cellsPerAxis);
    const double scale = std::max(std::fabs(lower[a]), std::fabs(upper[a]));
    if (cell < 1e-100 || cell < 1e-12 * scale)
      cfg.fail(io::ConfigErrorKind::Inconsistent, "mesh.upper",
               "the box is " + io::formatNumber(upper[a] - lower[a]) + " wide along " +
                   kAxisNames[a] + ": level-0 cells of " + io::formatNumber(cell) +
                   " are too small to compute with (at least 1e-100 and 1e-12 of the "
                   "coordinates' size)");
  }
  return UniformPatchGrid<Dim>(layout, np, toVec<Dim>(lower), toVec<Dim>(upper));
}

// Reads boundary.<axis>_<lower|upper>; `inflowState` reads the state an inflow face imposes.
template <int Dim, class InflowState>
DomainBoundary<Dim> readBoundary(io::Config& cfg, InflowState&& inflowState) {
  const std::vector<std::string> kinds = {"outflow", "reflecting", "periodic", "inflow"};
  DomainBoundary<Dim> b;
  bool anyInflow = false;
  for (int a = 0; a < Dim; ++a)
    for (int side = 0; side < 2; ++side) {
      const std::string key =
          std::string("boundary.") + kAxisNames[a] + (side == 0 ? "_lower" : "_upper");
      b.kind[a][side] = *parseBoundaryKind(cfg.getChoice(key, "outflow", kinds));
      anyInflow = anyInflow || b.kind[a][side] == BoundaryKind::Inflow;
    }
  for (int a = 0; a < Dim; ++a)
    if ((b.kind[a][0] == BoundaryKind::Periodic) != (b.kind[a][1] == BoundaryKind::Periodic))
      cfg.fail(io::ConfigErrorKind::Inconsistent,
               std::string("boundary.") + kAxisNames[a] + "_upper",
               "periodic boundaries come in pairs: set both " + std::string(kAxisNames[a]) +
                   "_lower and " + kAxisNames[a] + "_upper to \"periodic\"");
  if (anyInflow) {
    const std::vector<double> state = inflowState();
    for (int a = 0; a < Dim; ++a)
      for (int side = 0; side < 2; ++side)
        if (b.kind[a][side] == BoundaryKind::Inflow)
          b.inflowState[a][side] = state;
  }
  return b;
}

// numerics.reconstruction, numerics.limiter (PLM only), numerics.riemann_solver (those that
// apply to the PDE) and time.integrator. Defaults: PLM with van Leer's limiter, SSP-RK2, and HLLC
// where it applies (the Euler equations), HLLE elsewhere.
template <ConservationLaw PDE>
PatchScheme readScheme(io::Config& cfg) {
  const auto index = [](const auto& names, const std::string& name) {
    return int(std::find(std::begin(names), std::end(names), name) - std::begin(names));
  };
  const auto choices = [](const auto& names) {
    return std::vector<std::string>(std::begin(names), std::end(names));
  };
  PatchScheme scheme;
  SpatialScheme& s = scheme.spatial;
  s.reconstruction =
      ReconstructionKind(index(kReconstructionNames, cfg.getChoice("numerics.reconstruction", "plm",
                                                                   choices(kReconstructionNames))));
  if (s.reconstruction == ReconstructionKind::Plm)
    s.limiter = LimiterKind(index(
        kLimiterNames, cfg.getChoice("numerics.limiter", "van_leer", choices(kLimiterNames))));
  std::vector<std::string> solvers;
  for (int k = 0; k < int(std::size(kRiemannSolverNames)); ++k)
    if (riemannSolverApplies<PDE>(RiemannSolverKind(k)))
      solvers.emplace_back(kRiemannSolverNames[k]);
  const bool hllc = riemannSolverApplies<PDE>(RiemannSolverKind::Hllc);
  s.riemannSolver =
      RiemannSolverKind(index(kRiemannSolverNames, cfg.getChoice("numerics.riemann_solver",
                                                                 hllc ? "hllc" : "hlle", solvers)));
  std::vector<std::string> integrators;
  for (const RungeKutta& rk : kRungeKuttaMethods)
    integrators.emplace_back(rk.name);
  scheme.integrator = kRungeKuttaMethods[index(
      integrators, cfg.getChoice("time.integrator", "ssp_rk2", integrators))];
  return scheme;
}

template <int Dim>
typename Euler<Dim>::State readEulerPrimitive(io::Config& cfg, const std::string& prefix) {
  typename Euler<Dim>::State w;
  w[Euler<Dim>::kDensity] = cfg.getDouble(prefix + ".density", std::nullopt, io::Range::positive());
  const std::vector<double> u =
      cfg.getDoubles(prefix + ".velocity", std::vector<double>(Dim, 0.0), Dim);
  for (int a = 0; a < Dim; ++a)
    w[Euler<Dim>::kMomentum + a] = u[a];
  w[Euler<Dim>::kEnergy] = cfg.getDouble(prefix + ".pressure", std::nullopt, io::Range::positive());
  return w;
}

// initial.axis, initial.position (mid-way between lower and upper along the axis by default),
// initial.left and initial.right: density and pressure required, velocity along the axis 0.
template <int Dim>
RiemannProblem<Dim> readRiemann(io::Config& cfg, const Euler<Dim>& pde,
                                const Vec<double, Dim>& lower, const Vec<double, Dim>& upper) {
  RiemannProblem<Dim> ic;
  ic.pde = pde;
  const std::string axis = cfg.getChoice(
      "initial.axis", "x", std::vector<std::string>(kAxisNames.begin(), kAxisNames.begin() + Dim));
  ic.axis = int(axis[0] - 'x');
  ic.position = cfg.getDouble("initial.position", 0.5 * (lower[ic.axis] + upper[ic.axis]));
  for (int side = 0; side < 2; ++side) {
    const std::string prefix = side == 0 ? "initial.left" : "initial.right";
    double* state = side == 0 ? ic.left : ic.right;
    state[0] = cfg.getDouble(prefix + ".density", std::nullopt, io::Range::positive());
    state[1] = cfg.getDouble(prefix + ".velocity", 0.0);
    state[2] = cfg.getDouble(prefix + ".pressure", std::nullopt, io::Range::positive());
  }
  return ic;
}

template <int Dim>
GaussianPulse<Dim> readPulse(io::Config& cfg, const UniformPatchGrid<Dim>& grid) {
  GaussianPulse<Dim> pulse;
  std::vector<double> mid(Dim);
  for (int a = 0; a < Dim; ++a)
    mid[a] = 0.5 * (grid.lower()[a] + grid.upper()[a]);
  pulse.centre = toVec<Dim>(cfg.getDoubles("initial.center", mid, Dim));
  pulse.width = cfg.getDouble("initial.width", 0.1, io::Range::positive());
  pulse.amplitude = cfg.getDouble("initial.amplitude", 1.0);
  pulse.background = cfg.getDouble("initial.background", 1.0);
  return pulse;
}

} // namespace tessera::cli
