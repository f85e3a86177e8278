// The unstructured solver's residual and implicit iteration on a box of n^3 cubes cut into 6 n^3
// tetrahedra (n = 70 by default: 2.06 M cells), RCM-ordered, on the device where there is one
// (else the host, OpenMP):
//   BM_Copy                 a device-to-device copy of 4 doubles per cell each way: the ceiling;
//   BM_Residual/first_order the first-order Rusanov residual (the flux scatter);
//   BM_Residual/<scheme>    the second-order residual (primitives, gradient, min/max, limiter,
//                           MUSCL fluxes): least squares over the node neighbours (the default
//                           on tetrahedra) or the face neighbours, or Green-Gauss; Venkatakrishnan,
//                           Roe;
//   BM_Gradient/<method>    the gradient alone (Green-Gauss: the interpolation to the nodes and
//                           its face scatter), BM_MinMax the min/max alone: the residual's split;
//   BM_Implicit/<flux>/<gradient>  one implicit iteration at second order (residual, its norm,
//                           the first-order Rusanov or Roe Jacobian's blocks, 15 multicolor sweeps
//                           in mixed precision and the relaxed update), at CFL 50, with the
//                           Jacobian's scatter strategy that times fastest for Rusanov's (each
//                           strategy's split into measurement and step is printed first), with
//                           node-neighbour and face-neighbour least squares.
// Every scatter's strategy is tuned first (printed). Counters: cells/s, and GB/s over the bytes a
// second-order residual must move at least: the state read and the residual written (80 B/cell),
// the primitive variables written and read (80 B/cell), the gradient written and read twice (360
// B/cell: the limiter reads and rewrites it, the fluxes read it), the min/max written and read
// (160 B/cell), the least-squares matrix (72 B/cell), per face owner, neighbour, area vector,
// reconstruction offsets and least-squares vector (8 + 24 + 48 + 24 B): 752 B/cell + 104 B/face.
// The node-neighbour gradient's bytes: the primitive variables and centroids read (64 B/cell),
// the pairs' raw sums written, read and the gradient written (360 B/cell), the matrix (72 B/cell),
// and each pair's two cell indices (8 B/pair), the neighbours' values counted once per cell.
// Own flag before Google Benchmark's: --cubes=70.
#include <benchmark/benchmark.h>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "benchmarks/sample_timing.hpp"
#include "engine/atomics/strategy.hpp"
#include "engine/device_array.hpp"
#include "engine/linalg/precision.hpp"
#include "engine/memory.hpp"
#include "engine/timer.hpp"
#include "engine/unstructured/box_mesh.hpp"
#include "engine/unstructured/renumbering.hpp"
#include "solvers/unstructured/mesh_loops.hpp"
#include "solvers/unstructured/unstructured_euler.hpp"
#include "solvers/unstructured/unstructured_implicit.hpp"
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
#include "solvers/unstructured/mesh_loops_device.hpp"
#endif

namespace tessera {
namespace {

int& cubes() {
  static int n = 70;
  return n;
}

MemorySpace space() {
  return deviceAvailable() ? MemorySpace::Device : MemorySpace::Host;
}

// A smooth flow with a pressure bump inside the unit cube, farfield all round.
Euler<3>::State initial(const Vec<double, 3>& x) {
  const double r2 =
      (x[0] - 0.4) * (x[0] - 0.4) + (x[1] - 0.5) * (x[1] - 0.5) + (x[2] - 0.5) * (x[2] - 0.5);
  return Euler<3>{}.toConserved({{1.0, 0.5, 0.1, 0.0, 1.0 + 2.0 * std::exp(-r2 / 0.02)}});
}

UnstructuredBoundary farfield() {
  UnstructuredBoundary b;
  for (int tag = 1; tag <= 6; ++tag)
    b.kindOfTag[tag] = FaceKind::Farfield;
  b.farfield = initial({{0.0, 0.0, 0.0}});
  return b;
}

struct Case {
  ColorContiguousMesh colored;
  std::unique_ptr<UnstructuredEuler> first, nodeLeastSquares, leastSquares, greenGauss;
  std::unique_ptr<unstructured::MeshLoopPlan> plan;
  DeviceArray<double> w, qNode, grad, minMax, copySource, copyTarget;
  // Implicit iterations with node-neighbour and face-neighbour least squares.
  std::unique_ptr<UnstructuredImplicit<linalg::MixedPrecision>> implicit[2];
  double cells = 0, faces = 0, pairs = 0;

