// Tessera's own systems as the case runner takes them (CaseSystem, case_system.hpp): how case
// files set each one's parameters, inflow and initial states; and runCase, the tessera program's
// runner with them.
#include "tools/tessera/run_case.hpp"

#include <mpi.h>

#include "physics/shipped_systems.hpp"
#include "tools/tessera/case_runner.hpp"

namespace tessera::cli {
namespace {

using io::Config;
using io::ConfigErrorKind;

// Each shipped system's case: its parameters, boundary inflow and initial states as the case file
// gives them. A system added to TESSERA_SHIPPED_SYSTEMS without one does not compile
// (addShippedSystems).
template <template <int> class System>
struct ShippedCase;

template <>
struct ShippedCase<Euler> {
  template <int Dim>
  static CaseSystem<Euler<Dim>> system() {
    using Grid = UniformPatchGrid<Dim>;
    using Initial = InitialState<Euler<Dim>>;
    CaseSystem<Euler<Dim>> s;
    s.make = [](Config& cfg) {
      Euler<Dim> pde;
      pde.gamma = cfg.getDouble("physics.gamma", 1.4, io::Range{1.0, 10.0, true, false});
      pde.gravity =
          toVec<Dim>(cfg.getDoubles("physics.gravity", std::vector<double>(Dim, 0.0), Dim));
      return pde;
    };
    s.inflow = [](Config& cfg, const Euler<Dim>& pde) {
      return pde.toConserved(readEulerPrimitive<Dim>(cfg, "boundary.inflow"));
    };
    s.initial["sedov"] = [](Config& cfg, const Euler<Dim>& pde, const Grid& grid) {
      SedovBlast<Dim> ic;
      ic.pde = pde;
      std::vector<double> mid(Dim);
      double maxDx = 0.0;
      for (int a = 0; a < Dim; ++a) {
        mid[a] = 0.5 * (grid.lower()[a] + grid.upper()[a]);
        maxDx = std::max(maxDx, grid.cellSize(a));
      }
      ic.energy = cfg.getDouble("initial.energy", 1.0, io::Range::positive());
      ic.density = cfg.getDouble("initial.density", 1.0, io::Range::positive());
      ic.pressure = cfg.getDouble("initial.pressure", 1e-5, io::Range::positive());
      ic.centre = toVec<Dim>(cfg.getDoubles("initial.center", mid, Dim));
      // Inside the domain a cell centre always lies within the deposit radius (placeOn).
      for (int a = 0; a < Dim; ++a)
        if (!(ic.centre[a] >= grid.lower()[a] && ic.centre[a] <= grid.upper()[a]))
          cfg.fail(ConfigErrorKind::OutOfRange, "initial.center",
                   "must lie in the domain, from mesh.lower to mesh.upper");
      // 3.5 cells of the finest level by default.
      const int finest = cfg.getInt("amr.max_level", 0, io::Range::closed(0, 12));
      ic.radius =
          cfg.getDouble("initial.radius", 3.5 * maxDx / (1 << finest), io::Range::positive());
      return Initial{[ic](const PatchLayout<Dim>& layout,
                          std::span<const PatchGeometry<Dim>> geometry) mutable {
                       ic.placeOn(layout, geometry, MPI_COMM_WORLD);
                       return ConservedAt<Euler<Dim>>(ic);
                     },
                     {}};
    };
    s.initial["vortex"] = [](Config& cfg, const Euler<Dim>& pde, const Grid& grid) {
      IsentropicVortex<Dim> ic;
      ic.pde = pde;
      std::vector<double> mid(Dim);
      for (int a = 0; a < Dim; ++a)
        mid[a] = 0.5 * (grid.lower()[a] + grid.upper()[a]);
      ic.centre = toVec<Dim>(cfg.getDoubles("initial.center", mid, Dim));
      ic.strength = cfg.getDouble("initial.strength", 5.0, io::Range::closed(0.0, 10.0));
      ic.velocity =
          toVec<Dim>(cfg.getDoubles("initial.velocity", std::vector<double>(Dim, 0.0), Dim));
      return Initial::fixed(ic);
    };
    s.initial["kelvin_helmholtz"] = [](Config& cfg, const Euler<Dim>& pde, const Grid&) {
      KelvinHelmholtz<Dim> ic;
      ic.pde = pde;
      ic.inner = cfg.getDouble("initial.inner_density", 2.0, io::Range::positive());
      ic.outer = cfg.getDouble("initial.outer_density", 1.0, io::Range::positive());
      ic.shear = cfg.getDouble("initial.shear", 1.0);
      ic.pressure = cfg.getDouble("initial.pressure", 2.5, io::Range::positive());
      ic.amplitude = cfg.getDouble("initial.amplitude", 0.01);
      return Initial::fixed(ic);
    };
    s.initial["riemann"] = [](Config& cfg, const Euler<Dim>& pde, const Grid& grid) {
      return Initial::fixed(readRiemann<Dim>(cfg, pde, grid.lower(), grid.upper()));
    };
    s.initial["pulse"] = [](Config& cfg, const Euler<Dim>& pde, const Grid& grid) {
      EulerPulse<Dim> ic;
      ic.pde = pde;
      ic.pulse = readPulse<Dim>(cfg, grid);
      if (ic.pulse.background + std::min(ic.pulse.amplitude, 0.0) <= 0.0)
        cfg.fail(ConfigErrorKind::Inconsistent, "initial.amplitude",
                 "the density background + amplitude must stay positive");
      ic.velocity =
          toVec<Dim>(cfg.getDoubles("initial.velocity", std::vector<double>(Dim, 0.0), Dim));
      ic.pressure = cfg.getDouble("initial.pressure", 1.0, io::Range::positive());
      return Initial::fixed(ic);
    };
    // States at rest under gravity, or grown from one: a run is well balanced about it unless
    // physics.well_balanced = false.
    s.initial["hydrostatic"] = [](Config& cfg, const Euler<Dim>& pde, const Grid&) {
      requireGravity(cfg, pde, "hydrostatic");
      HydrostaticAtmosphere<Dim> ic;
      ic.pde = pde;
      ic.density = cfg.getDouble("initial.density", 1.0, io::Range::positive());
      ic.pressure = cfg.getDouble("initial.pressure", 1.0, io::Range::positive());
      return Initial::fixed(ic, ic);
    };
    s.initial["rayleigh_taylor"] = [](Config& cfg, const Euler<Dim>& pde, const Grid&) {
      requireGravity(cfg, pde, "rayleigh_taylor");
      for (int a = 0; a + 1 < Dim; ++a)
        if (pde.gravity[a] != 0.0)
          cfg.fail(ConfigErrorKind::Inconsistent, "physics.gravity",
                   "must point along the last axis for initial.type = \"rayleigh_taylor\"");
      RayleighTaylor<Dim> ic;
      ic.pde = pde;
      ic.heavy = cfg.getDouble("initial.heavy_density", 2.0, io::Range::positive());
      ic.light = cfg.getDouble("initial.light_density", 1.0, io::Range::positive());
      ic.pressure = cfg.getDouble("initial.pressure", 2.5, io::Range::positive());
      ic.amplitude = cfg.getDouble("initial.amplitude", 0.01);
      return Initial::fixed(ic, [ic](const Vec<double, Dim>& x) { return ic.atRest(x); });
    };
    return s;
  }

