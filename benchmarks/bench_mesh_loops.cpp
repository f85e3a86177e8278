// The mesh loop modes of seed 003 (solvers/unstructured/mesh_loops.hpp): every mode of the five
// kernels on a box of n^3 cubes cut into 6 n^3 tetrahedra (n = 70 by default: 2.06 M cells), with
// the cells shuffled and then RCM-ordered:
//   BM_<kernel>/<mode>/<ordering>/<n>   kernel: interpolation, gradient, least_squares, flux_sum,
//                                       min_max;
//                                       mode: face, cell, node (as the kernel has them).
// On the device where the build has one and it is visible (the device twins), else on the host
// (OpenMP); the context line "space" says which. Own flags, given before Google Benchmark's:
//   --cubes=70,90              n per case (each case 6 n^3 tetrahedra);
//   --strategy=global_atomic   the face scatter's strategy (face loops of the gradients and
//                              flux_sum).
//
// Counters: cells/s, and GB/s, the effective bandwidth over the bytes every mode of a kernel must
// move at least (each input read once, each output written once, the mesh relation the kernel
// needs once in its most compact form), so that within a kernel GB/s ranks the modes as time does:
//   interpolation  q (40 B/cell), qNode (40 B/node), per cell-node pair its node index and weight
//                  (4 + 8 B);
//   gradient       qNode (40 B/node), the cell's matrix (72 B/cell), grad (120 B/cell), per face
//                  owner, neighbour, area vector and its 3 node indices (8 + 24 + 12 B);
//   least_squares  q and the cell's matrix (40 + 72 B/cell), grad (120 B/cell), per face owner,
//                  neighbour and weighted offset (8 + 24 B);
//   flux_sum       flux, owner, neighbour (40 + 8 B/face), residual (40 B/cell);
//   min_max        q (40 B/cell), minima and maxima (80 B/cell), owner, neighbour (8 B/face).
// What a mode moves beyond that (indirect loads that miss, zeroing a scattered output, atomics)
// is its overhead, the subject of the seed's comparison.
//
// One case lives at a time and is built once for all its benchmarks, registered next to each
// other; building it runs every mode once untimed (first touch, module loading). Each repetition
// then times one call; the reported time is the median of the repetitions.
#include <benchmark/benchmark.h>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <memory>
#include <omp.h>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchmarks/sample_timing.hpp"
#include "engine/atomics/strategy.hpp"
#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "engine/timer.hpp"
#include "engine/unstructured/box_mesh.hpp"
#include "engine/unstructured/renumbering.hpp"
#include "solvers/unstructured/mesh_loops.hpp"
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
#include "solvers/unstructured/mesh_loops_device.hpp"
#endif

namespace tessera::unstructured {
namespace {

constexpr int kDeviceRepetitions = 30;
constexpr int kHostRepetitions = 10;

enum class Ordering { Rcm, Shuffled };

MemorySpace loopSpace() {
  return deviceAvailable() ? MemorySpace::Device : MemorySpace::Host;
}

atomics::Strategy& faceStrategy() {
  static atomics::Strategy strategy = atomics::Strategy::GlobalAtomic;
  return strategy;
}

Mesh tetrahedralBox(int cubes, Ordering ordering) {
  BoxMeshSpec spec;
  spec.nx = spec.ny = spec.nz = cubes;
  spec.cells = BoxCells::Tetrahedra;
  spec.shuffle = true;
  spec.seed = 1;
  Mesh shuffled = buildMesh(boxMesh(spec));
  return ordering == Ordering::Shuffled ? shuffled
                                        : renumbered(shuffled, reverseCuthillMcKee(shuffled));
}

// A smooth, non-trivial value per item and variable (never time on zeros).
std::vector<double> smoothValues(int items) {
  std::vector<double> v(std::size_t(kCellVars) * std::size_t(items));
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = 1.0 + 0.5 * std::sin(1e-3 * double(i));
  return v;
}

void run(const MeshLoopPlan& plan, LoopKernel kernel, LoopMode mode, const double* in,
         double* out) {
  const atomics::Strategy s = faceStrategy();
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
  if (plan.space() == MemorySpace::Device) {
    switch (kernel) {
    case LoopKernel::Interpolation:
      return interpolateToNodesDevice(plan, mode, in, out);
    case LoopKernel::Gradient:
      return greenGaussGradientDevice(plan, mode, s, in, out);
    case LoopKernel::LeastSquares:
      return leastSquaresGradientDevice(plan, mode, s, in, out);
    case LoopKernel::NodeLeastSquares:
      return nodeLeastSquaresGradientDevice(plan, mode, s, in, out);
    case LoopKernel::FluxSum:
      return sumFluxesDevice(plan, mode, s, in, out);
    case LoopKernel::MinMax:
      return localMinMaxDevice(plan, mode, in, out);
    }
  }
#endif
  switch (kernel) {
  case LoopKernel::Interpolation:
    return interpolateToNodesHost(plan, mode, in, out);
  case LoopKernel::Gradient:
    return greenGaussGradientHost(plan, mode, s, in, out);
  case LoopKernel::LeastSquares:
    return leastSquaresGradientHost(plan, mode, s, in, out);
  case LoopKernel::NodeLeastSquares:
    return nodeLeastSquaresGradientHost(plan, mode, s, in, out);
  case LoopKernel::FluxSum:
    return sumFluxesHost(plan, mode, s, in, out);
  case LoopKernel::MinMax:
    return localMinMaxHost(plan, mode, in, out);
  }
}

struct LoopCase {
  int cubes;
  Ordering ordering;
  int cells = 0, faces = 0, nodes = 0, cellNodePairs = 0, stencilPairs = 0;
  std::optional<MeshLoopPlan> plan;
  DeviceArray<double> q, flux, out;