  Case() {
    unstructured::BoxMeshSpec spec;
    spec.nx = spec.ny = spec.nz = cubes();
    spec.cells = unstructured::BoxCells::Tetrahedra;
    const unstructured::Mesh mesh = unstructured::buildMesh(unstructured::boxMesh(spec));
    colored = colorContiguousMesh(
        unstructured::renumbered(mesh, unstructured::reverseCuthillMcKee(mesh)));
    cells = colored.mesh.numCells();
    faces = colored.mesh.numFaces();
    UnstructuredScheme nls, ls, gg;
    nls.gradient = UnstructuredGradient::NodeLeastSquares;
    ls.gradient = UnstructuredGradient::LeastSquares;
    gg.gradient = UnstructuredGradient::GreenGauss;
    first = make(UnstructuredScheme::firstOrderRusanov());
    nodeLeastSquares = make(nls);
    leastSquares = make(ls);
    greenGauss = make(gg);
    plan = std::make_unique<unstructured::MeshLoopPlan>(
        colored.mesh, space(), unstructured::GradientStencil::NodeNeighbours);
    pairs = plan->pairScatter().numFaces();
    std::printf("node-neighbour stencil: %.0f pairs, %.1f per cell\n", pairs, 2.0 * pairs / cells);
    const std::size_t n = std::size_t(cells);
    w = DeviceArray<double>(5 * n, space());
    w.copyFrom(DeviceArray<double>(toSpace(leastSquares->hostState(), space())));
    qNode = DeviceArray<double>(5 * std::size_t(colored.mesh.numNodes()), space());
    grad = DeviceArray<double>(15 * n, space());
    minMax = DeviceArray<double>(10 * n, space());
    copySource = DeviceArray<double>(4 * n, space());
    copyTarget = DeviceArray<double>(4 * n, space());
    ImplicitSettings settings;
    settings.cfl = settings.cflMax = 50.0;
    for (int i = 0; i < 2; ++i) {
      UnstructuredEuler& solver = i == 0 ? *nodeLeastSquares : *leastSquares;
      settings.jacobianStrategy = solver.strategy(EulerScatter::Residual);
      implicit[i] = std::make_unique<UnstructuredImplicit<linalg::MixedPrecision>>(
          solver, colored.pattern, settings);
      tuneJacobian(*implicit[i]);
    }
  }

  // The Jacobian's K = 25 scatter by every strategy: the median of 5 implicit iterations each,
  // split into the measurement (residual and its norm) and the step (local steps, Jacobian,
  // sweeps, update); keeps the fastest.
  void tuneJacobian(UnstructuredImplicit<linalg::MixedPrecision>& iteration) {
    double best = INFINITY;
    atomics::Strategy chosen = atomics::Strategy::GlobalAtomic;
    for (atomics::Strategy s : atomics::kAllStrategies) {
      iteration.setJacobianStrategy(s);
      std::vector<double> measure, step;
      for (int i = 0; i < 6; ++i) {
        synchronizeDevice();
        Stopwatch watch;
        const PseudoTimeStep m = iteration.measure();
        synchronizeDevice();
        const double measured = watch.seconds();
        iteration.step(m.cfl);
        synchronizeDevice();
        if (i > 0) { // the first warms up
          measure.push_back(measured);
          step.push_back(watch.seconds() - measured);
        }
      }
      const double total = bench::median(measure) + bench::median(step);
      std::printf("implicit iteration, Jacobian scatter %s: measurement %.3f ms, step %.3f ms\n",
                  std::string(atomics::strategyName(s)).c_str(), 1e3 * bench::median(measure),
                  1e3 * bench::median(step));
      if (total < best) {
        best = total;
        chosen = s;
      }
    }
    iteration.setJacobianStrategy(chosen);
    std::printf("implicit iteration: the Jacobian scatter takes %s\n",
                std::string(atomics::strategyName(chosen)).c_str());
  }

