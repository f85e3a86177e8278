// A user's system against the shipped one of the same size and physics (issue 45's parity): the
// uniform 3D Sedov blast, 16^3-cell patches, 256^3 cells, the default second-order scheme (PLM,
// van Leer, HLLC, SSP-RK2), on the device, step by step after 50 steps of development, the
// shipped Euler<3> and UserEuler<3> (user_euler.hpp: not shipped, its kernels from its own .cu)
// in one run. Counter: cell-updates/s. Device builds with a visible GPU only.
#include <benchmark/benchmark.h>

#include "benchmarks/user_euler.hpp"
#include "engine/memory.hpp"
#include "solvers/initial_conditions.hpp"
#include "solvers/patch/patch_solver.hpp"

namespace tessera {
namespace {

template <class PDE>
void BM_SedovUniform3D(benchmark::State& state) {
  if (!deviceAvailable()) {
    state.SkipWithError("no device back end or no visible GPU");
    return;
  }
  constexpr int kCells = 16, kPatches = 16;
  const PatchScheme scheme{{ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hllc},
                           kSspRk2};
  const UniformPatchGrid<3> grid(PatchLayout<3>{kCells, scheme.spatial.halo(), 5},
                                 Vec<int, 3>::filled(kPatches), Vec<double, 3>::filled(0.0),
                                 Vec<double, 3>::filled(1.0));
  SedovBlast<3> ic;
  ic.centre = Vec<double, 3>::filled(0.5);
  ic.radius = 3.5 / (kCells * kPatches);
  ic.placeOn(grid);
  PDE pde;
  PatchSolver<PDE> solver(pde, grid, DomainBoundary<3>::all(BoundaryKind::Outflow), 0.8 / 3,
                          MemorySpace::Device, scheme);
  solver.initialise([&](const Vec<double, 3>& x) { return ic(x); });
  for (int s = 0; s < 50; ++s)
    solver.advance(solver.stableDt());
  double cellUpdates = 0.0;
  for (auto _ : state) {
    cellUpdates += double(solver.numCells());
    solver.advance(solver.stableDt());
  }
  state.counters["cell-updates/s"] = benchmark::Counter(cellUpdates, benchmark::Counter::kIsRate);
}

// 200 steps, five times over: the medians.
void repeated(benchmark::internal::Benchmark* b) {
  b->Iterations(200)->Repetitions(5)->ReportAggregatesOnly(true)->UseRealTime()->Unit(
      benchmark::kMillisecond);
}
BENCHMARK(BM_SedovUniform3D<Euler<3>>)->Apply(repeated);
BENCHMARK(BM_SedovUniform3D<UserEuler<3>>)->Apply(repeated);

} // namespace
} // namespace tessera
