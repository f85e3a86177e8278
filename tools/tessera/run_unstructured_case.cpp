#include "tools/tessera/run_unstructured_case.hpp"

#include <cstdio>
#include <mpi.h>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "drivers/step_toward.hpp"
#include "engine/atomics/tuner.hpp"
#include "engine/linalg/precision.hpp"
#include "engine/memory.hpp"
#include "engine/timer.hpp"
#include "io/run_log.hpp"
#include "solvers/unstructured/distributed_unstructured_euler.hpp"
#include "solvers/unstructured/distributed_unstructured_implicit.hpp"
#include "solvers/unstructured/unstructured_euler.hpp"
#include "tools/tessera/run_settings.hpp"
#include "tools/tessera/unstructured_case_reader.hpp"
#if TESSERA_HAS_VTK
#include "io/unstructured_output.hpp"
#endif

namespace tessera::cli {

using io::Config;
using io::ConfigErrorKind;

namespace {

// The solver whose scatters are tuned and whose mesh is written: the rank's own.
UnstructuredEuler& localSolver(UnstructuredEuler& solver) {
  return solver;
}
UnstructuredEuler& localSolver(DistributedUnstructuredEuler& solver) {
  return solver.solver();
}

// What a rank writes: all cells on one rank, the owned cells with their global ids on several.
#if TESSERA_HAS_VTK
std::filesystem::path writeCells(io::UnstructuredSeriesWriter& writer, long long step, double time,
                                 const UnstructuredEuler& solver) {
  return writer.write(int(step), time, solver.mesh(),
                      io::eulerCellFields(solver.pde(), solver.hostState()));
}
std::filesystem::path writeCells(io::UnstructuredSeriesWriter& writer, long long step, double time,
                                 const DistributedUnstructuredEuler& solver) {
  const unstructured::LocalMesh& local = solver.localMesh();
  return writer.write(
      int(step), time, local.mesh, io::eulerCellFields(solver.solver().pde(), solver.ownedState()),
      {local.numOwned, std::span(local.globalCell).first(std::size_t(local.numOwned))});
}
#endif

int globalCells(const UnstructuredEuler& solver) {
  return solver.numCells();
}
int globalCells(const DistributedUnstructuredEuler& solver) {
  return solver.numGlobalCells();
}

// The face scatters' strategies a case forces (nullopt: tune).
struct Strategies {
  std::optional<atomics::Strategy> residual, waveSpeed;
};

// Collective: rank 0 creates the output folder and returns the run's log, with the face
// scatters' strategies recorded; the other ranks get none.
std::optional<io::RunLog>
openRunLog(const Config& cfg, const RunRequest& request, const RunSettings& run,
           const std::vector<std::pair<EulerScatter, atomics::TunerChoice>>& strategies) {
  std::optional<io::RunLog> log = openLeadRunLog(cfg, request, run);
  if (log)
    for (const auto& [scatter, choice] : strategies)
      log->atomicStrategy(eulerScatterName(scatter), choice);
  return log;
}

// Tunes (or sets) both face scatters of the rank's solver, printing and returning the choices.
std::vector<std::pair<EulerScatter, atomics::TunerChoice>>
chooseStrategies(UnstructuredEuler& solver, const Strategies& forced, bool print) {
  std::vector<std::pair<EulerScatter, atomics::TunerChoice>> chosen;
  for (const auto& [scatter, strategy] : {std::pair{EulerScatter::Residual, forced.residual},
                                          std::pair{EulerScatter::WaveSpeed, forced.waveSpeed}}) {
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
// 0 prints, logs and writes the .pvtu and .pvd).
template <class Solver>
void runExplicit(Solver& solver, double cfl, int faces, const Config& cfg,
                 const RunRequest& request, const RunSettings& run, const ConservedAt& initial,
                 const Strategies& forced) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const bool lead = rank == 0;
  solver.initialise(initial);
  // The tuner times each face scatter on this mesh and state with every strategy, unless the case
  // forces one.
  const auto strategies = chooseStrategies(localSolver(solver), forced, lead);

  std::optional<io::RunLog> log = openRunLog(cfg, request, run, strategies);
#if TESSERA_HAS_VTK
  io::UnstructuredSeriesWriter writer(run.directory, run.name, rank, ranks);
  const auto writeOutput = [&] {
    writeOutputStep(run, log, solver.step(), solver.time(),
                    [&] { return writeCells(writer, solver.step(), solver.time(), solver); });
  };
#else
  noteNoVtkOutput(run);
  const auto writeOutput = [] {};
#endif

  if (lead)
    std::printf("tessera: %s, unstructured, %d cells, %d faces, %d rank%s, CFL %.3g, to t = %g\n",
                request.caseFile.string().c_str(), globalCells(solver), faces, ranks,
                ranks == 1 ? "" : "s", cfl, run.endTime);
  writeOutput();
  OutputSchedule schedule(run);
  double steppingSeconds = 0.0;
  while (schedule.running(solver.time(), solver.step())) {
    Stopwatch watch;
    const double dt = stepToward(solver, schedule.next(), schedule.slack());
    synchronizeDevice(); // the step's time includes its device work
    const double seconds = watch.seconds();
    steppingSeconds += seconds;
    const bool reachesOutput = schedule.reached(solver.time());
    if (log)
      log->step({solver.step(), solver.time(), dt, 0, globalCells(solver), 1, seconds});
    if (reachesOutput)
      writeOutput();
  }
  writeOutput();
  if (log)
    log->finish(solver.step(), solver.time(), {0.0, steppingSeconds, 0.0, 0.0});
  if (lead && schedule.beforeEnd(solver.time()))
    std::printf("stopped at time.max_steps = %lld before time.end_time\n", run.maxSteps);
}

// Backward-Euler pseudo-time steps to the steady state, on one rank or several
// (DistributedUnstructuredImplicit: every rank sweeps its owned rows and writes its owned cells;
// rank 0 prints a line per step, logs and writes the .pvtu and .pvd).
template <class Precision>
void runImplicit(const Config& cfg, const RunRequest& request, const RunSettings& run,
                 const ImplicitCase& implicit, const Euler<3>& pde, const unstructured::Mesh& mesh,
                 const UnstructuredBoundary& boundary, const ConservedAt& initial,
                 MemorySpace space, const Strategies& forced) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const bool lead = rank == 0;
  DistributedUnstructuredImplicit<Precision> solver(MPI_COMM_WORLD, pde, mesh, boundary,
                                                    implicit.settings, space);
  solver.initialise(initial);
  UnstructuredEuler& local = solver.euler().solver();
  const auto strategies = chooseStrategies(local, forced, lead);
  // The diagonal blocks' scatter (25 values per face) takes the residual's strategy (5 values,
  // the same faces in the same order) rather than a tuning of its own.
  solver.setJacobianStrategy(local.strategy(EulerScatter::Residual));

  std::optional<io::RunLog> log = openRunLog(cfg, request, run, strategies);
#if TESSERA_HAS_VTK
  io::UnstructuredSeriesWriter writer(run.directory, run.name, rank, ranks);
  // A steady run numbers its outputs by iteration, which also stands in for their time.
  const auto writeOutputAt = [&](long long iteration) {
    writeOutputStep(run, log, iteration, double(iteration), [&] {
      return writeCells(writer, iteration, double(iteration), solver.euler());
    });
  };
#else
  noteNoVtkOutput(run);
  const auto writeOutputAt = [](long long) {};
#endif
  const ImplicitSettings& settings = implicit.settings;
  if (lead)
    std::printf("tessera: %s, unstructured, %d cells, %d faces, %d rank%s, implicit (%s, %d "
                "sweeps, %d colors), residual drop %.3g\n",
                request.caseFile.string().c_str(), mesh.numCells(), mesh.numFaces(), ranks,
                ranks == 1 ? "" : "s", Precision::kName.data(), settings.sweeps, solver.numColors(),
                settings.residualDrop);
  writeOutputAt(0);
  Stopwatch watch;
  const PseudoTimeStep last = solver.solve([&](const PseudoTimeStep& s) {
    if (lead && !request.quiet)
      std::printf("iteration %5d  density residual %.3e (relative %.3e)  CFL %.3g  %.2f s\n",
                  s.iteration, s.residual, s.relativeResidual, s.cfl, watch.seconds());
  });
  if (lead)
    std::printf("tessera: %d iterations, density residual dropped to %.3e of the first in %.2f s\n",
                last.iteration, last.relativeResidual, watch.seconds());
  writeOutputAt(last.iteration);
  if (lead && last.iteration >= settings.maxIterations)
    std::printf("stopped at implicit.max_iterations = %d before implicit.residual_drop\n",
                settings.maxIterations);
}

} // namespace

void runUnstructuredCase(Config& cfg, const RunRequest& request) {
  cfg.getChoice("physics.system", "euler", {"euler"});
  Euler<3> pde;
  pde.gamma = cfg.getDouble("physics.gamma", 1.4, io::Range{1.0, 10.0, true, false});
  unstructured::Mesh mesh = readUnstructuredMesh(cfg, request.caseFile);
  const UnstructuredBoundary boundary = readUnstructuredBoundary(cfg, mesh, pde);
  const ConservedAt initial = readUnstructuredInitial(cfg, mesh, pde);
  const std::optional<ImplicitCase> implicit = readImplicit(cfg);
  // dt = cfl * min over cells of V / sum over faces of |S| lambda: positive up to 1. Pseudo-time
  // steps have their own CFL numbers.
  const double cfl =
      implicit ? 0.9 : cfg.getDouble("time.cfl", 0.9, io::Range{kSmallestCfl, 1.0, false, false});
  const std::optional<atomics::Strategy> forcedResidual =
      readAtomicStrategy(cfg, EulerScatter::Residual);
  const std::optional<atomics::Strategy> forcedWaveSpeed =
      readAtomicStrategy(cfg, EulerScatter::WaveSpeed);
  const RunSettings run = readRunSettings(cfg, request, !implicit);
  const MemorySpace space = readBackend(cfg);
  cfg.rejectUnreadKeys(); // every key has been read: anything left is a mistake
  const Strategies strategies{forcedResidual, forcedWaveSpeed};
  if (implicit) {
    if (implicit->mixedPrecision)
      runImplicit<linalg::MixedPrecision>(cfg, request, run, *implicit, pde, mesh, boundary,
                                          initial, space, strategies);
    else
      runImplicit<linalg::DoublePrecision>(cfg, request, run, *implicit, pde, mesh, boundary,
                                           initial, space, strategies);
    return;
  }
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int faces = mesh.numFaces();
  if (ranks == 1) {
    UnstructuredEuler solver(pde, std::move(mesh), boundary, cfl, space);
    runExplicit(solver, cfl, faces, cfg, request, run, initial, strategies);
    return;
  }
  DistributedUnstructuredEuler solver(MPI_COMM_WORLD, pde, mesh, boundary, cfl, space);
  runExplicit(solver, cfl, faces, cfg, request, run, initial, strategies);
}

} // namespace tessera::cli