  std::unique_ptr<UnstructuredEuler> make(const UnstructuredScheme& scheme) {
    auto solver = std::make_unique<UnstructuredEuler>(Euler<3>{}, colored.mesh, farfield(), 0.9,
                                                      space(), scheme);
    solver->initialise(initial);
    for (EulerScatter s : kEulerScatters) {
      if (s == EulerScatter::Gradient && !scheme.secondOrder())
        continue;
      const atomics::TunerChoice choice = solver->tuneStrategy(s, atomics::kAllStrategies);
      std::printf("%s, %s scatter: %s\n", describe(scheme).c_str(),
                  std::string(eulerScatterName(s)).c_str(), atomics::describe(choice).c_str());
    }
    return solver;
  }

  double residualBytes() const { return 752.0 * cells + 104.0 * faces; }
};

Case& theCase() {
  static Case c;
  return c;
}

void report(benchmark::State& state, const std::string& key) {
  const double seconds = bench::median(bench::samples()[key]);
  state.counters["cells/s"] = theCase().cells / seconds;
  state.counters["GB/s"] = bench::bytesOf()[key] * 1e-9 / seconds;
}

template <class F>
void timed(benchmark::State& state, const std::string& key, double bytes, F&& call) {
  bench::timedRepetition(state, key, bytes, call);
  report(state, key);
}

void BM_Copy(benchmark::State& state) {
  Case& c = theCase();
  timed(state, "copy", 2.0 * 8.0 * double(c.copySource.size()),
        [&] { c.copyTarget.copyFrom(c.copySource); });
}

void BM_Residual(benchmark::State& state, int which) {
  Case& c = theCase();
  UnstructuredEuler& solver = which == 0   ? *c.first
                              : which == 1 ? *c.nodeLeastSquares
                              : which == 2 ? *c.leastSquares
                                           : *c.greenGauss;
  const double bytes = which == 0 ? 80.0 * c.cells + 80.0 * c.faces : c.residualBytes();
  timed(state, "residual/" + describe(solver.scheme()), bytes, [&] { solver.currentResidual(); });
}

// Argument: the gradient (UnstructuredGradient: 0 Green-Gauss, 1 face-neighbour and 2
// node-neighbour least squares).
void BM_Gradient(benchmark::State& state, UnstructuredGradient gradient) {
  Case& c = theCase();
  const unstructured::MeshLoopPlan& plan = *c.plan;
  const bool leastSquares = gradient == UnstructuredGradient::LeastSquares;
  const bool nodeLeastSquares = gradient == UnstructuredGradient::NodeLeastSquares;
  const atomics::Strategy s = (nodeLeastSquares ? c.nodeLeastSquares
                               : leastSquares   ? c.leastSquares
                                                : c.greenGauss)
                                  ->strategy(EulerScatter::Gradient);
  const double bytes = nodeLeastSquares ? 496.0 * c.cells + 8.0 * c.pairs
                       : leastSquares
                           ? 232.0 * c.cells + 32.0 * c.faces
                           : 40.0 * plan.view().numNodes + 192.0 * c.cells + 44.0 * c.faces;
  timed(state, "gradient/" + std::string(kUnstructuredGradientNames[int(gradient)]), bytes, [&] {
    using unstructured::LoopMode;
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
    if (space() == MemorySpace::Device) {
      if (nodeLeastSquares) {
        unstructured::nodeLeastSquaresGradientDevice(plan, LoopMode::Face, s, c.w.data(),
                                                     c.grad.data());
      } else if (leastSquares) {
        unstructured::leastSquaresGradientDevice(plan, LoopMode::Face, s, c.w.data(),
                                                 c.grad.data());
      } else {
        unstructured::interpolateToNodesDevice(plan, LoopMode::Node, c.w.data(), c.qNode.data());
        unstructured::greenGaussGradientDevice(plan, LoopMode::Face, s, c.qNode.data(),
                                               c.grad.data());
      }
      return;
    }
#endif
    if (nodeLeastSquares) {
      unstructured::nodeLeastSquaresGradientHost(plan, LoopMode::Face, s, c.w.data(),
                                                 c.grad.data());
    } else if (leastSquares) {
      unstructured::leastSquaresGradientHost(plan, LoopMode::Face, s, c.w.data(), c.grad.data());
    } else {
      unstructured::interpolateToNodesHost(plan, LoopMode::Node, c.w.data(), c.qNode.data());
      unstructured::greenGaussGradientHost(plan, LoopMode::Face, s, c.qNode.data(), c.grad.data());
    }
  });
}

void BM_MinMax(benchmark::State& state) {
  Case& c = theCase();
  timed(state, "min_max", 120.0 * c.cells + 8.0 * c.faces, [&] {
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
    if (space() == MemorySpace::Device)
      return unstructured::localMinMaxDevice(*c.plan, unstructured::LoopMode::Cell, c.w.data(),
                                             c.minMax.data());
#endif
    unstructured::localMinMaxHost(*c.plan, unstructured::LoopMode::Cell, c.w.data(),
                                  c.minMax.data());
  });
}

// Arguments: the Jacobian's flux (JacobianFlux: 0 Rusanov, 1 Roe), and the gradient (0
// node-neighbour, 1 face-neighbour least squares).
void BM_Implicit(benchmark::State& state) {
  Case& c = theCase();
  const auto jacobian = JacobianFlux(state.range(0));
  UnstructuredImplicit<linalg::MixedPrecision>& implicit = *c.implicit[state.range(1)];
  implicit.setJacobian(jacobian);
  timed(state,
        std::string("implicit iteration, ") + kJacobianFluxNames[int(jacobian)] + "'s Jacobian, " +
            (state.range(1) == 0 ? "node_least_squares" : "least_squares"),
        c.residualBytes(), [&] { implicit.iterate(); });
}

bool takeOwnFlags(int& argc, char** argv) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--cubes=")) {
      const auto [end, error] = std::from_chars(arg.data() + 8, arg.data() + arg.size(), cubes());
      if (error != std::errc() || end != arg.data() + arg.size() || cubes() < 1) {
        std::fprintf(stderr, "bench_unstructured: --cubes wants a positive integer: %s\n", argv[i]);
        return false;
      }
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return true;
}

} // namespace
} // namespace tessera