  LoopCase(int n, Ordering o) : cubes(n), ordering(o) {
    const Mesh mesh = tetrahedralBox(n, o);
    cells = mesh.numCells();
    faces = mesh.numFaces();
    nodes = mesh.numNodes();
    cellNodePairs = int(mesh.cellNodes.indices.size());
    const MemorySpace space = loopSpace();
    plan.emplace(mesh, space, GradientStencil::NodeNeighbours);
    stencilPairs = plan->pairScatter().numFaces();
    q = DeviceArray<double>(std::size_t(kCellVars) * std::size_t(cells), space);
    q.copyFromHost(smoothValues(cells));
    flux = DeviceArray<double>(std::size_t(kCellVars) * std::size_t(faces), space);
    flux.copyFromHost(smoothValues(faces));
    out = DeviceArray<double>(std::max(std::size_t(kGradientValues) * std::size_t(cells),
                                       std::size_t(kCellVars) * std::size_t(nodes)),
                              space);
    for (LoopKernel k : kAllLoopKernels)
      for (LoopMode m : kAllLoopModes)
        if (hasLoopMode(k, m))
          call(k, m);
  }

  // The gradient reads node values: the first nodes' worth of q serves (a tetrahedral box has
  // about one node per 6 cells).
  void call(LoopKernel k, LoopMode m) {
    run(*plan, k, m, k == LoopKernel::FluxSum ? flux.data() : q.data(), out.data());
  }

  // The byte model of the header.
  double bytes(LoopKernel k) const {
    const double c = cells, f = faces;
    switch (k) {
    case LoopKernel::Interpolation:
      return 40.0 * c + 40.0 * nodes + 12.0 * cellNodePairs;
    case LoopKernel::Gradient:
      return 40.0 * nodes + 192.0 * c + 44.0 * f;
    case LoopKernel::LeastSquares:
      return 232.0 * c + 32.0 * f;
    case LoopKernel::NodeLeastSquares:
      return 496.0 * c + 8.0 * stencilPairs;
    case LoopKernel::FluxSum:
      return 48.0 * f + 40.0 * c;
    default:
      return 120.0 * c + 8.0 * f;
    }
  }
};

// One case at a time: asking for another frees the current one first.
LoopCase& loopCase(int cubes, Ordering ordering) {
  static std::unique_ptr<LoopCase> slot;
  if (!slot || slot->cubes != cubes || slot->ordering != ordering) {
    slot.reset();
    slot = std::make_unique<LoopCase>(cubes, ordering);
  }
  return *slot;
}

void BM_Loop(benchmark::State& state, LoopKernel kernel, LoopMode mode, Ordering ordering,
             int cubes) {
  LoopCase& c = loopCase(cubes, ordering);
  double seconds = 0.0;
  for (auto _ : state) {
    synchronizeDevice();
    const Stopwatch watch;
    c.call(kernel, mode);
    synchronizeDevice();
    state.SetIterationTime(watch.seconds());
    seconds += watch.seconds();
  }
  seconds /= double(state.iterations());
  state.counters["GB/s"] = c.bytes(kernel) * 1e-9 / seconds;
  state.counters["cells/s"] = double(c.cells) / seconds;
}

void registerCases(const std::vector<int>& cubes) {
  const int repetitions =
      loopSpace() == MemorySpace::Device ? kDeviceRepetitions : kHostRepetitions;
  for (int n : cubes)
    for (Ordering o : {Ordering::Rcm, Ordering::Shuffled})
      for (LoopKernel k : kAllLoopKernels)
        for (LoopMode m : kAllLoopModes) {
          if (!hasLoopMode(k, m))
            continue;
          std::string name = "BM_";
          name += loopKernelName(k);
          name += "/";
          name += loopModeName(m);
          name += o == Ordering::Rcm ? "/rcm/" : "/shuffled/";
          name += std::to_string(n);
          bench::timedOncePerRepetition(
              benchmark::RegisterBenchmark(name.c_str(), BM_Loop, k, m, o, n), repetitions);
        }
}

// Takes this program's flags out of argv (Google Benchmark rejects flags it does not know).
// Returns false, having said why, for a malformed one.
bool takeOwnFlags(int& argc, char** argv, std::vector<int>& cubes) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--cubes=")) {
      cubes.clear();
      for (std::string_view rest = arg.substr(8);;) {
        int n = 0;
        const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), n);
        if (error != std::errc() || n < 1 || (end != rest.end() && *end != ',')) {
          std::fprintf(stderr, "bench_mesh_loops: --cubes wants positive integers: %s\n", argv[i]);
          return false;
        }
        cubes.push_back(n);
        if (end == rest.end())
          break;
        rest = rest.substr(std::size_t(end - rest.data()) + 1);
      }
    } else if (arg.starts_with("--strategy=")) {
      const auto s = atomics::parseStrategy(arg.substr(11));
      if (!s) {
        std::fprintf(stderr, "bench_mesh_loops: --strategy is one of %s\n",
                     std::string(atomics::strategyNameList()).c_str());
        return false;
      }
      faceStrategy() = *s;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return true;
}

} // namespace
} // namespace tessera::unstructured

int main(int argc, char** argv) {
  using namespace tessera::unstructured;
  std::vector<int> cubes = {70};
  if (!takeOwnFlags(argc, argv, cubes))
    return 1;
  const bool device = loopSpace() == tessera::MemorySpace::Device;
  benchmark::AddCustomContext("space", device ? "device" : "host");
  benchmark::AddCustomContext("host threads", std::to_string(omp_get_max_threads()));
  benchmark::AddCustomContext("face scatter",
                              std::string(tessera::atomics::strategyName(faceStrategy())));
  registerCases(cubes);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
