// The device Rusanov update (Euler, fp64, 2D and 3D, N = 8, 16, 32) against its ceiling, a
// device-to-device copy of the same state, and against its baseline, the unfused pipeline of
// seed 004 (UnfusedRusanovDevice), all in one run:
//   BM_Copy<d>D/N     copy of the whole state with halo (reads and writes every byte once);
//   BM_Fused<d>D/N    rusanovUpdateDevice, one kernel (skipped while a dimension has none);
//   BM_FusedLinked<d>D/N  the same as the solver runs a uniform grid: the faces between patches
//                     linked (patches/face_links.hpp), their halo cells read from the
//                     neighbours' interiors, the domain's faces from the halo;
//   BM_Unfused<d>D/N  copy-sol, comp-eigv, comp-flux, update-sol, reduce-eigv.
// And on the same state, the regrid's criterion pass (refinementFlagsDevice, Loehner on pressure
// as the shipped blasts use it), which reads every interior cell and face halo cell once, and the
// fused update that evaluates the same criterion on its input (UpdateCriterion), as the step
// before a regrid does:
//   BM_RefinementFlags<d>D/N, BM_FusedFlagged<d>D/N.
// And the default second-order scheme (PLM with van Leer's limiter, HLLC) on states with a halo
// of two, beside their own copy:
//   BM_Copy<d>D/N/h2          copy of the whole state with its halo of two;
//   BM_FusedStage<d>D/N       fusedUpdateDevice, one forward-Euler stage (the first of SSP-RK2);
//   BM_FusedRk2<d>D/N         both stages of SSP-RK2, the second reading Q^n too (kernels only:
//                             no halo fill between them), cell-updates/s per whole step;
//   BM_UnfusedStage<d>D/N     UnfusedSchemeDevice: reconstruct, flux, update, reduce.
// Counters, plain values (the display shows them as they are):
//   cell-updates/s;
//   GB/s, the effective bandwidth over the bytes an update must move: the state with halo read
//     once and the interior written once (the unfused temporaries' traffic does not count: it is
//     the overhead being measured);
//   fraction of copy, that bandwidth over the copy's (2 x state bytes / copy time). The copy is
//     timed inside the same repetition right before the update, so both see the same device,
//     clocks and neighbours.
//
// Each case holds at least 1 GB of state. One case lives at a time (state, new state and the
// unfused temporaries: at most about 6 GB) and is built once for the three benchmarks of its
// dimension and N, which are registered next to each other. Every repetition is one timed call
// after one untimed warm-up call (module loading, attribute setting); the reported time is the
// median of kRepetitions. A whole run takes well under a minute of device time, most of it
// filling the states. Plain C++: the kernels are in the device libraries.
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "engine/parallel_for.hpp"
#include "engine/timer.hpp"
#include "patches/face_links.hpp"
#include "patches/halo_plan.hpp"
#include "patches/halo_plan_device.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/patch/fused_update_device.hpp"
#include "solvers/patch/refinement_flags.hpp"
#include "solvers/patch/rusanov_unfused_device.hpp"
#include "solvers/patch/rusanov_update_device.hpp"
#include "solvers/patch/scheme_unfused_device.hpp"

namespace tessera {
namespace {

constexpr int kRepetitions = 30;
constexpr double kStateBytes = 1.0e9;
constexpr double kDt = 1e-5; // any dt does: q is never overwritten, every call sees one state

const SpatialScheme kSecondOrder{ReconstructionKind::Plm, LimiterKind::VanLeer,
                                 RiemannSolverKind::Hllc};

template <int Dim>
struct DeviceCase {
  using PDE = Euler<Dim>;
  using SecondOrderBaseline = UnfusedSchemeDevice<PDE, Plm<VanLeer>, Hllc>;
  int n, halo;
  UniformPatchGrid<Dim> grid;
  DeviceArray<double> q, qNew, lambda;
  DeviceArray<PatchGeometry<Dim>> geometry;
  // First order (halo 1): seed 004's pipeline; second order (halo 2): the scheme's, and the
  // output of a second stage.
  std::unique_ptr<UnfusedRusanovDevice<PDE>> unfused;
  std::unique_ptr<SecondOrderBaseline> unfusedSecond;
  DeviceArray<double> qStage;

