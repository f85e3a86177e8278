// A whole step with AMR (halo plan, fused update, refluxing, dt, and a regrid every 4 steps)
// against the uniform grid of the same finest resolution and patch size: the Sedov blast,
// developed for 200 steps first, then timed step by step. On the host in 2D; on the device (in a
// cuda or hip build with a visible GPU) in 2D and 3D. Counters: cell-updates/s, and per step the
// seconds of halo fill, update, refluxing and regrid.
//
// Arguments: cells per patch axis, 0 for the host or 1 for the device, and the order: 1 for
// first-order Rusanov with forward Euler, 2 for the default second-order scheme (PLM with van
// Leer's limiter, HLLC, SSP-RK2: two stages, each with its halo fill).
#include <benchmark/benchmark.h>
#include <mpi.h>

#include "drivers/amr_solver.hpp"
#include "engine/memory.hpp"
#include "solvers/initial_conditions.hpp"

namespace tessera {
namespace {

constexpr int kMaxLevel = 2; // three levels: the finest has 4x the level-0 patches per axis

// Level-0 patches per axis: a power of two, so that the forest is one p4est tree (adapting a
// brick of many trees costs several times more). In 3D at N = 16 the uniform comparison has
// 32^3 patches, 512^3 cells, 7.6 GB per copy of the state.
template <int Dim>
constexpr int kLevel0 = 8;

template <int Dim>
void reportPhases(benchmark::State& state, const PatchSolver<Euler<Dim>>& solver,
                  const StepTimes& before, double cellUpdates) {
  const double steps = double(state.iterations());
  state.counters["cell-updates/s"] = benchmark::Counter(cellUpdates, benchmark::Counter::kIsRate);
  state.counters["halo s/step"] = (solver.times().halo - before.halo) / steps;
  state.counters["update s/step"] = (solver.times().update - before.update) / steps;
  state.counters["reflux s/step"] = (solver.times().reflux - before.reflux) / steps;
  state.counters["cells"] = double(solver.numCells());
}

void reportRegrid(benchmark::State& state, const RegridTimes& after, const RegridTimes& before) {
  const double steps = double(state.iterations());
  const RegridTimes t = after.since(before);
  state.counters["regrid s/step"] = t.total() / steps;
  state.counters["regrid flags s/step"] = t.flags / steps;
  state.counters["regrid forest s/step"] = t.forest / steps;
  state.counters["regrid remap s/step"] = t.remap / steps;
  state.counters["regrid partition s/step"] = t.partition / steps;
  state.counters["regrid migration s/step"] = t.migration / steps;
  state.counters["regrid plans s/step"] = t.plans / steps;
  state.counters["regrid remesh s/step"] = t.remesh / steps;
  state.counters["regrid overlapped s/step"] = t.overlapped / steps;
}

template <int Dim>
SedovBlast<Dim> blast(int n) {
  SedovBlast<Dim> ic;
  ic.centre = Vec<double, Dim>::filled(0.5);
  ic.radius = 3.5 / (kLevel0<Dim> * n << kMaxLevel);
  return ic;
}

PatchScheme schemeOf(const benchmark::State& state) {
  if (state.range(2) == 1)
    return {};
  return {{ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hllc}, kSspRk2};
}

// The back end a benchmark asks for, or nothing where this build or machine has no device.
bool spaceAvailable(benchmark::State& state, MemorySpace& space) {
  space = state.range(1) == 1 ? MemorySpace::Device : MemorySpace::Host;
  if (space == MemorySpace::Device && !deviceAvailable()) {
    state.SkipWithError("no device back end or no visible GPU");
    return false;
  }
  return true;
}

template <int Dim>
void BM_SedovAmr(benchmark::State& state) {
  MemorySpace space;
  if (!spaceAvailable(state, space))
    return;
  const int n = int(state.range(0));
  const PatchScheme scheme = schemeOf(state);
  SedovBlast<Dim> ic = blast<Dim>(n);
  AmrSettings settings;
  settings.maxLevel = kMaxLevel;
  settings.buffer = false;
  AmrSolver<Euler<Dim>> amr(
      MPI_COMM_WORLD, ic.pde, PatchLayout<Dim>{n, scheme.spatial.halo(), Dim + 2},
      Vec<int, Dim>::filled(kLevel0<Dim>), Vec<double, Dim>::filled(0.0),
      Vec<double, Dim>::filled(1.0), DomainBoundary<Dim>::all(BoundaryKind::Outflow), settings,
      amr::IndicatorCriterion{amr::Indicator::Loehner, Dim + 1 /* pressure */, true, 0.9, 0.6},
      0.8 / Dim, space, scheme);
  amr.initialise([&](const PatchLayout<Dim>& layout, std::span<const PatchGeometry<Dim>> g) {
    ic.placeOn(layout, g);
    return ic;
  });
  for (int s = 0; s < 200; ++s)
    amr.advance(amr.solver().stableDt());
  const StepTimes before = amr.solver().times();
  const RegridTimes regridBefore = amr.regridTimes();
  double cellUpdates = 0.0;
  for (auto _ : state) {
    cellUpdates += double(amr.solver().numCells());
    amr.advance(amr.solver().stableDt());
  }
  reportPhases<Dim>(state, amr.solver(), before, cellUpdates);
  reportRegrid(state, amr.regridTimes(), regridBefore);
}

template <int Dim>
void BM_SedovUniform(benchmark::State& state) {
  MemorySpace space;
  if (!spaceAvailable(state, space))
    return;
  const int n = int(state.range(0));
  const PatchScheme scheme = schemeOf(state);
  SedovBlast<Dim> ic = blast<Dim>(n);
  const UniformPatchGrid<Dim> grid(PatchLayout<Dim>{n, scheme.spatial.halo(), Dim + 2},
                                   Vec<int, Dim>::filled(kLevel0<Dim> << kMaxLevel),
                                   Vec<double, Dim>::filled(0.0), Vec<double, Dim>::filled(1.0));
  ic.placeOn(grid);
  PatchSolver<Euler<Dim>> solver(ic.pde, grid, DomainBoundary<Dim>::all(BoundaryKind::Outflow),
                                 0.8 / Dim, space, scheme);
  solver.initialise(ic);
  for (int s = 0; s < 200; ++s)
    solver.advance(solver.stableDt());
  const StepTimes before = solver.times();
  double cellUpdates = 0.0;
  for (auto _ : state) {
    cellUpdates += double(solver.numCells());
    solver.advance(solver.stableDt());
  }
  reportPhases<Dim>(state, solver, before, cellUpdates);
}

void hostAndDevice2D(benchmark::internal::Benchmark* b) {
  for (int order : {1, 2})
    b->Args({8, 0, order})->Args({16, 0, order})->Args({8, 1, order})->Args({16, 1, order});
  b->Iterations(200)->UseRealTime()->Unit(benchmark::kMillisecond);
}
void device3D(benchmark::internal::Benchmark* b) {
  for (int order : {1, 2})
    b->Args({8, 1, order})->Args({16, 1, order});
  b->Iterations(200)->UseRealTime()->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_SedovAmr<2>)->Apply(hostAndDevice2D);
BENCHMARK(BM_SedovUniform<2>)->Apply(hostAndDevice2D);
BENCHMARK(BM_SedovAmr<3>)->Apply(device3D);
BENCHMARK(BM_SedovUniform<3>)->Apply(device3D);

} // namespace
} // namespace tessera
