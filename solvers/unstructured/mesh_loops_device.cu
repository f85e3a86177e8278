// The mesh loop modes on the device: the drivers of mesh_loops.hpp with the device execution
// policy.
#include "solvers/unstructured/mesh_loop_execution_device.hpp"
#include "solvers/unstructured/mesh_loops.hpp"
#include "solvers/unstructured/mesh_loops_device.hpp"

namespace tessera::unstructured {

void interpolateToNodesDevice(const MeshLoopPlan& plan, LoopMode mode, const double* q,
                              double* qNode) {
  detail::interpolateToNodes<DeviceExecution>(plan, mode, q, qNode);
}

void greenGaussGradientDevice(const MeshLoopPlan& plan, LoopMode mode, atomics::Strategy strategy,
                              const double* qNode, double* grad) {
  detail::greenGaussGradient<DeviceExecution>(plan, mode, strategy, qNode, grad);
}

void leastSquaresGradientDevice(const MeshLoopPlan& plan, LoopMode mode, atomics::Strategy strategy,
                                const double* q, double* grad) {
  detail::leastSquaresGradient<DeviceExecution>(plan, mode, strategy, q, grad);
}

void nodeLeastSquaresGradientDevice(const MeshLoopPlan& plan, LoopMode mode,
                                    atomics::Strategy strategy, const double* q, double* grad) {
  detail::nodeLeastSquaresGradient<DeviceExecution>(plan, mode, strategy, q, grad);
}

void sumFluxesDevice(const MeshLoopPlan& plan, LoopMode mode, atomics::Strategy strategy,
                     const double* flux, double* residual) {
  detail::sumFluxes<DeviceExecution>(plan, mode, strategy, flux, residual);
}

void localMinMaxDevice(const MeshLoopPlan& plan, LoopMode mode, const double* q, double* minMax) {
  detail::localMinMax<DeviceExecution>(plan, mode, q, minMax);
}

} // namespace tessera::unstructured