  DeviceCase(int cellsPerAxis, int haloWidth)
      : n(cellsPerAxis), halo(haloWidth),
        grid(PatchLayout<Dim>{n, halo, PDE::kNumVars}, patchesFor(n, halo),
             Vec<double, Dim>::filled(0.0), Vec<double, Dim>::filled(1.0)),
        q(grid.numPatches() * grid.layout().patchStride(), MemorySpace::Device),
        qNew(q.size(), MemorySpace::Device), lambda(grid.numPatches(), MemorySpace::Device),
        geometry(grid.numPatches(), MemorySpace::Device),
        qStage(halo == 2 ? q.size() : 0, MemorySpace::Device) {
    if (halo == 1)
      unfused = std::make_unique<UnfusedRusanovDevice<PDE>>(grid.layout(), grid.numPatches());
    else
      unfusedSecond = std::make_unique<SecondOrderBaseline>(grid.layout(), grid.numPatches());
    // A smooth, non-trivial state everywhere, halo included (never time on zeros).
    const PDE pde;
    std::vector<double> host(q.size());
    const auto& layout = grid.layout();
    forEachPatch(grid.numPatches(), [&](int p) { // on every host core: 1 GB to fill
      for (int c = 0; c < layout.cellsWithHalo(); ++c) {
        const double s = std::sin(1e-3 * double(c + 7 * p));
        typename PDE::State w;
        w[PDE::kDensity] = 1.0 + 0.2 * s;
        for (int a = 0; a < Dim; ++a)
          w[PDE::kMomentum + a] = (a % 2 ? -0.1 : 0.1) * s;
        w[PDE::kEnergy] = 1.0 + 0.1 * s;
        const auto conserved = pde.toConserved(w);
        for (int v = 0; v < PDE::kNumVars; ++v)
          host[layout.varOffset(p, v) + std::size_t(c)] = conserved[v];
      }
    });
    q.copyFromHost(host);
    geometry.copyFromHost(grid.geometries());
  }

  // Enough patches per axis for kStateBytes of state with halo.
  static Vec<int, Dim> patchesFor(int n, int halo) {
    const double patchBytes = 8.0 * PDE::kNumVars * std::pow(n + 2.0 * halo, Dim);
    return Vec<int, Dim>::filled(int(std::ceil(std::pow(kStateBytes / patchBytes, 1.0 / Dim))));
  }

