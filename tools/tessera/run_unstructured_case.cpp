#include "tools/tessera/run_unstructured_case.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mpi.h>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "drivers/step_toward.hpp"
#include "drivers/unstructured_checkpoint.hpp"
#include "engine/atomics/tuner.hpp"
#include "engine/linalg/precision.hpp"
#include "engine/memory.hpp"
#include "engine/timer.hpp"
#include "io/run_log.hpp"
#include "solvers/unstructured/distributed_unstructured_euler.hpp"
#include "solvers/unstructured/distributed_unstructured_implicit.hpp"
#include "solvers/unstructured/unstructured_euler.hpp"
#include "tools/tessera/implicit_progress_values.hpp"
#include "tools/tessera/run_checkpoints.hpp"
#include "tools/tessera/run_settings.hpp"
#include "tools/tessera/unstructured_case_reader.hpp"
#if TESSERA_HAS_VTK
#include "io/surface_output.hpp"
#include "io/unstructured_output.hpp"
#endif

namespace tessera::cli {

using io::Config;
using io::ConfigErrorKind;

namespace {

// The header's note of a second-order run's first-order start ("" where it has none).
std::string describeFirstOrderStart(const UnstructuredScheme& scheme,
                                    const ImplicitSettings& settings) {
  if (!scheme.secondOrder() || (settings.firstOrderIterations <= 0 && settings.firstOrderDrop <= 0))
    return "";
  char until[96] = "";
  if (settings.firstOrderIterations > 0 && settings.firstOrderDrop > 0)
    std::snprintf(until, sizeof until, "for %d iterations or a residual drop of %.3g",
                  settings.firstOrderIterations, settings.firstOrderDrop);
  else if (settings.firstOrderIterations > 0)
    std::snprintf(until, sizeof until, "for %d iterations", settings.firstOrderIterations);
  else
    std::snprintf(until, sizeof until, "to a residual drop of %.3g", settings.firstOrderDrop);
  return std::string(", first order ") + until;
}

// The solver whose scatters are tuned and whose mesh is written: the rank's own.
UnstructuredEuler& localSolver(UnstructuredEuler& solver) {
  return solver;
}
UnstructuredEuler& localSolver(DistributedUnstructuredEuler& solver) {
  return solver.solver();
}

// What a rank writes: all cells on one rank, the owned cells with their global ids on several;
// collective, rank 0 last (writeRankZeroLast).
#if TESSERA_HAS_VTK
// The primitive variables' gradients where an output field needs them (vorticity, schlieren).
std::vector<double> gradientsFor(const io::OutputFields& fields, UnstructuredEuler& solver) {
  return fields.needNeighbours() ? solver.primitiveGradients() : std::vector<double>{};
}

std::filesystem::path writeCells(io::UnstructuredSeriesWriter& writer, long long step, double time,
                                 UnstructuredEuler& solver, const io::OutputFields& fields,
                                 const std::vector<int>& fileCell) {
  const std::vector<double> gradients = gradientsFor(fields, solver);
  return writeRankZeroLast([&] {
    return writer.write(int(step), time, solver.mesh(),
                        io::eulerCellFields(solver.pde(), solver.hostState(), fields, gradients),
                        {-1, fileCell});
  });
}
std::filesystem::path writeCells(io::UnstructuredSeriesWriter& writer, long long step, double time,
                                 DistributedUnstructuredEuler& solver,
                                 const io::OutputFields& fields, const std::vector<int>& fileCell) {
  const unstructured::LocalMesh& local = solver.localMesh();
  std::vector<int> ids(std::size_t(local.numOwned));
  for (std::size_t c = 0; c < ids.size(); ++c)
    ids[c] = fileCell[std::size_t(local.globalCell[c])];
  // The owned cells' gradients come first; their neighbours' states are current (the halo).
  const std::vector<double> gradients = gradientsFor(fields, solver.solver());
  return writeRankZeroLast([&] {
    return writer.write(
        int(step), time, local.mesh,
        io::eulerCellFields(solver.solver().pde(), solver.ownedState(), fields, gradients),
        {local.numOwned, ids});
  });
}
#endif

int globalCells(const UnstructuredEuler& solver) {
  return solver.numCells();
}
int globalCells(const DistributedUnstructuredEuler& solver) {
  return solver.numGlobalCells();
}

// The cells whose states a rank keeps in a checkpoint, by their index in the case's mesh: all of
// them on one rank, the owned ones of a distributed solver.
std::vector<int> checkpointCells(const UnstructuredEuler& solver) {
  std::vector<int> cells(std::size_t(solver.numCells()));
  std::iota(cells.begin(), cells.end(), 0);
  return cells;
}
std::vector<int> checkpointCells(const DistributedUnstructuredEuler& solver) {
  const unstructured::LocalMesh& local = solver.localMesh();
  return {local.globalCell.begin(), local.globalCell.begin() + local.numOwned};
}
std::vector<double> checkpointState(const UnstructuredEuler& solver) {
  return solver.hostState();
}
std::vector<double> checkpointState(const DistributedUnstructuredEuler& solver) {
  return solver.ownedState();
}

// The face scatters' strategies a case forces (nullopt: tune), by EulerScatter.
using Strategies = std::array<std::optional<atomics::Strategy>, kEulerScatters.size()>;

// A checkpoint's solver values naming the face scatters' strategies: a continued run adds its
// face contributions in the order the first part did.
std::string strategyKey(EulerScatter scatter) {
  return std::string(eulerScatterName(scatter)) + "_strategy";
}
std::vector<std::pair<std::string, std::string>> strategyValues(const UnstructuredEuler& solver) {
  std::vector<std::pair<std::string, std::string>> values;
  for (EulerScatter scatter : kEulerScatters)
    values.emplace_back(strategyKey(scatter),
                        std::string(atomics::strategyName(solver.strategy(scatter))));
  return values;
}
// The strategies of a restart: those the case sets, else those of the checkpoint's run (the
// gradient's is tuned anew where a first-order run wrote the checkpoint without one).
Strategies restartStrategies(Strategies forced, const io::CheckpointInfo& info,
                             const std::filesystem::path& file) {
  for (EulerScatter scatter : kEulerScatters) {
    std::optional<atomics::Strategy>* strategy = &forced[std::size_t(scatter)];
    if (*strategy)
      continue;
    const bool recorded = std::any_of(info.solver.begin(), info.solver.end(), [&](const auto& v) {
      return v.first == strategyKey(scatter);
    });
    if (scatter == EulerScatter::Gradient && !recorded)
      continue;
    const std::string& name = info.solverValue(file, strategyKey(scatter));
    *strategy = atomics::parseStrategy(name);
    if (!*strategy)
      throw io::CheckpointError(file.string() + ": damaged: solver." + strategyKey(scatter) +
                                " = \"" + name + "\" is no strategy");
  }
  return forced;
}

// Where a checkpoint of the run goes, when, and the one it continues from.
struct UnstructuredCheckpoints {
  CheckpointSettings settings;
  CaseFacts facts;
  std::optional<io::CheckpointInfo> resumed;
  std::string backend;
};

// Collective: rank 0 creates the output folder and returns the run's log, with the face
// scatters' strategies recorded; the other ranks get none.
std::optional<io::RunLog>
openRunLog(const Config& cfg, const RunSettings& run,
           const std::vector<std::pair<EulerScatter, atomics::TunerChoice>>& strategies,
           bool continuing) {
  std::optional<io::RunLog> log = openLeadRunLog(cfg, run, continuing);
  if (log)
    for (const auto& [scatter, choice] : strategies)
      log->atomicStrategy(eulerScatterName(scatter), choice);
  return log;
}

// The forces on the walls (every rank's part summed) into the log: per slip-wall tag, by its name
// (its number where the mesh names none), and the coefficients of all walls together.
void logForces(std::optional<io::RunLog>& log, const unstructured::Mesh& mesh,
               const std::vector<TagForce>& forces, const ForceSettings& settings, long long step) {
  if (!log || forces.empty())
    return;
  std::vector<io::BoundaryForce> walls;
  Vector3 force{}, moment{};
  for (const TagForce& t : forces) {
    const auto name = mesh.tagNames.find(t.tag);
    walls.push_back(
        {name != mesh.tagNames.end() ? name->second : std::to_string(t.tag), t.force, t.moment});
    for (std::size_t a = 0; a < 3; ++a) {
      force[a] += t.force[a];
      moment[a] += t.moment[a];
    }
  }
  std::optional<io::ForceCoefficientsRecord> c;
  if (settings.reference) {
    const ForceCoefficients k = coefficients(force, moment, *settings.reference);
    c = io::ForceCoefficientsRecord{k.lift, k.drag, k.moment};
  }
  log->forces(step, walls, c);
}

#if TESSERA_HAS_VTK
bool hasWalls(const UnstructuredBoundary& boundary) {
  return std::any_of(boundary.kindOfTag.begin(), boundary.kindOfTag.end(),
                     [](const auto& tagKind) { return tagKind.second == FaceKind::SlipWall; });
}

// One output step of the walls' surface series: pressure, the pressure coefficient (where the
// forces have a reference: (p - p_inf) / q_inf) and the Mach number of the fluid at each of this
// rank's wall faces. Every rank writes its piece, empty or not.
void writeSurface(io::UnstructuredSurfaceWriter& writer, long long step, double time,
                  const UnstructuredEuler& local, const UnstructuredEuler::WallSurface& surface,
                  const ForceSettings& settings) {
  const Euler<3>& pde = local.pde();
  const std::size_t faces = surface.faces.size();
  std::vector<io::CellField> fields{{"pressure", 1, std::vector<double>(faces)},
                                    {"mach", 1, std::vector<double>(faces)}};
  if (settings.reference)
    fields.push_back({"pressure_coefficient", 1, std::vector<double>(faces)});
  const double farfieldPressure = pde.pressure(local.boundary().farfield);
  for (std::size_t i = 0; i < faces; ++i) {
    Euler<3>::State q;
    for (int v = 0; v < 5; ++v)
      q[v] = surface.states[5 * i + std::size_t(v)];
    const Euler<3>::State w = pde.toPrimitive(q);
    fields[0].values[i] = w[4];
    fields[1].values[i] = std::sqrt(w[1] * w[1] + w[2] * w[2] + w[3] * w[3]) / pde.soundSpeed(q);
    if (settings.reference)
      fields[2].values[i] = (w[4] - farfieldPressure) / settings.reference->dynamicPressure;
  }
  writer.write(int(step), time, local.mesh(), surface.faces, fields);
}

// The surface series' files of the output steps a continued run's first part wrote: the cells'
// <name>_<step>.pvtu becomes <name>_surface_<step>.pvtp.
std::vector<std::pair<double, std::string>>
surfaceSteps(const std::vector<std::pair<double, std::string>>& cellSteps,
             const std::string& name) {
  std::vector<std::pair<double, std::string>> steps;
  for (const auto& [time, file] : cellSteps) {
    std::string surface = file;
    if (surface.starts_with(name + "_") && surface.ends_with(".pvtu"))
      surface = name + "_surface_" +
                surface.substr(name.size() + 1, surface.size() - name.size() - 6) + ".pvtp";
    steps.emplace_back(time, surface);
  }
  return steps;
}
#endif

// Tunes (or sets) the face scatters of the rank's solver (the gradient's at second order only),
// printing and returning the choices; collective for a distributed solver's share. The gradient's
// first: the residual's tuning times whole residuals, whose gradient on tetrahedra (68 node
// neighbours a cell) costs more than their fluxes unless its own strategy has been picked.
std::vector<std::pair<EulerScatter, atomics::TunerChoice>>
chooseStrategies(UnstructuredEuler& solver, const Strategies& forced, bool print) {
  std::vector<std::pair<EulerScatter, atomics::TunerChoice>> chosen;
  for (EulerScatter scatter :
       {EulerScatter::Gradient, EulerScatter::Residual, EulerScatter::WaveSpeed}) {
    if (scatter == EulerScatter::Gradient && !solver.scheme().secondOrder())
      continue;
    const std::optional<atomics::Strategy>& strategy = forced[std::size_t(scatter)];
    atomics::TunerChoice choice{strategy.value_or(atomics::Strategy::GlobalAtomic), true, {}};
    if (strategy)
      solver.setStrategy(scatter, *strategy);
    else
      choice = solver.tuneStrategy(scatter, atomics::kAllStrategies);
    if (print)
      std::printf("tessera: atomic strategy of the %s scatter: %s\n",
                  std::string(eulerScatterName(scatter)).c_str(),
                  atomics::describe(choice).c_str());
    chosen.emplace_back(scatter, choice);
  }
  return chosen;
}

// Explicit time stepping to the end time on one rank (UnstructuredEuler) or several
// (DistributedUnstructuredEuler: every rank takes the same steps and writes its owned cells; rank
// 0 prints, logs and writes the .pvtu and .pvd), or from a checkpoint on; with checkpoints, stop
// signals and run.wall_limit as a patch run has them. Returns the exit code.
template <class Solver>
int runExplicit(Solver& solver, double cfl, int faces, const Config& cfg, const RunRequest& request,
                const RunSettings& run, const ConservedAt& initial, Strategies forced,
                const UnstructuredCheckpoints& kept, const std::vector<int>& fileCell,
                const ForceSettings& forceSettings) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const bool lead = rank == 0;
  const long long cells = globalCells(solver);
  solver.initialise(initial);
  const std::optional<io::CheckpointInfo>& resumed = kept.resumed;
  if (resumed) {
    const std::vector<double> state =
        readCellStates(MPI_COMM_WORLD, *request.restart, cells, checkpointCells(solver));
    solver.restore(state, resumed->time, resumed->step);
    forced = restartStrategies(forced, *resumed, *request.restart / "checkpoint.toml");
  }
  // The tuner times each face scatter on this mesh and state with every strategy, unless the case
  // (or the checkpoint it continues) sets one.
  const auto strategies = chooseStrategies(localSolver(solver), forced, lead);

