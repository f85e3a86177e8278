#pragma once
// The mesh loop modes of seed 003 (Weng et al.) for the kernels of a cell-centred second-order
// finite-volume solver on the unstructured mesh, NV = 5 variables per cell stored AoS [cell][5]:
//
//   kernel          output (AoS)                                  modes
//   Interpolation   qNode[node][5]: cells -> nodes                 face, cell, node
//   Gradient        grad[cell][5][3]: Green-Gauss from qNode       face, cell, node
//   LeastSquares    grad[cell][5][3]: weighted least squares       face, cell
//   NodeLeastSquares  the same over the node neighbours            face (over the cell pairs)
//   FluxSum         residual[cell][5]: sum of per-face fluxes      face, cell
//   MinMax          minMax[cell][10]: 5 minima, then 5 maxima      face, cell
//
// A face loop runs one item per face and scatters to cells (or nodes) with atomics; a cell loop
// gathers over the cell's faces (race-free) or, for the interpolation, scatters to its nodes; a
// node loop gathers over the node's cells (interpolation, race-free) or scatters each face around
// the node (gradient, seed 003's Algorithm 7). Every mode of a kernel computes the same values up
// to round-off (min/max: exactly).
//
// Definitions (engine/unstructured/reconstruction_geometry.hpp has the geometry;
// tests/support/mesh_loop_references.hpp the definitions written plainly):
//   Interpolation: qNode_n = sum over the cells c around n of w(c, n) q_c, the least-squares
//     linear fit's value at the node (exact for linear fields).
//   Gradient: grad_c = G_c sum_f phi_f S_f, S_f leaving c, phi_f the mean of qNode over the face's
//     nodes, G_c the cell's Green-Gauss matrix (1 / V_c where the faces are planar).
//   LeastSquares: grad_c = L_c sum over c's interior faces of w d (q_neighbour - q_owner).
//   NodeLeastSquares: the same sum over the cells n that share a node with c, w d (q_n - q_c),
//     with that stencil's L_c (a plan built with GradientStencil::NodeNeighbours).
//   FluxSum: residual_c = sum over faces of c of flux_f, minus where c is the owner, plus where it
//     is the neighbour (flux[face][5] given, positive from owner to neighbour).
//   MinMax: the smallest and largest value of each variable over c and its face neighbours.
//
// Each body (mesh_loop_bodies.hpp) is one item of one mode. The drivers in namespace detail run it
// through an execution policy: HostExecution (OpenMP loops, std::atomic_ref) here, DeviceExecution
// (one GPU thread per item, hardware atomics) in mesh_loops_device.cu. The face loops that add to
// cells (gradients, flux summation) go through the atomic-strategy library's face scatter, whose
// strategy the caller picks; the other atomics are plain ones per value.
#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "engine/atomics/scatter_host.hpp"
#include "engine/atomics/strategy.hpp"
#include "solvers/unstructured/mesh_loop_bodies.hpp"
#include "solvers/unstructured/mesh_loop_plan.hpp"

