// The unstructured Euler solver's loops on the device: the face scatters of the atomics library
// with the solver's contributions, and one thread per cell for the step bound and the update.
#include "engine/atomics/scatter_device.hpp"
#include "engine/gpu_runtime.hpp"
#include "solvers/unstructured/unstructured_euler_device.hpp"

namespace tessera {
namespace {

constexpr int kCellThreads = 256;

int cellBlocks(int count) {
  return (count + kCellThreads - 1) / kCellThreads;
}

__global__ void zeroKernel(double* values, int count) {
  const int i = int(blockIdx.x) * kCellThreads + int(threadIdx.x);
  if (i < count)
    values[i] = 0.0;
}

void zero(double* values, int count) {
  if (count == 0)
    return;
  zeroKernel<<<cellBlocks(count), kCellThreads>>>(values, count);
  TESSERA_GPU_CHECK_LAUNCH();
}

__global__ void cellStepKernel(Euler<3> pde, int numCells, const double* q, const double* volume,
                               const double* speedSum, double* cellStep) {
  const int c = int(blockIdx.x) * kCellThreads + int(threadIdx.x);
  if (c < numCells)
    cellStep[c] = cellStableStep(pde, q + 5 * c, volume[c], speedSum[c]);
}

__global__ void forwardEulerKernel(int numCells, const double* volume, const double* residual,
                                   double dt, double* q) {
  const int c = int(blockIdx.x) * kCellThreads + int(threadIdx.x);
  if (c >= numCells)
    return;
  const double factor = dt / volume[c];
  for (int v = 0; v < 5; ++v)
    q[5 * c + v] += factor * residual[5 * c + v];
}

} // namespace

void eulerResidualDevice(const atomics::FaceScatterPlan& plan, atomics::Strategy strategy,
                         const EulerFaceFlux& flux, double* residual) {
  zero(residual, 5 * plan.numCells());
  atomics::scatterFacesDevice<5>(plan, strategy, flux, residual);
}

void eulerWaveSpeedSumsDevice(const atomics::FaceScatterPlan& plan, atomics::Strategy strategy,
                              const EulerFaceSpeed& speed, double* speedSum) {
  zero(speedSum, plan.numCells());
  atomics::scatterFacesDevice<1>(plan, strategy, speed, speedSum);
}

void eulerCellStepsDevice(int numCells, const Euler<3>& pde, const double* q, const double* volume,
                          const double* speedSum, double* cellStep) {
  if (numCells == 0)
    return;
  cellStepKernel<<<cellBlocks(numCells), kCellThreads>>>(pde, numCells, q, volume, speedSum,
                                                         cellStep);
  TESSERA_GPU_CHECK_LAUNCH();
}

void forwardEulerDevice(int numCells, const double* volume, const double* residual, double dt,
                        double* q) {
  if (numCells == 0)
    return;
  forwardEulerKernel<<<cellBlocks(numCells), kCellThreads>>>(numCells, volume, residual, dt, q);
  TESSERA_GPU_CHECK_LAUNCH();
}

} // namespace tessera
