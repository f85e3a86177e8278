#pragma once
// The unstructured Euler solver's loops on the device (CUDA or HIP), twins of the host loops in
// UnstructuredEuler (solvers/unstructured/unstructured_euler.hpp): the same pointwise functions
// (solvers/unstructured/unstructured_face_flux.hpp) through the device face scatter. All pointers,
// those inside the contributions included, are device pointers; every call is asynchronous.
#include "engine/atomics/face_scatter_plan.hpp"
#include "engine/atomics/strategy.hpp"
#include "solvers/unstructured/unstructured_face_flux.hpp"

namespace tessera {

// residual[c][v] = the sum of the flux contributions to cell c (overwritten, [cell][5]).
void eulerResidualDevice(const atomics::FaceScatterPlan& plan, atomics::Strategy strategy,
                         const EulerFaceFlux& flux, double* residual);

// speedSum[c] = the sum over the faces of cell c of |S| lambda (overwritten, one per cell).
void eulerWaveSpeedSumsDevice(const atomics::FaceScatterPlan& plan, atomics::Strategy strategy,
                              const EulerFaceSpeed& speed, double* speedSum);

// cellStep[c] = cellStableStep of cell c from its state, volume and speedSum.
void eulerCellStepsDevice(int numCells, const Euler<3>& pde, const double* q, const double* volume,
                          const double* speedSum, double* cellStep);

// The forward Euler update q[c] += dt / V_c residual[c].
void forwardEulerDevice(int numCells, const double* volume, const double* residual, double dt,
                        double* q);

} // namespace tessera
