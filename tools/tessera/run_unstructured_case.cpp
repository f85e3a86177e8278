#include "tools/tessera/run_unstructured_case.hpp"

#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "engine/atomics/tuner.hpp"
#include "engine/linalg/precision.hpp"
#include "engine/memory.hpp"
#include "engine/timer.hpp"
#include "io/run_log.hpp"
#include "solvers/unstructured_euler.hpp"
#include "solvers/unstructured_implicit.hpp"
#include "tools/tessera/run_settings.hpp"
#include "tools/tessera/unstructured_case_reader.hpp"
#if TESSERA_HAS_VTK
#include "io/unstructured_output.hpp"
#endif

namespace tessera::cli {

using io::Config;
using io::ConfigErrorKind;

namespace {

// Pseudo-time steps to the steady state, a line per step with the density residual relative to
// the first; returns the iterations taken (maxIterations where it stopped short of residualDrop).
template <class Precision>
int solveSteady(UnstructuredEuler& solver, const linalg::BlockPattern& pattern,
                const ImplicitSettings& settings, bool quiet) {
  UnstructuredImplicit<Precision> implicit(solver, pattern, settings);
  Stopwatch watch;
  const PseudoTimeStep last = implicit.solve([&](const PseudoTimeStep& s) {
    if (!quiet)
      std::printf("iteration %5d  density residual %.3e (relative %.3e)  CFL %.3g  %.2f s\n",
                  s.iteration, s.residual, s.relativeResidual, s.cfl, watch.seconds());
  });
  std::printf("tessera: %d iterations, density residual dropped to %.3e of the first in %.2f s\n",
              last.iteration, last.relativeResidual, watch.seconds());
  return last.iteration;
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
      implicit ? 0.9 : cfg.getDouble("time.cfl", 0.9, io::Range{0.0, 1.0, true, false});
  const std::optional<atomics::Strategy> forcedResidual =
      readAtomicStrategy(cfg, EulerScatter::Residual);
  const std::optional<atomics::Strategy> forcedWaveSpeed =
      readAtomicStrategy(cfg, EulerScatter::WaveSpeed);
  const RunSettings run = readRunSettings(cfg, request, !implicit);
  const MemorySpace space = readBackend(cfg);
  cfg.rejectUnreadKeys(); // every key has been read: anything left is a mistake

  // The implicit solver's block rows are the cells, numbered color by color.
  std::optional<linalg::BlockPattern> pattern;
  if (implicit) {
    ColorContiguousMesh colored = colorContiguousMesh(mesh);
    mesh = std::move(colored.mesh);
    pattern = std::move(colored.pattern);
  }
  UnstructuredEuler solver(pde, std::move(mesh), boundary, cfl, space);
  solver.initialise(initial);
  // The tuner times each face scatter on this mesh and state with every strategy, unless the case
  // forces one.
  std::vector<std::pair<EulerScatter, atomics::TunerChoice>> strategies;
  for (const auto& [scatter, forced] : {std::pair{EulerScatter::Residual, forcedResidual},
                                        std::pair{EulerScatter::WaveSpeed, forcedWaveSpeed}}) {
    atomics::TunerChoice choice{forced.value_or(atomics::Strategy::GlobalAtomic), true, {}};
    if (forced)
      solver.setStrategy(scatter, *forced);
    else
      choice = solver.tuneStrategy(scatter, atomics::kAllStrategies);
    std::printf("tessera: atomic strategy of the %s scatter: %s\n",
                std::string(eulerScatterName(scatter)).c_str(), atomics::describe(choice).c_str());
    strategies.emplace_back(scatter, choice);
  }

  prepareOutputFolder(cfg, run);
  io::RunLog log(run.directory / "log.jsonl", run.endTime, request.quiet ? 0 : run.progressEvery);
  for (const auto& [scatter, choice] : strategies)
    log.atomicStrategy(eulerScatterName(scatter), choice);

#if TESSERA_HAS_VTK
  io::UnstructuredSeriesWriter writer(run.directory, run.name, 0, 1);
  // A steady run numbers its outputs by iteration, which also stands in for their time.
  const auto writeOutputAt = [&](long long step, double time) {
    if (!run.writeOutput)
      return;
    const auto file = writer.write(int(step), time, solver.mesh(),
                                   io::eulerCellFields(solver.pde(), solver.hostState()));
    log.output(step, time, file);
  };
#else
  if (run.writeOutput)
    std::printf("note: this build has no VTK output (TESSERA_ENABLE_VTK=OFF); writing none\n");
  const auto writeOutputAt = [](long long, double) {};
#endif
  const auto writeOutput = [&] { writeOutputAt(solver.step(), solver.time()); };

  if (implicit) {
    ImplicitSettings settings = implicit->settings;
    // The diagonal blocks' scatter (25 values per face) takes the residual's strategy (5 values,
    // the same faces in the same order) rather than a tuning of its own.
    settings.jacobianStrategy = solver.strategy(EulerScatter::Residual);
    std::printf("tessera: %s, unstructured, %d cells, %d faces, implicit (%s, %d sweeps, %d "
                "colors), residual drop %.3g\n",
                request.caseFile.string().c_str(), solver.numCells(), solver.mesh().numFaces(),
                implicit->mixedPrecision ? "mixed precision" : "fp64", settings.sweeps,
                pattern->numColors(), settings.residualDrop);
    writeOutputAt(0, 0.0);
    const int iterations =
        implicit->mixedPrecision
            ? solveSteady<linalg::MixedPrecision>(solver, *pattern, settings, request.quiet)
            : solveSteady<linalg::DoublePrecision>(solver, *pattern, settings, request.quiet);
    writeOutputAt(iterations, double(iterations));
    if (iterations >= settings.maxIterations)
      std::printf("stopped at implicit.max_iterations = %d before implicit.residual_drop\n",
                  settings.maxIterations);
    return;
  }
  std::printf("tessera: %s, unstructured, %d cells, %d faces, CFL %.3g, to t = %g\n",
              request.caseFile.string().c_str(), solver.numCells(), solver.mesh().numFaces(), cfl,
              run.endTime);
  writeOutput();
  OutputSchedule schedule(run);
  double steppingSeconds = 0.0;
  while (schedule.running(solver.time(), solver.step())) {
    Stopwatch watch;
    const double dt = solver.stepToward(schedule.next(), schedule.slack());
    synchronizeDevice(); // the step's time includes its device work
    const double seconds = watch.seconds();
    steppingSeconds += seconds;
    const bool reachesOutput = schedule.reached(solver.time());
    log.step({solver.step(), solver.time(), dt, 0, solver.numCells(), 1, seconds});
    if (reachesOutput)
      writeOutput();
  }
  writeOutput();
  log.finish(solver.step(), solver.time(), {0.0, steppingSeconds, 0.0, 0.0});
  if (schedule.beforeEnd(solver.time()))
    std::printf("stopped at time.max_steps = %lld before time.end_time\n", run.maxSteps);
}

} // namespace tessera::cli