  std::optional<io::RunLog> log = openRunLog(cfg, run, strategies, resumed.has_value());
  RunCheckpoints checkpoints(kept.settings, run, kept.facts, cfg.effectiveToml(), kept.backend,
                             solver.time(), request.started);
#if TESSERA_HAS_VTK
  io::UnstructuredSeriesWriter writer(run.directory, run.name, rank, ranks);
  io::UnstructuredSurfaceWriter surfaceWriter(run.directory, run.name + "_surface", rank, ranks);
  const bool walls = hasWalls(localSolver(solver).boundary());
  if (resumed) {
    writer.resume(resumed->series);
    surfaceWriter.resume(surfaceSteps(resumed->series, run.name));
  }
  const auto writeOutput = [&] {
    logForces(log, localSolver(solver).mesh(), solver.wallForces(forceSettings.momentCentre),
              forceSettings, solver.step());
    writeOutputStep(run, log, solver.step(), solver.time(), [&] {
      if (walls) // of the residual the forces above have just computed
        writeSurface(surfaceWriter, solver.step(), solver.time(), localSolver(solver),
                     solver.wallSurface(true), forceSettings);
      return writeCells(writer, solver.step(), solver.time(), solver, run.outputFields, fileCell);
    });
  };
  const auto series = [&] { return writer.written(); };
#else
  noteNoVtkOutput(run);
  (void)fileCell; // what the output's cell_id would say
  const auto writeOutput = [&] {
    logForces(log, localSolver(solver).mesh(), solver.wallForces(forceSettings.momentCentre),
              forceSettings, solver.step());
  };
  const auto series = [] { return std::vector<std::pair<double, std::string>>{}; };
#endif

