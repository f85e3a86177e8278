// The device fused Rusanov update (2D, Euler, fp64) against a device-to-device copy of the same
// state, in one run. Effective bandwidth counts the bytes that must move: the state with its halo
// read once and the interior written once; the copy reads and writes the whole state with halo.
// Each case holds about 1 GB of state. Plain C++: the kernels are in the device libraries.
#include <benchmark/benchmark.h>
#include <cmath>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "engine/parallel_for.hpp"
#include "engine/timer.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "solvers/euler.hpp"
#include "solvers/rusanov_update_device.hpp"

namespace tessera {
namespace {

struct DeviceCase {
  UniformPatchGrid<2> grid;
  DeviceArray<double> q, qNew, lambda;
  DeviceArray<PatchGeometry<2>> geometry;

  explicit DeviceCase(int n)
      : grid(PatchLayout<2>{n, 1, 4}, patchesFor(n), {{0, 0}}, {{1, 1}}),
        q(grid.numPatches() * grid.layout().patchStride(), MemorySpace::Device),
        qNew(q.size(), MemorySpace::Device), lambda(grid.numPatches(), MemorySpace::Device),
        geometry(grid.numPatches(), MemorySpace::Device) {
    // A smooth, non-trivial state everywhere, halo included (never time on zeros).
    const Euler<2> pde;
    std::vector<double> host(q.size());
    const auto& layout = grid.layout();
    forEachPatch(grid.numPatches(), [&](int p) { // on every host core: 1 GB to fill
      for (int c = 0; c < layout.cellsWithHalo(); ++c) {
        const double s = std::sin(1e-3 * double(c + 7 * p));
        const auto w = pde.toConserved({{1.0 + 0.2 * s, 0.1 * s, -0.1 * s, 1.0 + 0.1 * s}});
        for (int v = 0; v < 4; ++v)
          host[layout.varOffset(p, v) + std::size_t(c)] = w[v];
      }
    });
    q.copyFromHost(host);
    geometry.copyFromHost(grid.geometries());
  }

  // About 1 GB of state with halo.
  static Vec<int, 2> patchesFor(int n) {
    const double patchBytes = 4.0 * 8.0 * (n + 2) * (n + 2);
    const int perAxis = int(std::ceil(std::sqrt(1.0e9 / patchBytes)));
    return {{perAxis, perAxis}};
  }
};

void BM_DeviceCopy(benchmark::State& state) {
  DeviceCase c(int(state.range(0)));
  for (auto _ : state) {
    Stopwatch watch;
    c.qNew.copyFrom(c.q);
    synchronizeDevice();
    state.SetIterationTime(watch.seconds());
  }
  state.counters["GB/s"] = benchmark::Counter(2.0 * double(c.q.bytes()) * 1e-9,
                                              benchmark::Counter::kIsIterationInvariantRate);
}

void BM_DeviceFusedUpdate(benchmark::State& state) {
  DeviceCase c(int(state.range(0)));
  const auto& layout = c.grid.layout();
  const Euler<2> pde;
  for (auto _ : state) {
    Stopwatch watch;
    rusanovUpdateDevice(pde, layout, c.geometry.data(), c.grid.numPatches(), c.q.data(),
                        c.qNew.data(), 1e-5, c.lambda.data());
    synchronizeDevice();
    state.SetIterationTime(watch.seconds());
  }
  const double bytes =
      double(c.grid.numPatches()) * 4 * 8 * (layout.cellsWithHalo() + layout.interiorCells());
  state.counters["GB/s"] =
      benchmark::Counter(bytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["cell-updates/s"] =
      benchmark::Counter(double(c.grid.numCells()), benchmark::Counter::kIsIterationInvariantRate);
}

void sizes(benchmark::internal::Benchmark* b) {
  b->Arg(8)->Arg(16)->Arg(32)->UseManualTime()->Repetitions(20)->ReportAggregatesOnly(true)->Unit(
      benchmark::kMillisecond);
}
BENCHMARK(BM_DeviceCopy)->Apply(sizes);
BENCHMARK(BM_DeviceFusedUpdate)->Apply(sizes);

} // namespace
} // namespace tessera

BENCHMARK_MAIN();
