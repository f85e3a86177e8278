// The host fused Rusanov update against a host copy loop over the same state, in one run.
// Effective bandwidth counts the bytes that must move: the state with its halo read once and the
// interior written once. The copy reads and writes the whole state with halo: the ceiling.
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstring>
#include <vector>

#include "engine/parallel_for.hpp"
#include "patches/patch_store.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/patch/rusanov_update_host.hpp"

namespace tessera {
namespace {

// Main memory: about 2^22 cells in 2D and 2^21 in 3D, 100-200 MB per state, far beyond the
// caches. In cache: 2^13 cells in 2D (both states in the cores' L2) and 2^15 in 3D (in L3), to
// separate the cost of arithmetic from the cost of memory traffic.
enum class Size { MainMemory, InCache };

template <int Dim>
Vec<int, Dim> patchesFor(int n, Size size) {
  const double target = size == Size::InCache ? double(Dim == 2 ? 1 << 13 : 1 << 15)
                                              : double(Dim == 2 ? 1 << 22 : 1 << 21);
  const int perAxis = int(std::lround(std::pow(target / std::pow(n, Dim), 1.0 / Dim)));
  return Vec<int, Dim>::filled(perAxis < 1 ? 1 : perAxis);
}

template <int Dim>
struct Setup {
  UniformPatchGrid<Dim> grid;
  PatchStore<Dim> q, qNew;
  std::vector<PatchGeometry<Dim>> geometry;
  std::vector<double> lambda;

  Setup(int n, Size size)
      : grid(PatchLayout<Dim>{n, 1, Dim + 2}, patchesFor<Dim>(n, size), Vec<double, Dim>::filled(0),
             Vec<double, Dim>::filled(1)),
        q(grid.layout(), grid.numPatches(), MemorySpace::Host),
        qNew(grid.layout(), grid.numPatches(), MemorySpace::Host), geometry(grid.geometries()),
        lambda(grid.numPatches()) {
    // A smooth, non-trivial state in every cell, halo included (never time on zeros). Written
    // from the threads that will read it, so pages land where the update runs.
    const Euler<Dim> pde;
    const PatchLayout<Dim> layout = grid.layout();
    double* data = q.data();
    forEachPatch(grid.numPatches(), [&](int p) {
      for (int c = 0; c < layout.cellsWithHalo(); ++c) {
        const double s = std::sin(1e-3 * double(c + 7 * p));
        typename Euler<Dim>::State w = Euler<Dim>::State::filled(0.1 * s);
        w[0] = 1.0 + 0.2 * s;
        w[Dim + 1] = 1.0 + 0.1 * s;
        const auto qc = pde.toConserved(w);
        for (int v = 0; v < Dim + 2; ++v)
          data[p * layout.patchStride() + v * layout.varStride() + c] = qc[v];
      }
    });
    std::memset(qNew.data(), 0, qNew.array().bytes());
  }

  double bytesPerUpdate() const {
    const auto& l = grid.layout();
    return double(grid.numPatches()) * l.numVars * (l.cellsWithHalo() + l.interiorCells()) * 8.0;
  }
};

template <int Dim>
void BM_HostCopy(benchmark::State& state) {
  Setup<Dim> s(int(state.range(0)), Size::MainMemory);
  const std::size_t n = s.q.array().size();
  const double* src = s.q.data();
  double* dst = s.qNew.data();
  for (auto _ : state) {
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i)
      dst[i] = src[i];
    benchmark::ClobberMemory();
  }
  state.counters["GB/s"] = benchmark::Counter(2.0 * double(n) * 8.0 * 1e-9,
                                              benchmark::Counter::kIsIterationInvariantRate);
}

template <int Dim, Size size>
void BM_FusedUpdate(benchmark::State& state) {
  Setup<Dim> s(int(state.range(0)), size);
  const Euler<Dim> pde;
  const double dt = 1e-4;
  for (auto _ : state) {
    rusanovUpdateHost(pde, s.grid.layout(), std::span<const PatchGeometry<Dim>>(s.geometry),
                      s.q.data(), s.qNew.data(), dt, s.lambda.data());
    benchmark::DoNotOptimize(s.lambda.data());
    benchmark::ClobberMemory();
  }
  state.counters["GB/s"] =
      benchmark::Counter(s.bytesPerUpdate() * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["cell-updates/s"] =
      benchmark::Counter(double(s.grid.numCells()), benchmark::Counter::kIsIterationInvariantRate);
}

void patchSizes2D(benchmark::internal::Benchmark* b) {
  b->Arg(8)->Arg(16)->Arg(32)->Repetitions(10)->ReportAggregatesOnly(true)->UseRealTime()->Unit(
      benchmark::kMillisecond);
}
void patchSizes3D(benchmark::internal::Benchmark* b) {
  b->Arg(8)->Arg(16)->Repetitions(10)->ReportAggregatesOnly(true)->UseRealTime()->Unit(
      benchmark::kMillisecond);
}

BENCHMARK(BM_HostCopy<2>)->Apply(patchSizes2D);
BENCHMARK(BM_FusedUpdate<2, Size::MainMemory>)->Apply(patchSizes2D);
BENCHMARK(BM_FusedUpdate<2, Size::InCache>)->Apply(patchSizes2D);
BENCHMARK(BM_HostCopy<3>)->Apply(patchSizes3D);
BENCHMARK(BM_FusedUpdate<3, Size::MainMemory>)->Apply(patchSizes3D);
BENCHMARK(BM_FusedUpdate<3, Size::InCache>)->Apply(patchSizes3D);

} // namespace
} // namespace tessera

BENCHMARK_MAIN();