  if (lead) {
    const UnstructuredEuler& local = localSolver(solver);
    std::printf("tessera: %s, unstructured, %lld cells, %d faces, %d rank%s, %s, %s, CFL %.3g, to "
                "t = %g\n",
                request.caseFile.string().c_str(), cells, faces, ranks, ranks == 1 ? "" : "s",
                describe(local.scheme()).c_str(), local.integrator().name, cfl, run.endTime);
    if (resumed)
      std::printf("tessera: continuing from %s at step %lld, t = %.17g\n",
                  request.restart->string().c_str(), resumed->step, resumed->time);
  }
  if (!resumed)
    writeOutput();
  OutputSchedule schedule(run, resumed ? resumed->outputsDone : 0);
  // Collective: a checkpoint of the run as it stands, only of a physical state (stableDt throws
  // on any other).
  const auto writeCheckpoint = [&] {
    solver.stableDt();
    const RunPoint at{solver.time(), solver.step(), schedule.outputsDone(),
                      series(),      cells,         strategyValues(localSolver(solver))};
    const auto folder = checkpoints.write(MPI_COMM_WORLD, at, [&](const auto& into) {
      return writeCellStates(MPI_COMM_WORLD, into, cells, checkpointCells(solver),
                             checkpointState(solver));
    });
    if (log)
      log->checkpoint(solver.step(), solver.time(), folder);
    return folder;
  };
  double steppingSeconds = 0.0;
  // A stop asked for during the start (its first output).
  AfterStep verdict = checkpoints.stopAsked(MPI_COMM_WORLD);
  setRunActivity(RunActivity::Stepping);
  while (verdict.signal == 0 && schedule.running(solver.time(), solver.step())) {
    Stopwatch watch;
    const double dt = stepToward(solver, schedule.next(), schedule.slack());
    synchronizeDevice(); // the step's time includes its device work
    const double seconds = watch.seconds();
    steppingSeconds += seconds;
    const bool reachesOutput = schedule.reached(solver.time(), solver.step());
    if (log)
      log->step({solver.step(), solver.time(), dt, 0, cells, 1, seconds});
    if (reachesOutput)
      writeOutput();
    verdict = checkpoints.afterStep(MPI_COMM_WORLD, seconds);
    if (verdict.signal != 0 || verdict.wallLimit)
      break;
    if (checkpoints.dueByRun(solver.time(), solver.step()) || verdict.wallCheckpoint)
      writeCheckpoint();
  }
  const bool stoppedEarly = verdict.signal != 0 || verdict.wallLimit;
  if (!stoppedEarly)
    writeOutput();
  solver.stableDt(); // collective: the end state, too, must be physical
  const auto folder =
      checkpoints.dueAtStop(stoppedEarly) ? writeCheckpoint() : std::filesystem::path();
  if (log)
    log->finish(solver.step(), solver.time(), {0.0, steppingSeconds, 0.0, {}});
  if (stoppedEarly)
    return reportEarlyStop(verdict, solver.step(), solver.time(), folder);
  if (lead && schedule.beforeEnd(solver.time()))
    std::printf("stopped at time.max_steps = %lld before time.end_time\n", run.maxSteps);
  return 0;
}

// Backward-Euler pseudo-time steps to the steady state, on one rank or several
// (DistributedUnstructuredImplicit: every rank sweeps its owned rows and writes its owned cells;
// rank 0 prints a line per step, logs and writes the .pvtu and .pvd), or from a checkpoint on;
// checkpoints by iteration count and wall time, stop signals and run.wall_limit as an explicit run
// has them. Returns the exit code.
template <class Precision>
int runImplicit(const Config& cfg, const RunRequest& request, const RunSettings& run,
                const ImplicitCase& implicit, const Euler<3>& pde, const unstructured::Mesh& mesh,
                const UnstructuredBoundary& boundary, const ConservedAt& initial, MemorySpace space,
                const UnstructuredScheme& scheme, Strategies forced,
                const UnstructuredCheckpoints& kept, const std::vector<int>& fileCell,
                const ForceSettings& forceSettings) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const bool lead = rank == 0;
  const long long cells = mesh.numCells();
  DistributedUnstructuredImplicit<Precision> solver(MPI_COMM_WORLD, pde, mesh, boundary,
                                                    implicit.settings, space, scheme);
  solver.initialise(initial);
  const std::optional<io::CheckpointInfo>& resumed = kept.resumed;
  if (resumed) {
    const std::filesystem::path file = *request.restart / "checkpoint.toml";
    const ImplicitProgress progress = implicitProgressFrom(*resumed, file);
    solver.restore(
        readCellStates(MPI_COMM_WORLD, *request.restart, cells, checkpointCells(solver.euler())),
        progress);
    forced = restartStrategies(forced, *resumed, file);
  }
  UnstructuredEuler& local = solver.euler().solver();
  const auto strategies = chooseStrategies(local, forced, lead);
  // The diagonal blocks' scatter (25 values per face) takes the residual's strategy (5 values,
  // the same faces in the same order) rather than a tuning of its own.
  solver.setJacobianStrategy(local.strategy(EulerScatter::Residual));

