#pragma once
// The unstructured Euler solver's loops on the device (CUDA or HIP), twins of the host loops in
// UnstructuredEuler (solvers/unstructured/unstructured_euler.hpp): the same pointwise functions
// (solvers/unstructured/unstructured_face_flux.hpp) through the device face scatter. All pointers,
// those inside the contributions included, are device pointers; every call is asynchronous.
#include <functional>

#include "engine/atomics/face_scatter_plan.hpp"
#include "engine/atomics/strategy.hpp"
#include "solvers/unstructured/mesh_loop_plan.hpp"
#include "solvers/unstructured/mesh_loops_device.hpp"
#include "solvers/unstructured/unstructured_face_flux.hpp"
#include "solvers/unstructured/unstructured_residual.hpp"
#include "solvers/unstructured/wall_forces.hpp"

namespace tessera {

// unstructuredResidual (solvers/unstructured/unstructured_residual.hpp) on the device; the plan
// and every array in device memory. afterLimiter(grad) runs on the host between the kernels.
void unstructuredResidualDevice(const unstructured::MeshLoopPlan& plan, const Euler<3>& pde,
                                const UnstructuredScheme& scheme, const UnstructuredFaces& faces,
                                const Euler<3>::State& farfield, ResidualStrategies strategies,
                                const ResidualArrays& arrays, bool freezeLimiter,
                                const std::function<void(double*)>& afterLimiter);

// WallFaceForce (solvers/unstructured/wall_forces.hpp) of the scheme's Riemann solver for the
// `listed` faces, on the device.
void wallFaceForcesDevice(const UnstructuredScheme& scheme, const MusclFluxParts& flux, int listed,
                          const int* faces, const double* centroids,
                          const Vec<double, 3>& reference, double* out);

// PrimitiveCells for every cell on the device.
void primitiveCellsDevice(int cells, const PrimitiveCells& body);

// InnerFaceStates for `listed` faces on the device.
void innerFaceStatesDevice(int listed, const InnerFaceStates& body);

// flagFirstOrderFaces on the device.
void flagFirstOrderFacesDevice(const unstructured::MeshLoopPlan& plan, const Euler<3>& pde,
                               const UnstructuredFaces& faces, const ResidualArrays& arrays,
                               double* flag);

// speedSum[c] = the sum over the faces of cell c of |S| lambda (overwritten, one per cell).
void eulerWaveSpeedSumsDevice(const atomics::FaceScatterPlan& plan, atomics::Strategy strategy,
                              const EulerFaceSpeed& speed, double* speedSum);

// cellStep[c] = cellStableStep of cell c from its state, volume and speedSum.
void eulerCellStepsDevice(int numCells, const Euler<3>& pde, const double* q, const double* volume,
                          const double* speedSum, double* cellStep);

// One Runge-Kutta stage of every cell, rungeKuttaStage with factor dt / V_c (q0 may be q).
void rungeKuttaStageDevice(int numCells, const RungeKuttaStage& stage, const double* volume,
                           const double* q0, const double* residual, double dt, double* q);

} // namespace tessera
