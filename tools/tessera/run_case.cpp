#include "tools/tessera/run_case.hpp"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <mpi.h>
#include <optional>

#include "drivers/amr_checkpoint.hpp"
#include "drivers/amr_solver.hpp"
#include "drivers/step_toward.hpp"
#include "engine/timer.hpp"
#include "io/config.hpp"
#include "io/expression_initial.hpp"
#include "io/run_log.hpp"
#include "physics/optional_members.hpp"
#include "physics/shipped_systems.hpp"
#include "solvers/unphysical_state.hpp"
#include "tools/tessera/case_reader.hpp"
#include "tools/tessera/memory_estimate.hpp"
#include "tools/tessera/run_checkpoints.hpp"
#include "tools/tessera/run_settings.hpp"
#include "tools/tessera/run_unstructured_case.hpp"
#if TESSERA_HAS_VTK
#include "io/patch_output.hpp"
#include "io/patch_series.hpp"
#endif

namespace tessera::cli {
namespace {

using io::Config;
using io::ConfigErrorKind;

// The [amr] section: levels, how often to adapt and what to refine on. Without it (max_level 0)
// the run is a uniform grid of mesh.patches patches.
template <ConservationLaw PDE>
std::pair<AmrSettings, amr::IndicatorCriterion> readAmr(Config& cfg) {
  AmrSettings settings;
  settings.maxLevel = cfg.getInt("amr.max_level", 0, io::Range::closed(0, 12));
  settings.minLevel = cfg.getInt("amr.min_level", 0, io::Range::closed(0, 12));
  if (settings.minLevel > settings.maxLevel)
    cfg.fail(ConfigErrorKind::Inconsistent, "amr.min_level", "must not exceed amr.max_level");
  if (settings.maxLevel == settings.minLevel) {
    settings.regridInterval = 0; // nothing to adapt
    cfg.ignoreUnused("amr", "amr.max_level = amr.min_level leaves nothing to adapt");
    return {settings, {}};
  }
  settings.regridInterval = cfg.getInt("amr.regrid_interval", 4, io::Range::closed(1, 1e6));
  settings.buffer = cfg.getBool("amr.buffer", true);
  // The quantity: a primitive variable (density, pressure, velocity_x, ...) or a conserved one.
  const auto primitives = PDE::primitiveNames();
  const auto conserved = PDE::conservedNames();
  std::vector<std::string> names(primitives.begin(), primitives.end());
  for (const auto& name : conserved)
    if (std::find(names.begin(), names.end(), name) == names.end())
      names.emplace_back(name);
  const std::string variable = cfg.getChoice("amr.variable", names.front(), names);
  const auto position = [](const auto& list, const std::string& name) {
    return int(std::find(list.begin(), list.end(), name) - list.begin());
  };
  amr::IndicatorCriterion criterion;
  criterion.primitive = position(primitives, variable) < PDE::kNumVars;
  criterion.variable =
      criterion.primitive ? position(primitives, variable) : position(conserved, variable);
  const std::string kind =
      cfg.getChoice("amr.criterion", "loehner", {"loehner", "gradient", "threshold"});
  criterion.indicator = kind == "loehner"    ? amr::Indicator::Loehner
                        : kind == "gradient" ? amr::Indicator::Gradient
                                             : amr::Indicator::Threshold;
  // Defaults: FLASH's for Loehner; 2% and 1% change across a cell for the gradient.
  criterion.refine =
      cfg.getDouble("amr.refine", kind == "loehner" ? 0.8 : (kind == "gradient" ? 0.02 : 1.0));
  criterion.coarsen =
      cfg.getDouble("amr.coarsen", kind == "loehner" ? 0.2 : (kind == "gradient" ? 0.01 : 0.5));
  if (criterion.coarsen > criterion.refine)
    cfg.fail(ConfigErrorKind::Inconsistent, "amr.coarsen", "must not exceed amr.refine");
  if (kind == "loehner")
    criterion.filter = cfg.getDouble("amr.filter", 0.01, io::Range::closed(0.0, 1.0));
  return {settings, criterion};
}

// What `info` says of a system's optional members (physics/optional_members.hpp): the ones it
// provides, and what runs in place of the others.
template <ConservationLaw PDE>
std::string describeOptionalMembers() {
  std::string provided, missing;
  for (const OptionalMember& m : optionalMembers<PDE>()) {
    std::string& list = m.provided ? provided : missing;
    list += (list.empty() ? "" : ", ") + std::string(m.name) + " (" +
            std::string(m.provided ? m.serves : m.fallback) + (m.provided ? ")" : " in its place)");
  }
  return "provides " + (provided.empty() ? std::string("none of the optional members") : provided) +
         (missing.empty() ? "" : "; without " + missing);
}

// Runs a case: makeInitial(layout, geometry) gives the initial state of a mesh; or, with
// --restart, continues from a checkpoint. Where an equilibrium is given (the conserved state at a
// point), the run is well balanced about it (PatchSolver::setEquilibrium). On several MPI ranks
// every rank steps its patches and writes them as its piece of each output step; rank 0 prints,
// logs and writes the .pvtu and .pvd. Returns the exit code (run_case.hpp).
template <ConservationLaw PDE, class MakeInitial>
int simulate(Config& cfg, const RunRequest& request, RunTotals* totals, PDE pde,
             const PatchScheme& scheme, MakeInitial makeInitial,
             const UniformPatchGrid<PDE::kDim>& level0, const DomainBoundary<PDE::kDim>& boundary,
             std::function<typename PDE::State(const Vec<double, PDE::kDim>&)> equilibrium = {}) {
  constexpr int Dim = PDE::kDim;
  const auto [settings, criterion] = readAmr<PDE>(cfg);
  if (settings.maxLevel > 0 && level0.layout().cellsPerAxis % 2 != 0)
    cfg.fail(ConfigErrorKind::Inconsistent, "mesh.cells_per_patch",
             "must be even with adaptive refinement (amr.max_level > 0)");
  const double cfl =
      cfg.getDouble("time.cfl", 0.8 / Dim, io::Range{kSmallestCfl, 1.0 / Dim, false, false});
  RunSettings run = readRunSettings(cfg, request);
  run.outputFields = readOutputFields<PDE>(cfg, true);
  const CheckpointSettings checkpointSettings = readCheckpointSettings(cfg, run);
  const MemorySpace space = readBackend(cfg);
  cfg.rejectUnreadKeys(); // every key has been read: anything left is a mistake

  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const bool lead = rank == 0;

  std::string patches = "[";
  for (int a = 0; a < Dim; ++a)
    patches += (a ? ", " : "") + std::to_string(level0.patchesPerAxis()[a]);
  const CaseFacts facts{{"mesh.type", "patches"},
                        {"mesh.dimension", std::to_string(Dim)},
                        {"physics.system", std::string(PDE::kName)},
                        {"physics.variables", std::to_string(PDE::kNumVars)},
                        {"mesh.cells_per_patch", std::to_string(level0.layout().cellsPerAxis)},
                        {"mesh.patches", patches + "]"}};
  std::optional<io::CheckpointInfo> resumed;
  if (request.restart)
    resumed =
        openCheckpoint(MPI_COMM_WORLD, *request.restart, facts, {kForestFile, io::kStateFile});

  // Before anything is allocated: does the run fit?
  PatchRunSize size;
  size.patches = resumed ? double(resumed->records) : 1.0;
  for (int a = 0; a < Dim && !resumed; ++a)
    size.patches *= double(level0.patchesPerAxis()[a]) * double(1 << settings.minLevel);
  size.storedCells = double(level0.layout().cellsWithHalo());
  size.numVars = PDE::kNumVars;
  // The state, one copy per further stage (two for forward Euler: the update is out of place),
  // and the output's host copy and arrays.
  size.stateCopies = std::max(2, scheme.integrator.stages + 1) + 1;
  size.space = space;
  refuseIfTooLarge(cfg, size, MPI_COMM_WORLD);
  if (request.checkOnly) {
    if (lead) {
      std::printf("# The effective configuration of %s\n%s\n", request.caseFile.string().c_str(),
                  cfg.effectiveToml().c_str());
      std::printf(
          "tessera: a valid case: %dD, %s patches of %d^%d cells (%s cells) at the start, "
          "levels %d to %d, %s with %s, CFL %.3g, to t = %g\n",
          Dim, io::formatNumber(size.patches).c_str(), level0.layout().cellsPerAxis, Dim,
          io::formatNumber(size.patches * std::pow(level0.layout().cellsPerAxis, Dim)).c_str(),
          settings.minLevel, settings.maxLevel, describe(scheme.spatial).c_str(),
          scheme.integrator.name, cfl, run.endTime);
      std::printf("tessera: memory at the start: about %s a rank, of %s available to each\n",
                  gigabytes(patchRunBytes(size) / ranks).c_str(),
                  gigabytes(availableBytesPerRank(MPI_COMM_WORLD)).c_str());
      std::printf("tessera: physics.system = %s %s\n", PDE::kName,
                  describeOptionalMembers<PDE>().c_str());
      if (resumed)
        std::printf("tessera: it would continue from %s at step %lld, t = %.17g\n",
                    request.restart->string().c_str(), resumed->step, resumed->time);
    } else {
      availableBytesPerRank(MPI_COMM_WORLD); // collective
    }
    return 0;
  }

  std::optional<AmrSolver<PDE>> amr;
  if (resumed) {
    const typename AmrSolver<PDE>::SavedForest saved{*request.restart / kForestFile,
                                                     resumed->ranks == ranks};
    amr.emplace(MPI_COMM_WORLD, pde, level0.layout(), level0.patchesPerAxis(), level0.lower(),
                level0.upper(), boundary, settings, criterion, cfl, saved, space, scheme);
    restoreAmrCheckpointData(*amr, *request.restart, *resumed);
  } else {
    amr.emplace(MPI_COMM_WORLD, pde, level0.layout(), level0.patchesPerAxis(), level0.lower(),
                level0.upper(), boundary, settings, criterion, cfl, space, scheme);
    amr->initialise(makeInitial);
  }
  PatchSolver<PDE>& solver = amr->solver();
  if (equilibrium)
    solver.setEquilibrium(equilibrium);

  std::optional<io::RunLog> log = openLeadRunLog(cfg, run, resumed.has_value());
  RunCheckpoints checkpoints(checkpointSettings, run, facts, cfg.effectiveToml(),
                             space == MemorySpace::Device ? "device" : "host", solver.time(),
                             request.started);

#if TESSERA_HAS_VTK
  io::PatchSeriesWriter writer(run.outputFormat, run.directory, run.name, MPI_COMM_WORLD);
  if (resumed)
    writer.resume(resumed->series);
  // This rank's patches as output cells, with their levels.
  const auto outputMesh = [&] {
    std::vector<int> levels;
    for (const auto& leaf : amr->forest().leaves())
      levels.push_back(leaf.level);
    return io::patchMesh<Dim>(solver.layout(), solver.geometry(), levels,
                              int(amr->firstGlobalPatch()));
  };
  const auto writeOutput = [&]() {
    if (run.writeOutput && run.outputFields.needNeighbours())
      solver.fillCurrentHalos(); // collective; the differences across a cell read its neighbours
    writeOutputStep(run, log, solver.step(), solver.time(), [&] {
      return writer.write(
          int(solver.step()), solver.time(), outputMesh(),
          io::cellFields(solver.pde(), solver.hostState(), solver.geometry(), run.outputFields));
    });
  };
  const auto series = [&] { return writer.written(); };
  const auto writeUnphysicalState = [&] {
    io::PatchSeriesWriter diagnostic(run.outputFormat, run.directory, run.name + "_unphysical",
                                     MPI_COMM_WORLD);
    std::vector<io::CellField> arrays =
        io::allVariableFields(solver.pde(), solver.hostState(), solver.geometry());
    arrays.push_back(io::unphysicalCells(solver.pde(), solver.hostState()));
    const auto file = diagnostic.write(int(solver.step()), solver.time(), outputMesh(), arrays);
    if (lead)
      std::printf("tessera: the state that became unphysical, at step %lld, t = %.17g, is in %s "
                  "(the offending cells have unphysical = 1)\n",
                  solver.step(), solver.time(), file.string().c_str());
  };
#else
  noteNoVtkOutput(run);
  const auto writeOutput = [] {};
  const auto series = [] { return std::vector<std::pair<double, std::string>>{}; };
  const auto writeUnphysicalState = [] {};
#endif

  if (lead) {
    std::printf("tessera: %s, %dD, %lld patches of %d^%d cells on levels %d to %d, %lld cells, "
                "%d rank%s, %s with %s, CFL %.3g, to t = %g\n",
                request.caseFile.string().c_str(), Dim, amr->globalPatches(),
                solver.layout().cellsPerAxis, Dim, settings.minLevel, amr->finestLevel(),
                amr->globalCells(), ranks, ranks == 1 ? "" : "s", describe(scheme.spatial).c_str(),
                scheme.integrator.name, cfl, run.endTime);
    if (resumed)
      std::printf("tessera: continuing from %s at step %lld, t = %.17g\n",
                  request.restart->string().c_str(), resumed->step, resumed->time);
    if (equilibrium)
      std::printf("tessera: well balanced: the initial state at rest is kept to round-off\n");
  }
  if (!resumed)
    writeOutput();
  OutputSchedule schedule(run, resumed ? resumed->outputsDone : 0);
  // Collective: a checkpoint of the run as it stands.
  const auto writeCheckpoint = [&](const std::vector<std::pair<double, std::string>>& written) {
    const RunPoint at{solver.time(), solver.step(),        schedule.outputsDone(),
                      written,       amr->globalPatches(), {}};
    const auto folder = checkpoints.write(
        MPI_COMM_WORLD, at, [&](const auto& into) { return writeAmrCheckpointData(*amr, into); });
    if (log)
      log->checkpoint(solver.step(), solver.time(), folder);
    return folder;
  };
  // A stop asked for during the start (the first output of a large case can take a minute).
  AfterStep verdict = checkpoints.stopAsked(MPI_COMM_WORLD);
  setRunActivity(RunActivity::Stepping);
  const RegridTimes initialRegrids = amr->regridTimes(); // the initial data's, not stepping's
  try {
    while (verdict.signal == 0 && schedule.running(solver.time(), solver.step())) {
      Stopwatch watch;
      const double dt = stepToward(*amr, schedule.next(), schedule.slack());
      const bool reachesOutput = schedule.reached(solver.time(), solver.step());
      const double stepSeconds = watch.seconds();
      if (log)
        log->step({solver.step(), solver.time(), dt, int(amr->globalPatches()), amr->globalCells(),
                   amr->finestLevel() + 1, stepSeconds});
      if (reachesOutput)
        writeOutput();
      verdict = checkpoints.afterStep(MPI_COMM_WORLD, stepSeconds);
      if (verdict.signal != 0 || verdict.wallLimit)
        break;
      if (checkpoints.dueByRun(solver.time(), solver.step()) || verdict.wallCheckpoint) {
        amr->stableDt(); // collective: throws where the state is unphysical, before it is saved
        writeCheckpoint(series());
      }
    }
  } catch (const UnphysicalStateError&) {
    // The last good checkpoint stays as it was; the failing state goes to a diagnostic output
    // with its offending cells marked.
    writeUnphysicalState();
    throw;
  }
  const bool stoppedEarly = verdict.signal != 0 || verdict.wallLimit;
  if (!stoppedEarly)
    writeOutput();
  try {
    amr->stableDt(); // the last checkpoint, too, only of a physical state
  } catch (const UnphysicalStateError&) {
    writeUnphysicalState();
    throw;
  }
  const auto folder =
      checkpoints.dueAtStop(stoppedEarly) ? writeCheckpoint(series()) : std::filesystem::path();
  long long fallbacks = solver.firstOrderFallbacks();
  MPI_Allreduce(MPI_IN_PLACE, &fallbacks, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (log) {
    const StepTimes times = solver.times();
    const io::RunLog::PhaseSeconds phases{times.halo, times.update, times.reflux,
                                          amr->regridTimes().since(initialRegrids), times.exchange};
    log->finish(solver.step(), solver.time(), phases, fallbacks);
    if (totals)
      *totals = {solver.step(), amr->globalCells(),  log->cellUpdates(), log->steppingSeconds(),
                 phases,        log->outputSeconds()};
  }
  if (stoppedEarly)
    return reportEarlyStop(verdict, solver.step(), solver.time(), folder);
  if (lead && schedule.beforeEnd(solver.time()))
    std::printf("stopped at time.max_steps = %lld before time.end_time\n", run.maxSteps);
  return 0;
}

// Initial data that does not depend on the mesh.
template <class Initial>
auto fixedInitial(Initial ic) {
  return [ic](const auto&, const auto&) { return ic; };
}

// Each shipped system's case: its parameters, boundary inflow and initial states as the case file
// gives them. A system added to TESSERA_SHIPPED_SYSTEMS without one does not compile (runCase).
template <template <int> class System>
struct ShippedCase;

template <>
struct ShippedCase<Euler> {
  template <int Dim>
  static int run(Config& cfg, const RunRequest& request, RunTotals* totals) {
    Euler<Dim> pde;
    pde.gamma = cfg.getDouble("physics.gamma", 1.4, io::Range{1.0, 10.0, true, false});
    pde.gravity = toVec<Dim>(cfg.getDoubles("physics.gravity", std::vector<double>(Dim, 0.0), Dim));
    const PatchScheme scheme = readScheme<Euler<Dim>>(cfg);
    UniformPatchGrid<Dim> grid = readGrid<Dim>(cfg, Euler<Dim>::kNumVars, scheme.spatial.halo());
    const DomainBoundary<Dim> boundary = readBoundary<Dim>(cfg, [&] {
      const auto q = pde.toConserved(readEulerPrimitive<Dim>(cfg, "boundary.inflow"));
      return std::vector<double>(q.v, q.v + Euler<Dim>::kNumVars);
    });

    const std::string type =
        cfg.getChoice("initial.type", std::nullopt,
                      {"sedov", "riemann", "pulse", "vortex", "kelvin_helmholtz", "hydrostatic",
                       "rayleigh_taylor", "expression"});
    // The initial states that are, or grow from, a state at rest under gravity: a run is well
    // balanced about it unless physics.well_balanced = false.
    const bool atRest = type == "hydrostatic" || type == "rayleigh_taylor";
    const bool wellBalanced = cfg.getBool("physics.well_balanced", atRest);
    if (wellBalanced && !atRest)
      cfg.fail(ConfigErrorKind::Inconsistent, "physics.well_balanced",
               "needs an initial state at rest under gravity (initial.type = \"hydrostatic\" or "
               "\"rayleigh_taylor\"), not \"" +
                   type + "\"");
    if (atRest && !pde.hasSource())
      cfg.fail(ConfigErrorKind::Inconsistent, "physics.gravity",
               "must not be zero for initial.type = \"" + type + "\"");
    if (type == "hydrostatic") {
      HydrostaticAtmosphere<Dim> ic;
      ic.pde = pde;
      ic.density = cfg.getDouble("initial.density", 1.0, io::Range::positive());
      ic.pressure = cfg.getDouble("initial.pressure", 1.0, io::Range::positive());
      return simulate(cfg, request, totals, pde, scheme, fixedInitial(ic), grid, boundary,
                      wellBalanced
                          ? std::function<typename Euler<Dim>::State(const Vec<double, Dim>&)>(ic)
                          : nullptr);
    }
    if (type == "rayleigh_taylor") {
      RayleighTaylor<Dim> ic;
      ic.pde = pde;
      for (int a = 0; a + 1 < Dim; ++a)
        if (pde.gravity[a] != 0.0)
          cfg.fail(ConfigErrorKind::Inconsistent, "physics.gravity",
                   "must point along the last axis for initial.type = \"rayleigh_taylor\"");
      ic.heavy = cfg.getDouble("initial.heavy_density", 2.0, io::Range::positive());
      ic.light = cfg.getDouble("initial.light_density", 1.0, io::Range::positive());
      ic.pressure = cfg.getDouble("initial.pressure", 2.5, io::Range::positive());
      ic.amplitude = cfg.getDouble("initial.amplitude", 0.01);
      std::function<typename Euler<Dim>::State(const Vec<double, Dim>&)> background;
      if (wellBalanced)
        background = [ic](const Vec<double, Dim>& x) { return ic.atRest(x); };
      return simulate(cfg, request, totals, pde, scheme, fixedInitial(ic), grid, boundary,
                      background);
    }
    if (type == "expression")
      return simulate(cfg, request, totals, pde, scheme,
                      fixedInitial(io::readExpressionInitial(cfg, pde)), grid, boundary);
    if (type == "sedov") {
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
      return simulate(
          cfg, request, totals, pde, scheme,
          [ic](const PatchLayout<Dim>& layout,
               std::span<const PatchGeometry<Dim>> geometry) mutable {
            ic.placeOn(layout, geometry, MPI_COMM_WORLD);
            return ic;
          },
          grid, boundary);
    } else if (type == "vortex") {
      IsentropicVortex<Dim> ic;
      ic.pde = pde;
      std::vector<double> mid(Dim);
      for (int a = 0; a < Dim; ++a)
        mid[a] = 0.5 * (grid.lower()[a] + grid.upper()[a]);
      ic.centre = toVec<Dim>(cfg.getDoubles("initial.center", mid, Dim));
      ic.strength = cfg.getDouble("initial.strength", 5.0, io::Range::closed(0.0, 10.0));
      ic.velocity =
          toVec<Dim>(cfg.getDoubles("initial.velocity", std::vector<double>(Dim, 0.0), Dim));
      return simulate(cfg, request, totals, pde, scheme, fixedInitial(ic), grid, boundary);
    } else if (type == "kelvin_helmholtz") {
      KelvinHelmholtz<Dim> ic;
      ic.pde = pde;
      ic.inner = cfg.getDouble("initial.inner_density", 2.0, io::Range::positive());
      ic.outer = cfg.getDouble("initial.outer_density", 1.0, io::Range::positive());
      ic.shear = cfg.getDouble("initial.shear", 1.0);
      ic.pressure = cfg.getDouble("initial.pressure", 2.5, io::Range::positive());
      ic.amplitude = cfg.getDouble("initial.amplitude", 0.01);
      return simulate(cfg, request, totals, pde, scheme, fixedInitial(ic), grid, boundary);
    } else if (type == "riemann") {
      const RiemannProblem<Dim> ic = readRiemann<Dim>(cfg, pde, grid.lower(), grid.upper());
      return simulate(cfg, request, totals, pde, scheme, fixedInitial(ic), grid, boundary);
    } else {
      EulerPulse<Dim> ic;
      ic.pde = pde;
      ic.pulse = readPulse<Dim>(cfg, grid);
      if (ic.pulse.background + std::min(ic.pulse.amplitude, 0.0) <= 0.0)
        cfg.fail(ConfigErrorKind::Inconsistent, "initial.amplitude",
                 "the density background + amplitude must stay positive");
      ic.velocity =
          toVec<Dim>(cfg.getDoubles("initial.velocity", std::vector<double>(Dim, 0.0), Dim));
      ic.pressure = cfg.getDouble("initial.pressure", 1.0, io::Range::positive());
      return simulate(cfg, request, totals, pde, scheme, fixedInitial(ic), grid, boundary);
    }
  }
};

template <>
struct ShippedCase<Advection> {
  template <int Dim>
  static int run(Config& cfg, const RunRequest& request, RunTotals* totals) {
    Advection<Dim> pde;
    pde.velocity =
        toVec<Dim>(cfg.getDoubles("physics.velocity", std::vector<double>(Dim, 1.0), Dim));
    const PatchScheme scheme = readScheme<Advection<Dim>>(cfg);
    UniformPatchGrid<Dim> grid = readGrid<Dim>(cfg, 1, scheme.spatial.halo());
    const DomainBoundary<Dim> boundary = readBoundary<Dim>(cfg, [&] {
      return std::vector<double>{cfg.getDouble("boundary.inflow.value", std::nullopt)};
    });
    if (cfg.getChoice("initial.type", std::nullopt, {"pulse", "expression"}) == "expression")
      return simulate(cfg, request, totals, pde, scheme,
                      fixedInitial(io::readExpressionInitial(cfg, pde)), grid, boundary);
    ScalarPulse<Dim> ic{readPulse<Dim>(cfg, grid)};
    return simulate(cfg, request, totals, pde, scheme, fixedInitial(ic), grid, boundary);
  }
};

} // namespace

int runCase(const RunRequest& request, RunTotals* totals) {
  Config cfg = Config::fromFile(request.caseFile);
  for (const std::string& assignment : request.overrides)
    cfg.applyOverride(assignment);
  if (cfg.getChoice("mesh.type", "patches", {"patches", "unstructured"}) == "unstructured")
    return runUnstructuredCase(cfg, request);
  const int dim = cfg.getInt("mesh.dimension", 2, io::Range::closed(2, 3));
  const std::string system = cfg.getChoice(
      "physics.system", Euler<2>::kName,
      std::vector<std::string>(std::begin(kShippedSystemNames), std::end(kShippedSystemNames)));
#define TESSERA_RUN_IF_CHOSEN(System)                                                              \
  if (system == System<2>::kName)                                                                  \
    return dim == 2 ? ShippedCase<System>::run<2>(cfg, request, totals)                            \
                    : ShippedCase<System>::run<3>(cfg, request, totals);
  TESSERA_SHIPPED_SYSTEMS(TESSERA_RUN_IF_CHOSEN)
#undef TESSERA_RUN_IF_CHOSEN
  throw std::logic_error("runCase: physics.system = " + system + " has no case");
}

} // namespace tessera::cli