namespace tessera::unstructured {

// ---- Drivers: the modes of each kernel through an execution policy Exec. ------------------------
// Exec provides Atomics, kSpace, forEach(count, body) (body(i) for i in [0, count)),
// fill(p, n, value), and scatter<K>(plan, strategy, contribution, target) (the atomics library).
namespace detail {

template <class Exec>
void requireLoop(const MeshLoopPlan& plan, LoopKernel kernel, LoopMode mode) {
  if (plan.space() != Exec::kSpace)
    throw std::invalid_argument(std::string(loopKernelName(kernel)) + ": the plan is in " +
                                std::string(memorySpaceName(plan.space())) +
                                " memory, the loop runs in " +
                                std::string(memorySpaceName(Exec::kSpace)) + " memory");
  if (!hasLoopMode(kernel, mode))
    throw std::invalid_argument(std::string(loopKernelName(kernel)) + " has no " +
                                std::string(loopModeName(mode)) + " loop");
}

template <class Exec>
void interpolateToNodes(const MeshLoopPlan& plan, LoopMode mode, const double* q, double* qNode) {
  requireLoop<Exec>(plan, LoopKernel::Interpolation, mode);
  using Atomics = typename Exec::Atomics;
  const MeshLoopView m = plan.view();
  const std::size_t values = std::size_t(kCellVars) * std::size_t(m.numNodes);
  switch (mode) {
  case LoopMode::Face:
    Exec::fill(qNode, values, 0.0);
    Exec::forEach(m.numFaces, InterpolateFaceLoop<Atomics>{m, q, qNode});
    return;
  case LoopMode::Cell:
    Exec::fill(qNode, values, 0.0);
    Exec::forEach(m.numCells, InterpolateCellLoop<Atomics>{m, q, qNode});
    return;
  case LoopMode::Node:
    Exec::forEach(m.numNodes, InterpolateNodeLoop{m, q, qNode});
    return;
  }
}

template <class Exec>
void greenGaussGradient(const MeshLoopPlan& plan, LoopMode mode, atomics::Strategy strategy,
                        const double* qNode, double* grad) {
  requireLoop<Exec>(plan, LoopKernel::Gradient, mode);
  const MeshLoopView m = plan.view();
  const std::size_t values = std::size_t(kGradientValues) * std::size_t(m.numCells);
  switch (mode) {
  case LoopMode::Face:
    Exec::fill(grad, values, 0.0);
    Exec::template scatter<kGradientValues>(plan.scatter(), strategy,
                                            GradientFaceContribution{m, qNode}, grad);
    return;
  case LoopMode::Cell:
    Exec::forEach(m.numCells, GradientCellLoop{m, qNode, grad});
    return;
  case LoopMode::Node:
    Exec::fill(grad, values, 0.0);
    Exec::forEach(m.numNodes, GradientNodeLoop<typename Exec::Atomics>{m, qNode, grad});
    return;
  }
}

template <class Exec>
void leastSquaresGradient(const MeshLoopPlan& plan, LoopMode mode, atomics::Strategy strategy,
                          const double* q, double* grad) {
  requireLoop<Exec>(plan, LoopKernel::LeastSquares, mode);
  const MeshLoopView m = plan.view();
  if (mode == LoopMode::Face) {
    Exec::fill(grad, std::size_t(kGradientValues) * std::size_t(m.numCells), 0.0);
    Exec::template scatter<kGradientValues>(plan.scatter(), strategy,
                                            LeastSquaresFaceContribution{m, q}, grad);
  } else {
    Exec::forEach(m.numCells, LeastSquaresCellLoop{m, q, grad});
  }
}

template <class Exec>
void nodeLeastSquaresGradient(const MeshLoopPlan& plan, LoopMode mode, atomics::Strategy strategy,
                              const double* q, double* grad) {
  requireLoop<Exec>(plan, LoopKernel::NodeLeastSquares, mode);
  const MeshLoopView m = plan.view();
  const atomics::FaceScatterPlan& pairs = plan.pairScatter();
  Exec::fill(grad, std::size_t(kGradientValues) * std::size_t(m.numCells), 0.0);
  Exec::template scatter<kGradientValues>(
      pairs, strategy, NodeLeastSquaresPairContribution{m, pairs.topology(), q}, grad);
  Exec::forEach(m.numCells, ApplyNodeLeastSquaresMatrix{m, grad});
}

template <class Exec>
void sumFluxes(const MeshLoopPlan& plan, LoopMode mode, atomics::Strategy strategy,
               const double* flux, double* residual) {
  requireLoop<Exec>(plan, LoopKernel::FluxSum, mode);
  const MeshLoopView m = plan.view();
  if (mode == LoopMode::Face) {
    Exec::fill(residual, std::size_t(kCellVars) * std::size_t(m.numCells), 0.0);
    Exec::template scatter<kCellVars>(plan.scatter(), strategy, FluxFaceContribution{flux},
                                      residual);
  } else {
    Exec::forEach(m.numCells, FluxSumCellLoop{m, flux, residual});
  }
}

template <class Exec>
void localMinMax(const MeshLoopPlan& plan, LoopMode mode, const double* q, double* minMax) {
  requireLoop<Exec>(plan, LoopKernel::MinMax, mode);
  const MeshLoopView m = plan.view();
  if (mode == LoopMode::Face) {
    Exec::forEach(m.numCells, MinMaxSeed{q, minMax});
    Exec::forEach(m.numFaces, MinMaxFaceLoop<typename Exec::Atomics>{m, q, minMax});
  } else {
    Exec::forEach(m.numCells, MinMaxCellLoop{m, q, minMax});
  }
}

} // namespace detail

// ---- The host back end: OpenMP loops. -----------------------------------------------------------

// Relaxed order suffices: the loops only accumulate, and the end of the parallel region orders
// everything before the results are read.
struct HostAtomics {
  static void add(double* p, double v) {
    std::atomic_ref<double>(*p).fetch_add(v, std::memory_order_relaxed);
  }
  // Compare-and-swap until the stored value is no larger (smaller) than v; no store when it is
  // already, the common case once a few neighbours have been seen.
  static void min(double* p, double v) {
    std::atomic_ref<double> r(*p);
    double seen = r.load(std::memory_order_relaxed);
    while (v < seen && !r.compare_exchange_weak(seen, v, std::memory_order_relaxed)) {
    }
  }
  static void max(double* p, double v) {
    std::atomic_ref<double> r(*p);
    double seen = r.load(std::memory_order_relaxed);
    while (v > seen && !r.compare_exchange_weak(seen, v, std::memory_order_relaxed)) {
    }
  }
};

struct HostExecution {
  using Atomics = HostAtomics;
  static constexpr MemorySpace kSpace = MemorySpace::Host;