  std::optional<io::RunLog> log = openRunLog(cfg, run, strategies, resumed.has_value());
  RunCheckpoints checkpoints(kept.settings, run, kept.facts, cfg.effectiveToml(), kept.backend, 0.0,
                             request.started);
#if TESSERA_HAS_VTK
  io::UnstructuredSeriesWriter writer(run.directory, run.name, rank, ranks,
                                      io::SeriesClock::Iteration);
  io::UnstructuredSurfaceWriter surfaceWriter(run.directory, run.name + "_surface", rank, ranks,
                                              io::SeriesClock::Iteration);
  const bool walls = hasWalls(local.boundary());
  if (resumed) {
    writer.resume(resumed->series);
    surfaceWriter.resume(surfaceSteps(resumed->series, run.name));
  }
  // A steady run numbers its outputs by iteration: each piece says so (field data "iteration"),
  // and the series is ordered by it.
  const auto writeOutputAt = [&](long long iteration) {
    writeOutputStep(run, log, iteration, double(iteration), [&] {
      if (walls)
        writeSurface(surfaceWriter, iteration, double(iteration), local,
                     solver.euler().wallSurface(), forceSettings);
      return writeCells(writer, iteration, double(iteration), solver.euler(), run.outputFields,
                        fileCell);
    });
  };
  const auto series = [&] { return writer.written(); };
#else
  noteNoVtkOutput(run);
  (void)fileCell; // what the output's cell_id would say
  const auto writeOutputAt = [](long long) {};
  const auto series = [] { return std::vector<std::pair<double, std::string>>{}; };
#endif
  const ImplicitSettings& settings = implicit.settings;
  if (lead) {
    std::string linear = std::to_string(settings.sweeps) + " sweeps";
    if (settings.linearSolver == LinearSolver::Gmres)
      linear = "Newton-Krylov: GMRES of " + std::to_string(settings.krylovVectors) +
               " vectors preconditioned by " + linear + " (up to " +
               std::to_string(kMostPreconditionerSweeps * settings.sweeps) + " after GMRES stalls)";
    std::printf("tessera: %s, unstructured, %d cells, %d faces, %d rank%s, %s, implicit (%s's "
                "Jacobian, CFL up to %g, %s, %s, %d colors), residual drop %.3g%s\n",
                request.caseFile.string().c_str(), mesh.numCells(), mesh.numFaces(), ranks,
                ranks == 1 ? "" : "s", describe(local.scheme()).c_str(),
                kJacobianFluxNames[int(settings.jacobian)], settings.cflMax,
                Precision::kName.data(), linear.c_str(), solver.numColors(), settings.residualDrop,
                describeFirstOrderStart(local.scheme(), settings).c_str());
    if (resumed)
      std::printf("tessera: continuing from %s at iteration %lld\n",
                  request.restart->string().c_str(), resumed->step);
  }
  if (!resumed)
    writeOutputAt(0);
  // Collective: a checkpoint of the iteration as it stands, only of a physical state (stableDt
  // throws on any other).
  const auto writeCheckpoint = [&] {
    solver.euler().stableDt();
    std::vector<std::pair<std::string, std::string>> values = strategyValues(local);
    for (auto& value : implicitProgressValues(solver.progress()))
      values.push_back(std::move(value));
    const RunPoint at{0.0, solver.iteration(), 0, series(), cells, std::move(values)};
    const auto folder = checkpoints.write(MPI_COMM_WORLD, at, [&](const auto& into) {
      return writeCellStates(MPI_COMM_WORLD, into, cells, checkpointCells(solver.euler()),
                             solver.ownedState());
    });
    if (log)
      log->checkpoint(solver.iteration(), 0.0, folder);
    return folder;
  };
  PseudoTimeStep last;
  // A stop asked for during the start (its first output).
  AfterStep verdict = checkpoints.stopAsked(MPI_COMM_WORLD);
  setRunActivity(RunActivity::Stepping);
  Stopwatch stepWatch; // since the measurement before
  while (verdict.signal == 0) {
    last = solver.measure();
    if (log)
      log->iteration({last.iteration, last.residual, last.relativeResidual, last.cfl,
                      stepWatch.seconds(), last.relaxation, last.firstOrder, last.limiterFrozen,
                      last.limiterRefreshed, last.krylovVectors, last.linearResidual,
                      last.preconditionerSweeps});
    // The measurement has just computed the residual of this state: its forces come at no
    // second residual.
    logForces(log, local.mesh(), solver.euler().wallForces(forceSettings.momentCentre, true),
              forceSettings, last.iteration);
    stepWatch.restart();
    if (solver.finished(last))
      break;
    solver.step(last.cfl);
    verdict = checkpoints.afterStep(MPI_COMM_WORLD, stepWatch.seconds());
    if (verdict.signal != 0 || verdict.wallLimit)
      break;
    if (checkpoints.dueByRun(0.0, solver.iteration()) || verdict.wallCheckpoint)
      writeCheckpoint();
  }
  const bool stoppedEarly = verdict.signal != 0 || verdict.wallLimit;
  if (!stoppedEarly)
    writeOutputAt(last.iteration);
  const auto folder =
      checkpoints.dueAtStop(stoppedEarly) ? writeCheckpoint() : std::filesystem::path();
  // Collective: what a frozen limiter's convergence leaves of the scheme's own residual.
  const double live = solver.liveRelativeResidual();
  if (log)
    log->finishSteady(solver.iteration(), last.relativeResidual, live);
  if (stoppedEarly)
    return reportEarlyStop(verdict, solver.iteration(), 0.0, folder);
  if (lead && last.iteration >= settings.maxIterations)
    std::printf("stopped at implicit.max_iterations = %d before implicit.residual_drop\n",
                settings.maxIterations);
  return 0;
}

} // namespace

