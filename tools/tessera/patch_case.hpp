#pragma once
// A case on patches for any system a program registered (CaseSystem, case_system.hpp): the
// system, scheme, mesh, boundary, AMR, initial state and hook from the case file, then the run
// itself with everything the tessera program gives a run (checks before the first step, memory
// estimate, checkpoints and --restart, signals and run.wall_limit, progress, summary, log.jsonl,
// output). Templates, so that a program's own system compiles its run where the program is.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <mpi.h>
#include <optional>
#include <string>
#include <vector>

#include "drivers/amr_checkpoint.hpp"
#include "drivers/amr_solver.hpp"
#include "drivers/step_toward.hpp"
#include "engine/timer.hpp"
#include "io/config.hpp"
#include "io/expression_initial.hpp"
#include "io/run_log.hpp"
#include "physics/optional_members.hpp"
#include "solvers/unphysical_state.hpp"
#include "tools/tessera/case_reader.hpp"
#include "tools/tessera/case_system.hpp"
#include "tools/tessera/memory_estimate.hpp"
#include "tools/tessera/run_case.hpp"
#include "tools/tessera/run_checkpoints.hpp"
#include "tools/tessera/run_settings.hpp"
#if TESSERA_HAS_VTK
#include "io/patch_output.hpp"
#include "io/patch_series.hpp"
#endif

namespace tessera::cli {
namespace detail {

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
// point), the run is well balanced about it (PatchSolver::setEquilibrium); where a hook is given
// (its state set), it gives the hooked faces' halo cells. On several MPI ranks
// every rank steps its patches and writes them as its piece of each output step; rank 0 prints,
// logs and writes the .pvtu and .pvd. Returns the exit code (run_case.hpp).
template <ConservationLaw PDE, class MakeInitial>
int simulate(Config& cfg, const RunRequest& request, RunTotals* totals, PDE pde,
             const PatchScheme& scheme, MakeInitial makeInitial,
             const UniformPatchGrid<PDE::kDim>& level0, const DomainBoundary<PDE::kDim>& boundary,
             const ConservedAt<PDE>& equilibrium,
             const BoundaryHook<PDE::kDim, PDE::kNumVars>& hook) {
  constexpr int Dim = PDE::kDim;
  const auto [settings, criterion] = readAmr<PDE>(cfg);
  const bool overlapExchange = cfg.getBool("run.exchange_overlap", true);
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
  const auto hooked = [&] {
    if (hook.state)
      amr->solver().setBoundaryHook(hook);
  };
  if (resumed) {
    const typename AmrSolver<PDE>::SavedForest saved{*request.restart / kForestFile,
                                                     resumed->ranks == ranks};
    amr.emplace(MPI_COMM_WORLD, pde, level0.layout(), level0.patchesPerAxis(), level0.lower(),
                level0.upper(), boundary, settings, criterion, cfl, saved, space, scheme);
    hooked();
    restoreAmrCheckpointData(*amr, *request.restart, *resumed);
  } else {
    amr.emplace(MPI_COMM_WORLD, pde, level0.layout(), level0.patchesPerAxis(), level0.lower(),
                level0.upper(), boundary, settings, criterion, cfl, space, scheme);
    hooked();
    amr->initialise(makeInitial);
  }
  PatchSolver<PDE>& solver = amr->solver();
  solver.setExchangeOverlap(overlapExchange);
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

} // namespace detail

// Runs a case of `system` (physics.system = PDE::kName, mesh.dimension = PDE::kDim); returns the
// exit code as runCase does.
template <ConservationLaw PDE>
int runPatchCase(io::Config& cfg, const RunRequest& request, RunTotals* totals,
                 const CaseSystem<PDE>& system) {
  constexpr int Dim = PDE::kDim;
  const PDE pde = system.make(cfg);
  const PatchScheme scheme = readScheme<PDE>(cfg);
  const UniformPatchGrid<Dim> grid = readGrid<Dim>(cfg, PDE::kNumVars, scheme.spatial.halo());
  const DomainBoundary<Dim> boundary = readBoundary<Dim>(cfg, [&] {
    if (!system.inflow)
      cfg.fail(io::ConfigErrorKind::Inconsistent, "boundary",
               std::string("an \"inflow\" face needs an inflow state, which physics.system = ") +
                   PDE::kName + " does not have");
    const typename PDE::State q = system.inflow(cfg, pde);
    return std::vector<double>(q.v, q.v + PDE::kNumVars);
  });
  std::vector<std::string> types;
  for (const auto& entry : system.initial)
    types.push_back(entry.first);
  types.push_back("expression");
  const std::string type = cfg.getChoice("initial.type", std::nullopt, types);
  InitialState<PDE> initial = type == "expression"
                                  ? InitialState<PDE>::fixed(io::readExpressionInitial(cfg, pde))
                                  : system.initial.at(type)(cfg, pde, grid);
  // Well balanced about the initial state's equilibrium, where it has one, unless the case says
  // otherwise.
  const bool balanced = cfg.getBool("physics.well_balanced", bool(initial.equilibrium));
  if (balanced && !initial.equilibrium)
    cfg.fail(io::ConfigErrorKind::Inconsistent, "physics.well_balanced",
             "needs an initial state at rest to balance about, which initial.type = \"" + type +
                 "\" does not give");
  if (!balanced)
    initial.equilibrium = nullptr;
  BoundaryHook<Dim, PDE::kNumVars> hook;
  if (!system.hooks.empty()) {
    std::vector<std::string> hooks{"none"};
    for (const auto& entry : system.hooks)
      hooks.push_back(entry.first);
    const std::string name = cfg.getChoice("boundary.hook", "none", hooks);
    if (name != "none")
      hook = system.hooks.at(name)(cfg, pde, grid);
  }
  return detail::simulate(cfg, request, totals, pde, scheme, initial.onMesh, grid, boundary,
                          initial.equilibrium, hook);
}

} // namespace tessera::cli
