// bench_run: the shipped adaptive 3D example, the Sedov blast (examples/sedov/sedov3d.toml), run
// end to end through the tessera program's case runner at GPU size (16^3-cell patches: 5552
// patches and 22.7M cells at its end), once with first-order Rusanov and forward Euler and once
// with the default second-order scheme (PLM, van Leer, HLLC, SSP-RK2); and beside each, in the
// same process, the stand-alone fused update of that scheme on a uniform grid of the same patches
// and about the run's final cell count: its kernel rate (the update phase alone, halos filled
// before) and its whole uniform step (halo fill, update, dt).
//
//   bench_run [--backend device|host] [--cells-per-patch N] [--order 1|2] [--runs N]
//             [--set KEY=VALUE ...]
//
// --order runs one of the two schemes only; --runs runs each scheme's case N times and prints the
// median run's table with every run's ratio (on the device, runs of one build spread over 5 points
// of run / kernel: the regrid's host phases vary); --set overrides go to every run (e.g. --set
// amr.max_level=2 for a smaller host run). Prints one markdown table per run for
// benchmarks/RESULTS.md: cell-updates/s over the run against the kernel's, and the run's wall time
// split into halo fill, update, refluxing, the regrid's phases, output, and the rest (dt's
// reduction and the host's bookkeeping). A device build without VTK writes no output: its output
// row is then zero.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <mpi.h>
#include <string>
#include <vector>

#include "engine/device_selection.hpp"
#include "engine/timer.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "solvers/initial_conditions.hpp"
#include "solvers/patch/patch_solver.hpp"
#include "tools/tessera/run_case.hpp"

