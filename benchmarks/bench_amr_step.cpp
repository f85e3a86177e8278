// A step of the host back end with AMR against the uniform grid of the same finest resolution
// and patch size: Sedov 2D, developed for 200 steps first, then timed step by step (regrid every
// 4 steps). Counters: cell-updates/s, and per step the seconds of halo fill, update, refluxing
// and regrid.
#include <benchmark/benchmark.h>
#include <mpi.h>

#include "solvers/amr_solver.hpp"
#include "solvers/initial_conditions.hpp"

namespace tessera {
namespace {

constexpr int kLevel0 = 8;   // level-0 patches per axis
constexpr int kMaxLevel = 2; // finest: kLevel0 * 4 patches per axis

template <class Solver>
void reportPhases(benchmark::State& state, const PatchSolver<Euler<2>>& solver, double regrid,
                  const StepTimes& before, double regridBefore, double cellUpdates) {
  const double steps = double(state.iterations());
  state.counters["cell-updates/s"] = benchmark::Counter(cellUpdates, benchmark::Counter::kIsRate);
  state.counters["halo s/step"] = (solver.times().halo - before.halo) / steps;
  state.counters["update s/step"] = (solver.times().update - before.update) / steps;
  state.counters["reflux s/step"] = (solver.times().reflux - before.reflux) / steps;
  state.counters["regrid s/step"] = (regrid - regridBefore) / steps;
  state.counters["cells"] = double(solver.numCells());
}

SedovBlast<2> blast(int n) {
  SedovBlast<2> ic;
  ic.centre = {{0.5, 0.5}};
  ic.radius = 3.5 / (kLevel0 * n << kMaxLevel);
  return ic;
}

void BM_SedovAmr(benchmark::State& state) {
  const int n = int(state.range(0));
  SedovBlast<2> ic = blast(n);
  AmrSettings settings;
  settings.maxLevel = kMaxLevel;
  settings.buffer = false;
  AmrSolver<Euler<2>> amr(
      MPI_COMM_WORLD, ic.pde, PatchLayout<2>{n, 1, 4}, {{kLevel0, kLevel0}}, {{0, 0}}, {{1, 1}},
      DomainBoundary<2>::all(BoundaryKind::Outflow), settings,
      amr::loehnerCriterion<2>(primitiveVariable(ic.pde, Euler<2>::kEnergy), 0.9, 0.6), 0.4);
  amr.initialise([&](const PatchLayout<2>& layout, std::span<const PatchGeometry<2>> g) {
    ic.placeOn(layout, g);
    return ic;
  });
  for (int s = 0; s < 200; ++s)
    amr.advance(amr.solver().stableDt());
  const StepTimes before = amr.solver().times();
  const double regridBefore = amr.regridSeconds();
  double cellUpdates = 0.0;
  for (auto _ : state) {
    cellUpdates += double(amr.solver().numCells());
    amr.advance(amr.solver().stableDt());
  }
  reportPhases<AmrSolver<Euler<2>>>(state, amr.solver(), amr.regridSeconds(), before, regridBefore,
                                    cellUpdates);
}

void BM_SedovUniform(benchmark::State& state) {
  const int n = int(state.range(0));
  SedovBlast<2> ic = blast(n);
  const int patches = kLevel0 << kMaxLevel;
  const UniformPatchGrid<2> grid(PatchLayout<2>{n, 1, 4}, {{patches, patches}}, {{0, 0}}, {{1, 1}});
  ic.placeOn(grid);
  PatchSolver<Euler<2>> solver(ic.pde, grid, DomainBoundary<2>::all(BoundaryKind::Outflow), 0.4);
  solver.initialise(ic);
  for (int s = 0; s < 200; ++s)
    solver.advance(solver.stableDt());
  const StepTimes before = solver.times();
  double cellUpdates = 0.0;
  for (auto _ : state) {
    cellUpdates += double(solver.numCells());
    solver.advance(solver.stableDt());
  }
  reportPhases<PatchSolver<Euler<2>>>(state, solver, 0.0, before, 0.0, cellUpdates);
}

BENCHMARK(BM_SedovAmr)
    ->Arg(8)
    ->Arg(16)
    ->Iterations(200)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SedovUniform)
    ->Arg(8)
    ->Arg(16)
    ->Iterations(200)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

} // namespace
} // namespace tessera

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