int main(int argc, char** argv) {
  using namespace tessera;
  if (!takeOwnFlags(argc, argv))
    return 2;
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("space", memorySpaceName(space()).data());
  benchmark::AddCustomContext("cells", std::to_string(6 * cubes() * cubes() * cubes()));
  const int repetitions = space() == MemorySpace::Device ? 30 : 5;
  bench::timedOncePerRepetition(benchmark::RegisterBenchmark("BM_Copy", BM_Copy), repetitions);
  const char* names[] = {"first_order", "node_least_squares", "least_squares", "green_gauss"};
  for (int which = 0; which < 4; ++which)
    bench::timedOncePerRepetition(
        benchmark::RegisterBenchmark((std::string("BM_Residual/") + names[which]).c_str(),
                                     BM_Residual, which),
        repetitions);
  for (UnstructuredGradient g :
       {UnstructuredGradient::NodeLeastSquares, UnstructuredGradient::LeastSquares,
        UnstructuredGradient::GreenGauss})
    bench::timedOncePerRepetition(
        benchmark::RegisterBenchmark(
            ("BM_Gradient/" + std::string(kUnstructuredGradientNames[int(g)])).c_str(), BM_Gradient,
            g),
        repetitions);
  bench::timedOncePerRepetition(benchmark::RegisterBenchmark("BM_MinMax", BM_MinMax), repetitions);
  for (JacobianFlux jacobian : {JacobianFlux::Rusanov, JacobianFlux::Roe})
    for (int gradient : {0, 1})
      bench::timedOncePerRepetition(
          benchmark::RegisterBenchmark((std::string("BM_Implicit/") +
                                        kJacobianFluxNames[int(jacobian)] +
                                        (gradient == 0 ? "/node_least_squares" : "/least_squares"))
                                           .c_str(),
                                       BM_Implicit)
              ->Args({int(jacobian), gradient}),
          repetitions);
  benchmark::RunSpecifiedBenchmarks();
  // The table for benchmarks/RESULTS.md: medians, and each effective bandwidth against the copy's.
  const double copy = bench::bytesOf()["copy"] / bench::median(bench::samples()["copy"]);
  std::printf("| operation | median ms | cells/s | GB/s | of copy |\n|---|---|---|---|---|\n");
  for (const auto& [key, seconds] : bench::samples()) {
    const double t = bench::median(seconds);
    std::printf("| %s | %.3f | %.3g | %.0f | %.0f%% |\n", key.c_str(), 1e3 * t, theCase().cells / t,
                bench::bytesOf()[key] * 1e-9 / t, 100.0 * bench::bytesOf()[key] / t / copy);
  }
  return 0;
}
