// The unstructured Euler solver's loops on the device: the residual through the mesh loops'
// device execution policy, the face scatters of the atomics library, and one thread per cell for
// the step bound and the Runge-Kutta stages.
#include "engine/atomics/scatter_device.hpp"
#include "engine/gpu_runtime.hpp"
#include "solvers/unstructured/mesh_loop_execution_device.hpp"
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

__global__ void rungeKuttaStageKernel(int numCells, RungeKuttaStage stage, const double* volume,
                                      const double* q0, const double* residual, double dt,
                                      double* q) {
  const int c = int(blockIdx.x) * kCellThreads + int(threadIdx.x);
  if (c < numCells)
    rungeKuttaStage(stage, dt / volume[c], q0 + 5 * c, residual + 5 * c, q + 5 * c);
}

} // namespace

void unstructuredResidualDevice(const unstructured::MeshLoopPlan& plan, const Euler<3>& pde,
                                const UnstructuredScheme& scheme, const UnstructuredFaces& faces,
                                const Euler<3>::State& farfield, ResidualStrategies strategies,
                                const ResidualArrays& arrays, bool freezeLimiter,
                                const std::function<void(double*)>& afterLimiter) {
  unstructuredResidual<unstructured::DeviceExecution>(
      plan, pde, scheme, faces, farfield, strategies, arrays, freezeLimiter, afterLimiter);
}

void wallFaceForcesDevice(const UnstructuredScheme& scheme, const MusclFluxParts& p, int listed,
                          const int* faces, const double* centroids,
                          const Vec<double, 3>& reference, double* out) {
  withUnstructuredFlux(scheme.flux, [&]<class RiemannSolver>() {
    const MusclFaceFlux<RiemannSolver> flux{p.pde, p.faces, p.faceOffset, p.w, p.grad, p.farfield};
    unstructured::DeviceExecution::forEach(
        listed, WallFaceForce<RiemannSolver>{flux, faces, centroids, reference, out});
  });
}

void primitiveCellsDevice(int cells, const PrimitiveCells& body) {
  unstructured::DeviceExecution::forEach(cells, body);
}

void innerFaceStatesDevice(int listed, const InnerFaceStates& body) {
  unstructured::DeviceExecution::forEach(listed, body);
}

void flagFirstOrderFacesDevice(const unstructured::MeshLoopPlan& plan, const Euler<3>& pde,
                               const UnstructuredFaces& faces, const ResidualArrays& arrays,
                               double* flag) {
  flagFirstOrderFaces<unstructured::DeviceExecution>(plan, pde, faces, arrays, flag);
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

void rungeKuttaStageDevice(int numCells, const RungeKuttaStage& stage, const double* volume,
                           const double* q0, const double* residual, double dt, double* q) {
  if (numCells == 0)
    return;
  rungeKuttaStageKernel<<<cellBlocks(numCells), kCellThreads>>>(numCells, stage, volume, q0,
                                                                residual, dt, q);
  TESSERA_GPU_CHECK_LAUNCH();
}

} // namespace tessera
