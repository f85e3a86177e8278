#pragma once
// The mesh loop modes of seed 003 on the device (CUDA or HIP): the twins of the host loops in
// solvers/mesh_loops.hpp, the same loop bodies run by one GPU thread per face, cell or node.
// Plain C++: callable from host translation units of a device build.
#include "engine/atomics/strategy.hpp"
#include "solvers/unstructured/mesh_loops.hpp"

namespace tessera::unstructured {

// The plan in device memory, every array a device pointer, AoS as in mesh_loops.hpp; `strategy`
// is the face scatter's (face loops of the gradients and the flux summation only). Asynchronous.
// Throw std::invalid_argument for a mode the kernel does not have or a plan in host memory.
void interpolateToNodesDevice(const MeshLoopPlan& plan, LoopMode mode, const double* q,
                              double* qNode);
void greenGaussGradientDevice(const MeshLoopPlan& plan, LoopMode mode, atomics::Strategy strategy,
                              const double* qNode, double* grad);
void leastSquaresGradientDevice(const MeshLoopPlan& plan, LoopMode mode, atomics::Strategy strategy,
                                const double* q, double* grad);
void nodeLeastSquaresGradientDevice(const MeshLoopPlan& plan, LoopMode mode,
                                    atomics::Strategy strategy, const double* q, double* grad);
void sumFluxesDevice(const MeshLoopPlan& plan, LoopMode mode, atomics::Strategy strategy,
                     const double* flux, double* residual);
void localMinMaxDevice(const MeshLoopPlan& plan, LoopMode mode, const double* q, double* minMax);

} // namespace tessera::unstructured