int runUnstructuredCase(Config& cfg, const RunRequest& request) {
  cfg.getChoice("physics.system", "euler", {"euler"});
  Euler<3> pde;
  pde.gamma = cfg.getDouble("physics.gamma", 1.4, io::Range{1.0, 10.0, true, false});
  CaseMesh caseMesh = readUnstructuredMesh(cfg, request.caseFile);
  unstructured::Mesh& mesh = caseMesh.mesh;
  const std::vector<int>& fileCell = caseMesh.fileCell;
  const UnstructuredBoundary boundary = readUnstructuredBoundary(cfg, mesh, pde);
  const ForceSettings forceSettings = readForceSettings(cfg, boundary, pde);
  const ConservedAt initial = readUnstructuredInitial(cfg, mesh, pde);
  const UnstructuredScheme scheme = readUnstructuredScheme(cfg);
  const std::optional<ImplicitCase> implicit = readImplicit(cfg, scheme);
  // dt = cfl * min over cells of V / sum over faces of |S| lambda: positive up to 1 at first order.
  // Unlimited second order (a smooth region, where Venkatakrishnan's limiter stays off) with
  // SSP-RK2 is stable only below that: on the mixed test box a freestream's round-off grows at
  // 0.7 and above, not at 0.5 (tests/regression/test_unstructured_freestream.cpp). Pseudo-time
  // steps have their own CFL numbers.
  const double cfl = implicit ? 0.9
                              : cfg.getDouble("time.cfl", scheme.secondOrder() ? 0.5 : 0.9,
                                              io::Range{kSmallestCfl, 1.0, false, false});
  const RungeKutta integrator = implicit ? kForwardEuler : readUnstructuredIntegrator(cfg, scheme);
  Strategies strategies;
  for (EulerScatter scatter : kEulerScatters)
    strategies[std::size_t(scatter)] = readAtomicStrategy(cfg, scatter);
  RunSettings run = readRunSettings(cfg, request, !implicit);
  run.outputFields = readOutputFields<Euler<3>>(cfg, true);
  if (run.outputFormat == io::PatchOutputFormat::Amr)
    cfg.fail(ConfigErrorKind::Inconsistent, "output.format",
             "is for patch meshes, whose patches make the AMR dataset's blocks; an unstructured "
             "mesh writes \"unstructured\"");
  if (implicit && cfg.has("checkpoint.interval"))
    cfg.fail(ConfigErrorKind::Inconsistent, "checkpoint.interval",
             "is simulated time, which a steady (implicit) run does not have: use "
             "checkpoint.every_steps, which counts its iterations");
  UnstructuredCheckpoints kept;
  kept.settings = readCheckpointSettings(cfg, run);
  const MemorySpace space = readBackend(cfg);
  kept.backend = space == MemorySpace::Device ? "device" : "host";
  cfg.rejectUnreadKeys(); // every key has been read: anything left is a mistake
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks > mesh.numCells()) // the partition gives every rank a cell at least
    cfg.fail(ConfigErrorKind::Inconsistent, cfg.has("mesh.file") ? "mesh.file" : "mesh.box.cells",
             "gives " + std::to_string(mesh.numCells()) + " cells for " + std::to_string(ranks) +
                 " MPI ranks: run on at most " + std::to_string(mesh.numCells()));
  kept.facts = {{"mesh.type", "unstructured"},
                {"mesh.cells", std::to_string(mesh.numCells())},
                {"mesh.fingerprint", meshFingerprint(mesh)},
                {"physics.system", "euler"},
                {"implicit.enabled", implicit ? "true" : "false"}};
  if (request.restart)
    kept.resumed = openCheckpoint(MPI_COMM_WORLD, *request.restart, kept.facts, {io::kStateFile});
  if (request.checkOnly) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
      std::printf("# The effective configuration of %s\n%s\n", request.caseFile.string().c_str(),
                  cfg.effectiveToml().c_str());
      std::printf("tessera: a valid case: unstructured, %d cells, %d faces, %d nodes, %s\n",
                  mesh.numCells(), mesh.numFaces(), mesh.numNodes(),
                  implicit ? "implicit to a steady state" : "explicit");
      if (kept.resumed)
        std::printf("tessera: it would continue from %s at step %lld\n",
                    request.restart->string().c_str(), kept.resumed->step);
    }
    return 0;
  }
  if (implicit) {
    if (implicit->mixedPrecision)
      return runImplicit<linalg::MixedPrecision>(cfg, request, run, *implicit, pde, mesh, boundary,
                                                 initial, space, scheme, strategies, kept, fileCell,
                                                 forceSettings);
    return runImplicit<linalg::DoublePrecision>(cfg, request, run, *implicit, pde, mesh, boundary,
                                                initial, space, scheme, strategies, kept, fileCell,
                                                forceSettings);
  }
  const int faces = mesh.numFaces();
  if (ranks == 1) {
    UnstructuredEuler solver(pde, std::move(mesh), boundary, cfl, space, scheme, integrator);
    return runExplicit(solver, cfl, faces, cfg, request, run, initial, strategies, kept, fileCell,
                       forceSettings);
  }
  DistributedUnstructuredEuler solver(MPI_COMM_WORLD, pde, mesh, boundary, cfl, space, scheme,
                                      integrator);
  return runExplicit(solver, cfl, faces, cfg, request, run, initial, strategies, kept, fileCell,
                     forceSettings);
}

} // namespace tessera::cli
