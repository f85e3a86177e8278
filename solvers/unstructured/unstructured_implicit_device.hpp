#pragma once
// The implicit unstructured Euler solver's loops on the device (CUDA or HIP), twins of the host
// loops in UnstructuredImplicit (solvers/unstructured/unstructured_implicit.hpp): the same
// pointwise functions (solvers/unstructured/unstructured_face_jacobian.hpp). All pointers, those
// inside the contributions included, are device pointers; every call is asynchronous.
#include "engine/atomics/face_scatter_plan.hpp"
#include "engine/atomics/strategy.hpp"
#include "solvers/unstructured/matrix_free_product.hpp"
#include "solvers/unstructured/relaxed_update.hpp"
#include "solvers/unstructured/unstructured_face_jacobian.hpp"

namespace tessera {

// diagonal[c] = V_c / (cfl cellStep[c]) I (overwritten, 25 values per cell).
void pseudoTimeDiagonalDevice(int numCells, const double* volume, const double* cellStep,
                              double cfl, double* diagonal);

// diagonal += the face Jacobians' contributions (the K = 25 face scatter).
void eulerJacobianDiagonalDevice(const atomics::FaceScatterPlan& plan, atomics::Strategy strategy,
                                 const EulerFaceJacobianDiagonal& jacobian, double* diagonal);

// Both at once: diagonal += the contributions, and every interior face writes its off-diagonal
// blocks, from one evaluation of its Jacobians; for strategies that evaluate each face once
// (atomics::evaluatesEachFaceOnce). Instantiated for float and double.
template <class T>
void eulerJacobianBlocksDevice(const atomics::FaceScatterPlan& plan, atomics::Strategy strategy,
                               const EulerFaceJacobianBlocks<T>& jacobian, double* diagonal);

// Every interior face writes its two off-diagonal blocks (instantiated for float and double).
template <class T>
void eulerJacobianOffdiagonalDevice(int numFaces, const EulerFaceJacobianOffdiagonal<T>& jacobian);

// squares[c] = residual[c][density]^2.
void densityResidualSquaresDevice(int numCells, const double* residual, double* squares);

// Newton-Krylov's product without the matrix, and its density flux scale, for every cell.
void matrixFreeProductDevice(int numCells, const MatrixFreeProduct& product);
void densityFluxScaleSquaresDevice(int numCells, const DensityFluxScaleSquares& scale);

// The under-relaxed update of every cell (instantiated for float and double).
template <class T>
void relaxedUpdateDevice(int numCells, const RelaxedCellUpdate<T>& update);

} // namespace tessera