  template <class Body>
  static void forEach(int count, const Body& body) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < count; ++i)
      body(i);
  }
  static void fill(double* p, std::size_t n, double value) {
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i)
      p[i] = value;
  }
  template <int K, class Contribution>
  static void scatter(const atomics::FaceScatterPlan& plan, atomics::Strategy strategy,
                      const Contribution& f, double* target) {
    atomics::scatterFacesHost<K>(plan, strategy, f, target);
  }
};

// The host loops; plan in host memory, arrays AoS as in the table at the top. `strategy` is the
// face scatter's (face loops of the gradients and the flux summation only). Throw
// std::invalid_argument for a mode the kernel does not have or a plan in device memory.
inline void interpolateToNodesHost(const MeshLoopPlan& plan, LoopMode mode, const double* q,
                                   double* qNode) {
  detail::interpolateToNodes<HostExecution>(plan, mode, q, qNode);
}
inline void greenGaussGradientHost(const MeshLoopPlan& plan, LoopMode mode,
                                   atomics::Strategy strategy, const double* qNode, double* grad) {
  detail::greenGaussGradient<HostExecution>(plan, mode, strategy, qNode, grad);
}
inline void leastSquaresGradientHost(const MeshLoopPlan& plan, LoopMode mode,
                                     atomics::Strategy strategy, const double* q, double* grad) {
  detail::leastSquaresGradient<HostExecution>(plan, mode, strategy, q, grad);
}
inline void nodeLeastSquaresGradientHost(const MeshLoopPlan& plan, LoopMode mode,
                                         atomics::Strategy strategy, const double* q,
                                         double* grad) {
  detail::nodeLeastSquaresGradient<HostExecution>(plan, mode, strategy, q, grad);
}
inline void sumFluxesHost(const MeshLoopPlan& plan, LoopMode mode, atomics::Strategy strategy,
                          const double* flux, double* residual) {
  detail::sumFluxes<HostExecution>(plan, mode, strategy, flux, residual);
}
inline void localMinMaxHost(const MeshLoopPlan& plan, LoopMode mode, const double* q,
                            double* minMax) {
  detail::localMinMax<HostExecution>(plan, mode, q, minMax);
}

} // namespace tessera::unstructured