  template <int Dim>
  static void requireGravity(Config& cfg, const Euler<Dim>& pde, const std::string& type) {
    if (!pde.hasSource())
      cfg.fail(ConfigErrorKind::Inconsistent, "physics.gravity",
               "must not be zero for initial.type = \"" + type + "\"");
  }
};

template <>
struct ShippedCase<Advection> {
  template <int Dim>
  static CaseSystem<Advection<Dim>> system() {
    CaseSystem<Advection<Dim>> s;
    s.make = [](Config& cfg) {
      Advection<Dim> pde;
      pde.velocity =
          toVec<Dim>(cfg.getDoubles("physics.velocity", std::vector<double>(Dim, 1.0), Dim));
      return pde;
    };
    s.inflow = [](Config& cfg, const Advection<Dim>&) {
      return typename Advection<Dim>::State{{cfg.getDouble("boundary.inflow.value", std::nullopt)}};
    };
    s.initial["pulse"] = [](Config& cfg, const Advection<Dim>&, const UniformPatchGrid<Dim>& grid) {
      return InitialState<Advection<Dim>>::fixed(ScalarPulse<Dim>{readPulse<Dim>(cfg, grid)});
    };
    return s;
  }
};

} // namespace

template <template <int> class System, int Dim>
CaseSystem<System<Dim>> shippedCase() {
  return ShippedCase<System>::template system<Dim>();
}
#define TESSERA_INSTANTIATE_SHIPPED_CASE(System)                                                   \
  template CaseSystem<System<2>> shippedCase<System, 2>();                                         \
  template CaseSystem<System<3>> shippedCase<System, 3>();
TESSERA_SHIPPED_SYSTEMS(TESSERA_INSTANTIATE_SHIPPED_CASE)
#undef TESSERA_INSTANTIATE_SHIPPED_CASE

CaseRunner& CaseRunner::addShippedSystems() {
#define TESSERA_ADD_SHIPPED(System)                                                                \
  add(shippedCase<System, 2>());                                                                   \
  add(shippedCase<System, 3>());
  TESSERA_SHIPPED_SYSTEMS(TESSERA_ADD_SHIPPED)
#undef TESSERA_ADD_SHIPPED
  return *this;
}

int runCase(const RunRequest& request, RunTotals* totals) {
  return CaseRunner().addShippedSystems().run(request, totals);
}

} // namespace tessera::cli