namespace tessera {
namespace {

struct Scheme {
  const char* name;
  std::vector<std::string> overrides; // the case keys that select it
  PatchScheme scheme;                 // the same, for the stand-alone kernel
};

const Scheme kSchemes[] = {
    {"first order (donor cell, Rusanov, forward Euler)",
     {"numerics.reconstruction=\"donor_cell\"", "numerics.riemann_solver=\"rusanov\"",
      "time.integrator=\"euler\""},
     {}},
    {"default second order (PLM, van Leer, HLLC, SSP-RK2)",
     {},
     {{ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hllc}, kSspRk2}},
};

// The fused update alone on a uniform grid of about `cells` cells in patches of n^3, and the whole
// uniform step: cell-updates/s of each, medians over several timed blocks of steps.
struct KernelRates {
  long long cells = 0;
  double update = 0.0, step = 0.0;
};

KernelRates standAloneKernel(const PatchScheme& scheme, int n, long long cells, MemorySpace space) {
  constexpr int kDim = 3;
  using PDE = Euler<kDim>;
  const int perAxis = std::max(1, int(std::lround(std::cbrt(double(cells) / (double(n) * n * n)))));
  const UniformPatchGrid<kDim> grid(PatchLayout<kDim>{n, scheme.spatial.halo(), PDE::kNumVars},
                                    Vec<int, kDim>::filled(perAxis), Vec<double, kDim>::filled(0.0),
                                    Vec<double, kDim>::filled(1.0));
  SedovBlast<kDim> ic;
  ic.centre = Vec<double, kDim>::filled(0.5);
  ic.radius = 3.5 / (perAxis * n);
  ic.placeOn(grid);
  PatchSolver<PDE> solver(ic.pde, grid, DomainBoundary<kDim>::all(BoundaryKind::Outflow), 0.3,
                          space, scheme);
  solver.initialise(ic);
  for (int s = 0; s < 20; ++s) // the blast leaves its first cells; modules load
    solver.advance(solver.stableDt());
  constexpr int kBlocks = 7, kSteps = 10;
  std::vector<double> update, step;
  for (int b = 0; b < kBlocks; ++b) {
    const double before = solver.times().update;
    Stopwatch watch;
    for (int s = 0; s < kSteps; ++s)
      solver.advance(solver.stableDt());
    step.push_back(watch.seconds());
    update.push_back(solver.times().update - before);
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const double cellUpdates = double(solver.numCells()) * kSteps;
  return {solver.numCells(), cellUpdates / median(update), cellUpdates / median(step)};
}

double runRate(const cli::RunTotals& run) {
  return run.cellUpdates / run.steppingSeconds;
}

// The median of `runs`, sorted by rate.
const cli::RunTotals& medianRun(const std::vector<cli::RunTotals>& runs) {
  return runs[runs.size() / 2];
}

// The median run of `runs` (sorted by rate), its phases, and every run's ratio to the kernel.
void printRun(const char* scheme, const std::vector<cli::RunTotals>& runs,
              const KernelRates& kernel) {
  const cli::RunTotals& run = medianRun(runs);
  const double rate = runRate(run);
  const auto& p = run.phases;
  const double whole = run.steppingSeconds + run.outputSeconds;
  const double rest = run.steppingSeconds - p.halo - p.update - p.reflux - p.regrid.total();
  const auto row = [&](const char* phase, double seconds) {
    std::printf("| %s | %.3f | %.1f%% |\n", phase, seconds, 100.0 * seconds / whole);
  };
  std::printf("\n### %s\n\n", scheme);
  std::printf("%lld steps, %lld cells at the end; %.3g cell-updates/s over the run; stand-alone "
              "fused update %.3g (uniform grid of %lld cells), its whole uniform step %.3g: "
              "**run / kernel %.1f%%**, uniform step / kernel %.1f%%\n\n",
              run.steps, run.cellsAtEnd, rate, kernel.update, kernel.cells, kernel.step,
              100.0 * rate / kernel.update, 100.0 * kernel.step / kernel.update);
  if (runs.size() > 1) {
    std::printf("The median of %zu runs; each run / kernel, lowest first:", runs.size());
    for (const cli::RunTotals& r : runs)
      std::printf(" %.1f%%", 100.0 * runRate(r) / kernel.update);
    std::printf("\n\n");
  }
  std::printf("| phase | seconds | of the run |\n|---|---|---|\n");
  row("halo fill", p.halo);
  row("update", p.update);
  row("refluxing", p.reflux);
  row("regrid: flags", p.regrid.flags);
  row("regrid: forest", p.regrid.forest);
  row("regrid: remap", p.regrid.remap);
  row("regrid: partition", p.regrid.partition);
  row("regrid: migration", p.regrid.migration);
  row("regrid: plans", p.regrid.plans);
  row("regrid: remesh", p.regrid.remesh);
  row("regrid: of these, while the device stepped", p.regrid.overlapped);
  row("dt and the rest", rest);
  row("output", run.outputSeconds);
  std::printf("| **regrid** | %.3f | **%.1f%%** |\n| **run** | %.3f | 100%% |\n", p.regrid.total(),
              100.0 * p.regrid.total() / whole, whole);
}

int benchRun(int argc, char** argv) {
  std::string backend = "device";
  int cellsPerPatch = 16;
  int order = 0; // both
  int runs = 1;
  std::vector<std::string> overrides;
  CLI::App app{"bench_run: the adaptive 3D Sedov example end to end beside its fused kernel"};
  app.add_option("--backend", backend, "device or host")->check(CLI::IsMember({"device", "host"}));
  app.add_option("--cells-per-patch", cellsPerPatch, "cells per patch axis");
  app.add_option("--order", order, "1 or 2: one scheme only")->check(CLI::IsMember({1, 2}));
  app.add_option("--runs", runs, "runs of each case; the table is the median run's")
      ->check(CLI::Range(1, 100));
  app.add_option("--set", overrides, "a case override for every run (repeatable)");
  CLI11_PARSE(app, argc, argv);

  const MemorySpace space = backend == "device" ? MemorySpace::Device : MemorySpace::Host;
  const std::filesystem::path output = std::filesystem::temp_directory_path() / "tessera_bench_run";
  for (const Scheme& scheme : kSchemes) {
    if (order != 0 && &scheme != &kSchemes[order - 1])
      continue;
    cli::RunRequest request;
    request.caseFile = std::filesystem::path(TESSERA_SOURCE_DIR) / "examples/sedov/sedov3d.toml";
    request.quiet = true;
    request.overrides = {"mesh.cells_per_patch=" + std::to_string(cellsPerPatch),
                         "run.backend=\"" + backend + "\"",
                         "output.directory=\"" + output.string() + "\""};
    request.overrides.insert(request.overrides.end(), scheme.overrides.begin(),
                             scheme.overrides.end());
    request.overrides.insert(request.overrides.end(), overrides.begin(), overrides.end());
    std::vector<cli::RunTotals> totals(runs);
    for (cli::RunTotals& run : totals) {
      std::filesystem::remove_all(output);
      if (const int code = cli::runCase(request, &run); code != 0)
        return code;
    }
    std::filesystem::remove_all(output);
    std::sort(totals.begin(), totals.end(),
              [](const auto& a, const auto& b) { return runRate(a) < runRate(b); });
    printRun(scheme.name, totals,
             standAloneKernel(scheme.scheme, cellsPerPatch, medianRun(totals).cellsAtEnd, space));
  }
  return 0;
}

} // namespace
} // namespace tessera

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  tessera::selectDeviceByNodeRank(MPI_COMM_WORLD);
  int code = 0;
  try {
    code = tessera::benchRun(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_run: %s\n", e.what());
    code = 1;
  }
  MPI_Finalize();
  return code;
}
