// The implicit unstructured Euler solver's loops on the device: the K = 25 face scatter of the
// atomics library for the diagonal blocks (with the off-diagonal blocks written on the side where
// the strategy allows), and one thread per cell, face or value elsewhere.
#include "engine/atomics/scatter_device.hpp"
#include "engine/gpu_runtime.hpp"
#include "solvers/unstructured/unstructured_implicit_device.hpp"

namespace tessera {
namespace {

constexpr int kThreads = 256;

int blocksFor(int count) {
  return (count + kThreads - 1) / kThreads;
}

__global__ void pseudoTimeDiagonalKernel(int numCells, const double* volume, const double* cellStep,
                                         double cfl, double* diagonal) {
  const int c = int(blockIdx.x) * kThreads + int(threadIdx.x);
  if (c < numCells)
    pseudoTimeDiagonal(volume[c], cfl * cellStep[c], diagonal + 25 * c);
}

template <class T>
__global__ void offdiagonalKernel(int numFaces, EulerFaceJacobianOffdiagonal<T> jacobian) {
  const int f = int(blockIdx.x) * kThreads + int(threadIdx.x);
  if (f < numFaces)
    jacobian(f);
}

__global__ void densitySquaresKernel(int numCells, const double* residual, double* squares) {
  const int c = int(blockIdx.x) * kThreads + int(threadIdx.x);
  if (c < numCells)
    squares[c] = residual[5 * c] * residual[5 * c];
}

// One thread per cell for the cell-wise functors.
template <class F>
__global__ void eachCellKernel(int numCells, F f) {
  const int c = int(blockIdx.x) * kThreads + int(threadIdx.x);
  if (c < numCells)
    f(c);
}

} // namespace

void pseudoTimeDiagonalDevice(int numCells, const double* volume, const double* cellStep,
                              double cfl, double* diagonal) {
  if (numCells == 0)
    return;
  pseudoTimeDiagonalKernel<<<blocksFor(numCells), kThreads>>>(numCells, volume, cellStep, cfl,
                                                              diagonal);
  TESSERA_GPU_CHECK_LAUNCH();
}

void eulerJacobianDiagonalDevice(const atomics::FaceScatterPlan& plan, atomics::Strategy strategy,
                                 const EulerFaceJacobianDiagonal& jacobian, double* diagonal) {
  atomics::scatterFacesDevice<25>(plan, strategy, jacobian, diagonal);
}

template <class T>
void eulerJacobianBlocksDevice(const atomics::FaceScatterPlan& plan, atomics::Strategy strategy,
                               const EulerFaceJacobianBlocks<T>& jacobian, double* diagonal) {
  atomics::scatterFacesDevice<25>(plan, strategy, jacobian, diagonal);
}

template <class T>
void eulerJacobianOffdiagonalDevice(int numFaces, const EulerFaceJacobianOffdiagonal<T>& jacobian) {
  if (numFaces == 0)
    return;
  offdiagonalKernel<<<blocksFor(numFaces), kThreads>>>(numFaces, jacobian);
  TESSERA_GPU_CHECK_LAUNCH();
}

void densityResidualSquaresDevice(int numCells, const double* residual, double* squares) {
  if (numCells == 0)
    return;
  densitySquaresKernel<<<blocksFor(numCells), kThreads>>>(numCells, residual, squares);
  TESSERA_GPU_CHECK_LAUNCH();
}

void matrixFreeProductDevice(int numCells, const MatrixFreeProduct& product) {
  if (numCells == 0)
    return;
  eachCellKernel<<<blocksFor(numCells), kThreads>>>(numCells, product);
  TESSERA_GPU_CHECK_LAUNCH();
}

void densityFluxScaleSquaresDevice(int numCells, const DensityFluxScaleSquares& scale) {
  if (numCells == 0)
    return;
  eachCellKernel<<<blocksFor(numCells), kThreads>>>(numCells, scale);
  TESSERA_GPU_CHECK_LAUNCH();
}

template <class T>
void relaxedUpdateDevice(int numCells, const RelaxedCellUpdate<T>& update) {
  if (numCells == 0)
    return;
  eachCellKernel<<<blocksFor(numCells), kThreads>>>(numCells, update);
  TESSERA_GPU_CHECK_LAUNCH();
}

template void eulerJacobianBlocksDevice<float>(const atomics::FaceScatterPlan&, atomics::Strategy,
                                               const EulerFaceJacobianBlocks<float>&, double*);
template void eulerJacobianBlocksDevice<double>(const atomics::FaceScatterPlan&, atomics::Strategy,
                                                const EulerFaceJacobianBlocks<double>&, double*);
template void eulerJacobianOffdiagonalDevice<float>(int,
                                                    const EulerFaceJacobianOffdiagonal<float>&);
template void eulerJacobianOffdiagonalDevice<double>(int,
                                                     const EulerFaceJacobianOffdiagonal<double>&);
template void relaxedUpdateDevice<float>(int, const RelaxedCellUpdate<float>&);
template void relaxedUpdateDevice<double>(int, const RelaxedCellUpdate<double>&);

} // namespace tessera