  // Bytes an update must move: the state with halo read once, the interior written once.
  double updateBytes() const {
    const auto& layout = grid.layout();
    return double(grid.numPatches()) * PDE::kNumVars * 8.0 *
           (layout.cellsWithHalo() + layout.interiorCells());
  }
  double copyBytes() const { return 2.0 * double(q.bytes()); }
};

// One case at a time: asking for another frees the current one first.
template <int Dim>
std::unique_ptr<DeviceCase<Dim>>& caseSlot() {
  static std::unique_ptr<DeviceCase<Dim>> slot;
  return slot;
}

template <int Dim>
DeviceCase<Dim>& deviceCase(int n, int halo = 1) {
  auto& slot = caseSlot<Dim>();
  if (!slot || slot->n != n || slot->halo != halo) {
    caseSlot<2>().reset();
    caseSlot<3>().reset();
    slot = std::make_unique<DeviceCase<Dim>>(n, halo);
  }
  return *slot;
}

// Seconds of one call of f, device work included.
template <class F>
double timed(F&& f) {
  synchronizeDevice();
  Stopwatch watch;
  f();
  synchronizeDevice();
  return watch.seconds();
}

// The benchmark loop over calls of f; returns the mean seconds of a call (0 if skipped).
template <class F>
double timedLoop(benchmark::State& state, F&& f) {
  double seconds = 0.0;
  for (auto _ : state) {
    const double s = timed(f);
    state.SetIterationTime(s);
    seconds += s;
  }
  return state.iterations() > 0 ? seconds / double(state.iterations()) : 0.0;
}

// The timed loop and the counters of an update; `update` is one call.
template <int Dim, class F>
void runUpdate(benchmark::State& state, DeviceCase<Dim>& c, F&& update) {
  try {
    update();                           // warm-up
  } catch (const std::logic_error& e) { // a kernel this build does not have (yet)
    state.SkipWithError(e.what());
  }
  const double copySeconds = state.error_occurred() ? 0.0 : timed([&] { c.qNew.copyFrom(c.q); });
  const double seconds = timedLoop(state, update);
  if (state.error_occurred())
    return;
  const double bytes = c.updateBytes();
  state.counters["cell-updates/s"] = double(c.grid.numCells()) / seconds;
  state.counters["GB/s"] = bytes * 1e-9 / seconds;
  state.counters["fraction of copy"] = (bytes / seconds) / (c.copyBytes() / copySeconds);
}

// Periodic x (and z), reflecting y.
template <int Dim>
DomainBoundary<Dim> mixedBoundary() {
  DomainBoundary<Dim> boundary = DomainBoundary<Dim>::all(BoundaryKind::Periodic);
  boundary.kind[1] = {BoundaryKind::Reflecting, BoundaryKind::Reflecting};
  return boundary;
}

template <int Dim>
void BM_Copy(benchmark::State& state, int n, int halo) {
  DeviceCase<Dim>& c = deviceCase<Dim>(n, halo);
  c.qNew.copyFrom(c.q); // warm-up
  const double seconds = timedLoop(state, [&] { c.qNew.copyFrom(c.q); });
  state.counters["GB/s"] = c.copyBytes() * 1e-9 / seconds;
}

template <int Dim>
void BM_Fused(benchmark::State& state, int n) {
  DeviceCase<Dim>& c = deviceCase<Dim>(n);
  const Euler<Dim> pde;
  runUpdate(state, c, [&] {
    rusanovUpdateDevice(pde, c.grid.layout(), c.geometry.data(), c.grid.numPatches(), c.q.data(),
                        c.qNew.data(), kDt, c.lambda.data());
  });
}

template <int Dim>
void BM_FusedLinked(benchmark::State& state, int n) {
  DeviceCase<Dim>& c = deviceCase<Dim>(n);
  const Euler<Dim> pde;
  HaloPlan<Dim> plan = buildUniformHaloPlan(c.grid, mixedBoundary<Dim>());
  FaceLinks<Dim> links = unlinkedFaces<Dim>(c.grid.numPatches());
  linkSameLevelFaces(plan, c.grid.layout(), links);
  const DeviceArray<int> neighbours = toDevice(links.neighbour);
  runUpdate(state, c, [&] {
    rusanovUpdateDevice(pde, c.grid.layout(), c.geometry.data(), c.grid.numPatches(), c.q.data(),
                        c.qNew.data(), kDt, c.lambda.data(), nullptr, nullptr, neighbours.data());
  });
}

template <int Dim>
void BM_Unfused(benchmark::State& state, int n) {
  DeviceCase<Dim>& c = deviceCase<Dim>(n);
  const Euler<Dim> pde;
  runUpdate(state, c, [&] {
    c.unfused->update(pde, c.geometry.data(), c.q.data(), c.qNew.data(), kDt, c.lambda.data());
  });
  if (!state.error_occurred())
    state.counters["temporaries GB"] = double(c.unfused->temporaryBytes()) * 1e-9;
}

template <int Dim>
const amr::IndicatorCriterion kPressureLoehner{amr::Indicator::Loehner, Euler<Dim>::kEnergy, true};

template <int Dim>
void BM_FusedFlagged(benchmark::State& state, int n) {
  DeviceCase<Dim>& c = deviceCase<Dim>(n);
  const Euler<Dim> pde;
  DeviceArray<amr::AdaptFlag> flags(c.grid.numPatches(), MemorySpace::Device);
  const UpdateCriterion criterion{kPressureLoehner<Dim>, flags.data()};
  runUpdate(state, c, [&] {
    rusanovUpdateDevice(pde, c.grid.layout(), c.geometry.data(), c.grid.numPatches(), c.q.data(),
                        c.qNew.data(), kDt, c.lambda.data(), nullptr, nullptr, nullptr, &criterion);
  });
}

// Bytes the criterion must read: every interior cell and face halo cell once (no edge or
// corner); counters as for the updates.
template <int Dim>
void BM_RefinementFlags(benchmark::State& state, int n) {
  DeviceCase<Dim>& c = deviceCase<Dim>(n);
  const Euler<Dim> pde;
  const amr::IndicatorCriterion criterion = kPressureLoehner<Dim>;
  DeviceArray<amr::AdaptFlag> flags(c.grid.numPatches(), MemorySpace::Device);
  const auto pass = [&] {
    refinementFlagsDevice(pde, c.grid.layout(), criterion, c.q.data(), c.grid.numPatches(),
                          flags.data());
  };
  pass(); // warm-up
  const double copySeconds = timed([&] { c.qNew.copyFrom(c.q); });
  const double seconds = timedLoop(state, pass);
  const double faceCells = 2.0 * Dim * std::pow(double(n), Dim - 1);
  const double bytes = double(c.grid.numPatches()) * Euler<Dim>::kNumVars * 8.0 *
                       (double(c.grid.layout().interiorCells()) + faceCells);
  state.counters["cells/s"] = double(c.grid.numCells()) / seconds;
  state.counters["GB/s"] = bytes * 1e-9 / seconds;
  state.counters["fraction of copy"] = (bytes / seconds) / (c.copyBytes() / copySeconds);
}

template <int Dim>
void BM_FusedStage(benchmark::State& state, int n) {
  DeviceCase<Dim>& c = deviceCase<Dim>(n, 2);
  const Euler<Dim> pde;
  runUpdate(state, c, [&] {
    fusedUpdateDevice(pde, kSecondOrder, c.grid.layout(), c.geometry.data(), c.grid.numPatches(),
                      c.q.data(), c.qNew.data(), StageWeights{kDt}, c.lambda.data(), nullptr,
                      nullptr, nullptr);
  });
}

// Both stages; the counters are per whole step (bytes: each stage's state read with its halo and
// interior written, the second stage's Q^n read too).
template <int Dim>
void BM_FusedRk2(benchmark::State& state, int n) {
  DeviceCase<Dim>& c = deviceCase<Dim>(n, 2);
  const Euler<Dim> pde;
  const auto step = [&] {
    for (int s = 0; s < 2; ++s)
      fusedUpdateDevice(pde, kSecondOrder, c.grid.layout(), c.geometry.data(), c.grid.numPatches(),
                        s == 0 ? c.q.data() : c.qNew.data(),
                        s == 0 ? c.qNew.data() : c.qStage.data(),
                        StageWeights::of(kSspRk2.stage[s], kDt, c.q.data()), c.lambda.data(),
                        nullptr, nullptr, nullptr);
  };
  step(); // warm-up
  const double copySeconds = timed([&] { c.qStage.copyFrom(c.q); });
  const double seconds = timedLoop(state, step);
  const auto& layout = c.grid.layout();
  const double bytes = double(c.grid.numPatches()) * Euler<Dim>::kNumVars * 8.0 *
                       (2.0 * layout.cellsWithHalo() + 3.0 * layout.interiorCells());
  state.counters["cell-updates/s"] = double(c.grid.numCells()) / seconds;
  state.counters["GB/s"] = bytes * 1e-9 / seconds;
  state.counters["fraction of copy"] = (bytes / seconds) / (c.copyBytes() / copySeconds);
}

template <int Dim>
void BM_UnfusedStage(benchmark::State& state, int n) {
  DeviceCase<Dim>& c = deviceCase<Dim>(n, 2);
  const Euler<Dim> pde;
  runUpdate(state, c, [&] {
    c.unfusedSecond->update(pde, c.geometry.data(), c.q.data(), c.qNew.data(), StageWeights{kDt},
                            c.lambda.data());
  });
  if (!state.error_occurred())
    state.counters["temporaries GB"] = double(c.unfusedSecond->temporaryBytes()) * 1e-9;
}

template <int Dim>
void registerCases() {
  for (int n : {8, 16, 32}) {
    const std::string suffix = std::to_string(Dim) + "D/" + std::to_string(n);
    // The benchmarks of one case next to each other: the case is built once for them.
    for (auto* b :
         {benchmark::RegisterBenchmark(("BM_Copy" + suffix).c_str(), BM_Copy<Dim>, n, 1),
          benchmark::RegisterBenchmark(("BM_Fused" + suffix).c_str(), BM_Fused<Dim>, n),
          benchmark::RegisterBenchmark(("BM_FusedLinked" + suffix).c_str(), BM_FusedLinked<Dim>, n),
          benchmark::RegisterBenchmark(("BM_Unfused" + suffix).c_str(), BM_Unfused<Dim>, n),
          benchmark::RegisterBenchmark(("BM_FusedFlagged" + suffix).c_str(), BM_FusedFlagged<Dim>,
                                       n),
          benchmark::RegisterBenchmark(("BM_RefinementFlags" + suffix).c_str(),
                                       BM_RefinementFlags<Dim>, n),
          benchmark::RegisterBenchmark(("BM_Copy" + suffix + "/h2").c_str(), BM_Copy<Dim>, n, 2),
          benchmark::RegisterBenchmark(("BM_FusedStage" + suffix).c_str(), BM_FusedStage<Dim>, n),
          benchmark::RegisterBenchmark(("BM_FusedRk2" + suffix).c_str(), BM_FusedRk2<Dim>, n),
          benchmark::RegisterBenchmark(("BM_UnfusedStage" + suffix).c_str(), BM_UnfusedStage<Dim>,
                                       n)})
      b->UseManualTime()
          ->Iterations(1)
          ->Repetitions(kRepetitions)
          ->ReportAggregatesOnly(true)
          ->Unit(benchmark::kMillisecond);
  }
}

// The halo fill of a uniform grid (DeviceHaloPlan::fill, one launch), on the same cases:
//   BM_HaloFill<d>D/N  periodic x (and z), reflecting y: same-level copies, periodic images and
//                      mirror images with signs.
// Counters: halo-cells/s; GB/s over the bytes a fill must move, every halo cell's variables read
// once (from an interior cell) and written once; fraction of copy, as above; construct ms, the
// host cost of DeviceHaloPlan's constructor (tables and uploads) for this plan. The fill writes
// the halo of qNew, a copy of q made by the copy that is timed, so q stays as the updates see it.
template <int Dim>
ReflectionParity eulerParity() {
  constexpr int nv = Euler<Dim>::kNumVars;
  ReflectionParity parity(Dim * nv);
  for (int a = 0; a < Dim; ++a)
    for (int v = 0; v < nv; ++v)
      parity[a * nv + v] = Euler<Dim>::reflectionParity(v, a);
  return parity;
}

template <int Dim>
void BM_HaloFill(benchmark::State& state, int n) {
  DeviceCase<Dim>& c = deviceCase<Dim>(n);
  const HaloPlan<Dim> plan = buildUniformHaloPlan(c.grid, mixedBoundary<Dim>());
  Stopwatch construct;
  const DeviceHaloPlan<Dim> halo(plan, c.grid.layout(), eulerParity<Dim>());
  const double constructSeconds = construct.seconds();
  const double copySeconds = timed([&] { c.qNew.copyFrom(c.q); });
  halo.fill(c.qNew.data()); // warm-up
  const double seconds = timedLoop(state, [&] { halo.fill(c.qNew.data()); });
  const double bytes = double(halo.numHaloCells()) * Euler<Dim>::kNumVars * 8.0 * 2.0;
  state.counters["halo-cells/s"] = double(halo.numHaloCells()) / seconds;
  state.counters["GB/s"] = bytes * 1e-9 / seconds;
  state.counters["fraction of copy"] = (bytes / seconds) / (c.copyBytes() / copySeconds);
  state.counters["construct ms"] = constructSeconds * 1e3;
}

template <int Dim>
void registerHaloCase(int n) {
  const std::string name = "BM_HaloFill" + std::to_string(Dim) + "D/" + std::to_string(n);
  benchmark::RegisterBenchmark(name.c_str(), BM_HaloFill<Dim>, n)
      ->UseManualTime()
      ->Iterations(1)
      ->Repetitions(kRepetitions)
      ->ReportAggregatesOnly(true)
      ->Unit(benchmark::kMillisecond);
}

} // namespace
} // namespace tessera

int main(int argc, char** argv) {
  if (!tessera::deviceAvailable()) {
    std::fprintf(stderr, "bench_device_update: no GPU visible\n");
    return 1;
  }
  tessera::registerCases<2>();
  tessera::registerCases<3>();
  tessera::registerHaloCase<2>(16);
  tessera::registerHaloCase<3>(16);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
