#include <algorithm>
#include <cmath>
#include <vector>

#include "benchmarks/atomics_bench_case.hpp"
#include "engine/atomics/scatter_device.hpp"
#include "engine/device_array.hpp"
#include "solvers/unstructured/mesh_loops.hpp"
#include "solvers/unstructured/unstructured_face_flux.hpp"

namespace tessera::bench {
namespace {

constexpr int kBlock = 128;

// One thread per face, plain stores instead of additions (no load, no atomic): the traffic of a
// scatter without the cost of adding.
template <int K, class Contribution>
__global__ void plainStoreKernel(atomics::FaceTopology t, Contribution f, double* target) {
  const int face = int(blockIdx.x) * kBlock + int(threadIdx.x);
  if (face >= t.numFaces)
    return;
  double toOwner[K], toNeighbour[K];
  f(face, toOwner, toNeighbour);
  const int o = t.owner[face], n = t.neighbour[face];
  for (int k = 0; k < K; ++k)
    target[o * K + k] = toOwner[k];
  if (n >= 0)
    for (int k = 0; k < K; ++k)
      target[n * K + k] = toNeighbour[k];
}

} // namespace

struct AtomicsBenchCase::Data {
  unstructured::MeshLoopPlan loops;
  DeviceArray<FaceKind> kind;
  DeviceArray<double> q, target5, target15;
  DeviceArray<unsigned char> copySource, copyTarget;

  explicit Data(const unstructured::Mesh& mesh) : loops(mesh, MemorySpace::Device) {
    std::vector<FaceKind> kinds(mesh.owner.size(), FaceKind::Interior);
    for (std::size_t f = 0; f < kinds.size(); ++f)
      if (mesh.neighbour[f] < 0)
        kinds[f] = FaceKind::Farfield;
    kind = toDevice(kinds);
    // A smooth state that is not uniform: every face has work and no flux vanishes.
    const Euler<3> pde;
    std::vector<double> state(std::size_t(mesh.numCells()) * 5);
    for (int c = 0; c < mesh.numCells(); ++c) {
      const auto& x = mesh.cellCentroid[std::size_t(c)];
      const double s = std::sin(2.0 * x[0] + 3.0 * x[1] - x[2]);
      const Euler<3>::State w{1.0 + 0.2 * s, 0.3 * s, -0.2, 0.1 * s, 1.0 + 0.1 * s};
      const Euler<3>::State u = pde.toConserved(w);
      for (int v = 0; v < 5; ++v)
        state[5 * std::size_t(c) + std::size_t(v)] = u[v];
    }
    q = toDevice(state);
    target5 = toDevice(std::vector<double>(std::size_t(mesh.numCells()) * 5, 0.0));
    target15 = toDevice(std::vector<double>(std::size_t(mesh.numCells()) * 15, 0.0));
  }

  EulerFaceFlux flux() const {
    const unstructured::MeshLoopView v = loops.view();
    EulerFaceFlux f;
    f.faces = {v.owner, v.neighbour, v.faceArea, kind.data()};
    f.q = q.data();
    f.farfield = Euler<3>{}.toConserved(Euler<3>::State{1.0, 0.3, -0.2, 0.1, 1.0});
    return f;
  }
  unstructured::GradientFaceContribution gradient() const { return {loops.view(), q.data()}; }
  double* target(int k) { return k == 5 ? target5.data() : target15.data(); }
};

AtomicsBenchCase::AtomicsBenchCase(const unstructured::Mesh& mesh)
    : data_(std::make_unique<Data>(mesh)) {
  const std::size_t copyBytes =
      std::size_t(std::max(bytesThatMustMove(5), bytesThatMustMove(15)) / 2);
  data_->copySource = DeviceArray<unsigned char>(copyBytes, MemorySpace::Device);
  data_->copyTarget = DeviceArray<unsigned char>(copyBytes, MemorySpace::Device);
}

AtomicsBenchCase::~AtomicsBenchCase() = default;

void AtomicsBenchCase::scatter(int k, atomics::Strategy strategy) {
  const atomics::FaceScatterPlan& plan = data_->loops.scatter();
  if (k == 5)
    atomics::scatterFacesDevice<5>(plan, strategy, data_->flux(), data_->target(5));
  else
    atomics::scatterFacesDevice<15>(plan, strategy, data_->gradient(), data_->target(15));
}

void AtomicsBenchCase::plainStores(int k) {
  const atomics::FaceTopology t = data_->loops.scatter().topology();
  const unsigned blocks = unsigned((t.numFaces + kBlock - 1) / kBlock);
  if (k == 5)
    plainStoreKernel<5><<<blocks, kBlock>>>(t, data_->flux(), data_->target(5));
  else
    plainStoreKernel<15><<<blocks, kBlock>>>(t, data_->gradient(), data_->target(15));
  TESSERA_GPU_CHECK_LAUNCH();
}

void AtomicsBenchCase::copy(int k) {
  TESSERA_GPU_CHECK(gpuMemcpy(data_->copyTarget.data(), data_->copySource.data(),
                              std::size_t(bytesThatMustMove(k) / 2), gpuMemcpyDefault));
}

double AtomicsBenchCase::bytesThatMustMove(int k) const {
  const unstructured::MeshLoopView v = data_->loops.view();
  // Per face: owner and neighbour (4 bytes each), the area vector (24); the flux also reads the
  // face kind (1), the gradient each cell's volume (8). Per cell: the state (40), the target
  // read and written (2 x 8 K).
  const double perFace = 8.0 + 24.0 + (k == 5 ? 1.0 : 0.0);
  const double perCell = 40.0 + 16.0 * k + (k == 15 ? 8.0 : 0.0);
  return perFace * v.numFaces + perCell * v.numCells;
}

} // namespace tessera::bench
