#pragma once
// The unstructured Euler residual R_c = V_c dq_c/dt = -(the fluxes leaving cell c), first or
// second order, through an execution policy (HostExecution in mesh_loops.hpp, DeviceExecution in
// mesh_loop_execution_device.hpp):
//   1. w = the cells' primitive variables;
//   2. second order: the gradient of w (Green-Gauss: interpolation to the nodes, node loop, then
//      the face scatter; least squares: the face scatter, or the scatter over the node-neighbour
//      pairs), the min/max of w over each cell and
//      its face neighbours (cell loop), and the limiter (cell loop), unless the limiter is frozen:
//      then the factors of an earlier residual are applied to the new gradient;
//      afterLimiter(grad) runs here: a distributed solver brings its halo cells' gradients;
//   3. the face fluxes of the scheme's Riemann solver between the reconstructed states, summed
//      into the cells by the face scatter.
// Each face scatter's strategy is the caller's (the tuner's) choice.
#include <cstddef>
#include <stdexcept>

#include "engine/atomics/strategy.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/unstructured/mesh_loops.hpp"
#include "solvers/unstructured/muscl_bodies.hpp"
#include "solvers/unstructured/unstructured_scheme.hpp"

namespace tessera {

// The residual's inputs and work arrays, raw pointers into the memory space it runs in.
struct ResidualArrays {
  const double* q = nullptr; // conserved, [cell][5]
  double* w = nullptr;       // primitive, [cell][5]
  double* qNode = nullptr;   // [node][5] (Green-Gauss)
  double* grad = nullptr;    // [cell][5][3]
  double* minMax = nullptr;  // [cell][10]
  double* phi = nullptr;     // limiter factors, [cell][5]
  double* residual = nullptr;
};

struct ResidualStrategies {
  atomics::Strategy gradient = atomics::Strategy::GlobalAtomic; // K = 15
  atomics::Strategy flux = atomics::Strategy::GlobalAtomic;     // K = 5
};

// Multiplies each cell's gradient by its stored limiter factors (a frozen limiter).
struct ApplyLimiter {
  const double* phi;
  double* grad;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    for (int k = 0; k < 5; ++k)
      for (int a = 0; a < 3; ++a)
        grad[15 * c + 3 * k + a] *= phi[5 * c + k];
  }
};

namespace detail {

template <class Exec>
void limitedGradients(const unstructured::MeshLoopPlan& plan, const UnstructuredScheme& scheme,
                      ResidualStrategies strategies, const ResidualArrays& a, bool freezeLimiter) {
  using unstructured::LoopMode;
  const unstructured::MeshLoopView m = plan.view();
  switch (scheme.gradient) {
  case UnstructuredGradient::GreenGauss:
    unstructured::detail::interpolateToNodes<Exec>(plan, LoopMode::Node, a.w, a.qNode);
    unstructured::detail::greenGaussGradient<Exec>(plan, LoopMode::Face, strategies.gradient,
                                                   a.qNode, a.grad);
    break;
  case UnstructuredGradient::LeastSquares:
    unstructured::detail::leastSquaresGradient<Exec>(plan, LoopMode::Face, strategies.gradient, a.w,
                                                     a.grad);
    break;
  case UnstructuredGradient::NodeLeastSquares:
    unstructured::detail::nodeLeastSquaresGradient<Exec>(plan, LoopMode::Face, strategies.gradient,
                                                         a.w, a.grad);
    break;
  case UnstructuredGradient::Auto:
    throw std::logic_error("unstructured residual: the gradient is still auto (resolvedFor)");
  }
  if (freezeLimiter) {
    Exec::forEach(m.numCells, ApplyLimiter{a.phi, a.grad});
    return;
  }
  unstructured::detail::localMinMax<Exec>(plan, LoopMode::Cell, a.w, a.minMax);
  withCellLimiter(scheme.limiter, [&]<class Limiter>() {
    Exec::forEach(m.numCells, LimitGradients<Limiter>{
                                  m, a.w, a.minMax,
                                  scheme.venkatakrishnanK / scheme.referenceLength, a.grad, a.phi});
  });
}

} // namespace detail

template <class Exec, class AfterLimiter>
void unstructuredResidual(const unstructured::MeshLoopPlan& plan, const Euler<3>& pde,
                          const UnstructuredScheme& scheme, const UnstructuredFaces& faces,
                          const Euler<3>::State& farfield, ResidualStrategies strategies,
                          const ResidualArrays& a, bool freezeLimiter,
                          AfterLimiter&& afterLimiter) {
  const unstructured::MeshLoopView m = plan.view();
  Exec::forEach(m.numCells, PrimitiveCells{pde, a.q, a.w});
  if (scheme.secondOrder()) {
    detail::limitedGradients<Exec>(plan, scheme, strategies, a, freezeLimiter);
    afterLimiter(a.grad);
  }
  Exec::fill(a.residual, std::size_t(5) * std::size_t(m.numCells), 0.0);
  withUnstructuredFlux(scheme.flux, [&]<class RiemannSolver>() {
    const MusclFaceFlux<RiemannSolver> flux{
        pde, faces, m.faceOffset, a.w, scheme.secondOrder() ? a.grad : nullptr, farfield};
    Exec::template scatter<5>(plan.scatter(), strategies.flux, flux, a.residual);
  });
}

// The faces where a reconstructed state was no gas and the flux fell back to first order, of the
// gradients in a.grad (those of the last residual): flag[f] = 1 there, 0 elsewhere.
template <class Exec>
void flagFirstOrderFaces(const unstructured::MeshLoopPlan& plan, const Euler<3>& pde,
                         const UnstructuredFaces& faces, const ResidualArrays& a, double* flag) {
  const unstructured::MeshLoopView m = plan.view();
  Exec::forEach(
      m.numFaces,
      FirstOrderFaces{{pde, faces, m.faceOffset, a.w, a.grad, Euler<3>::State::filled(0.0)}, flag});
}

} // namespace tessera
