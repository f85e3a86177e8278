// The unfused second-order pipeline (scheme_unfused_device.hpp): reconstruct, flux, update and
// reduce as separate kernels over global temporaries, each one thread per item. The pointwise
// numerics are the same calls as the host twin's (cellFaces, the Riemann solver's flux), so the
// two agree to rounding.
#include <stdexcept>

#include "engine/gpu_runtime.hpp"
#include "numerics/flux/hllc.hpp"
#include "numerics/reconstruct/cell_faces.hpp"
#include "numerics/reconstruct/limiters.hpp"
#include "numerics/reconstruct/plm.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/patch/max_eigenvalue.hpp"
#include "solvers/patch/scheme_unfused_device.hpp"
#include "solvers/patch/unfused_kernels.hpp"

namespace tessera {
namespace {

using namespace unfused_kernels;

// The cells whose face states one axis needs: N + 2 along it (-1 to N), N along the others.
template <int Dim>
struct StateGrid {
  int cellsPerAxis;
  int axis;

  TESSERA_INLINE int extent(int a) const { return cellsPerAxis + (a == axis ? 2 : 0); }
  TESSERA_INLINE int count() const {
    int c = 1;
    for (int a = 0; a < Dim; ++a)
      c *= extent(a);
    return c;
  }
  // Cell number k, its coordinate along the axis from -1.
  TESSERA_INLINE CellIndex<Dim> cell(int k) const {
    CellIndex<Dim> c;
    for (int a = 0; a < Dim; ++a) {
      c[a] = k % extent(a) - (a == axis ? 1 : 0);
      k /= extent(a);
    }
    return c;
  }
  TESSERA_INLINE int number(CellIndex<Dim> c) const {
    int k = 0;
    for (int a = Dim - 1; a >= 0; --a)
      k = k * extent(a) + c[a] + (a == axis ? 1 : 0);
    return k;
  }
};

template <int Axis, class Recon, class Flux, class PDE>
__global__ void reconstructFaces(PDE pde, PatchLayout<PDE::kDim> layout, std::size_t items,
                                 const double* q, double* states) {
  constexpr int kVars = PDE::kNumVars;
  const StateGrid<PDE::kDim> grid{layout.cellsPerAxis, Axis};
  const int count = grid.count();
  for (std::size_t i = firstItem(); i < items; i += itemStride()) {
    const int p = int(i / count), k = int(i % count);
    const CellIndex<PDE::kDim> c = grid.cell(k);
    CellIndex<PDE::kDim> below = c, above = c;
    --below[Axis];
    ++above[Axis];
    const auto qc = loadState<PDE>(layout, q, p, c);
    const auto f = cellFaces<Recon, Flux>(
        pde, reconstructedVariables<Recon>(pde, loadState<PDE>(layout, q, p, below)),
        reconstructedVariables<Recon>(pde, qc),
        reconstructedVariables<Recon>(pde, loadState<PDE>(layout, q, p, above)), qc);
    const std::size_t base = std::size_t(p) * 2 * kVars * count;
    for (int v = 0; v < kVars; ++v) {
      states[base + std::size_t(v) * count + k] = f.lower[v];
      states[base + std::size_t(kVars + v) * count + k] = f.upper[v];
    }
  }
}

template <int Axis, class Recon, class Flux, class PDE>
__global__ void riemannFluxes(PDE pde, PatchLayout<PDE::kDim> layout, std::size_t items,
                              const double* states, double* flux) {
  constexpr int kVars = PDE::kNumVars;
  const StateGrid<PDE::kDim> grid{layout.cellsPerAxis, Axis};
  const FaceGrid<PDE::kDim> faces{layout.cellsPerAxis, Axis, kVars};
  const int count = faces.count(), cells = grid.count();
  for (std::size_t i = firstItem(); i < items; i += itemStride()) {
    const int p = int(i / count);
    const CellIndex<PDE::kDim> right = faces.face(int(i % count));
    CellIndex<PDE::kDim> left = right;
    --left[Axis];
    const std::size_t base = std::size_t(p) * 2 * kVars * cells;
    const int l = grid.number(left), r = grid.number(right);
    typename PDE::State upperOfLeft, lowerOfRight;
    for (int v = 0; v < kVars; ++v) {
      upperOfLeft[v] = states[base + std::size_t(kVars + v) * cells + l];
      lowerOfRight[v] = states[base + std::size_t(v) * cells + r];
    }
    const auto F = faceFlux<Recon, Flux>(pde, upperOfLeft, lowerOfRight, Axis);
    for (int v = 0; v < kVars; ++v)
      flux[faces.index(p, v, right)] = F[v];
  }
}

template <int Dim>
__global__ void updateStage(PatchLayout<Dim> layout, const PatchGeometry<Dim>* geometry,
                            Vec<const double*, Dim> flux, StageWeights stage, std::size_t items,
                            const double* q, double* qOut) {
  const int cells = layout.interiorCells();
  for (std::size_t i = firstItem(); i < items; i += itemStride()) {
    const int pv = int(i / cells), p = pv / layout.numVars, v = pv % layout.numVars;
    const CellIndex<Dim> c = layout.interiorCell(int(i % cells));
    const std::size_t at = layout.index(p, v, c);
    double value = q[at];
    for (int a = 0; a < Dim; ++a) {
      const FaceGrid<Dim> faces{layout.cellsPerAxis, a, layout.numVars};
      CellIndex<Dim> upper = c;
      upper[a] += 1;
      const double ratio = stage.dt / geometry[p].dx[a];
      value -= ratio * (flux[a][faces.index(p, v, upper)] - flux[a][faces.index(p, v, c)]);
    }
    qOut[at] = stage.keep == 0.0 ? stage.advance * value
                                 : stage.keep * stage.q0[at] + stage.advance * value;
  }
}

template <int Axis, class Recon, class Flux, class PDE>
void axisPasses(const PDE& pde, const PatchLayout<PDE::kDim>& layout, int numPatches,
                const double* q, double* states, double* flux) {
  const std::size_t cells =
      std::size_t(numPatches) * StateGrid<PDE::kDim>{layout.cellsPerAxis, Axis}.count();
  reconstructFaces<Axis, Recon, Flux>
      <<<blocksFor(cells), kThreads>>>(pde, layout, cells, q, states);
  TESSERA_GPU_CHECK_LAUNCH();
  const std::size_t faces =
      std::size_t(numPatches) * FaceGrid<PDE::kDim>{layout.cellsPerAxis, Axis, 1}.count();
  riemannFluxes<Axis, Recon, Flux>
      <<<blocksFor(faces), kThreads>>>(pde, layout, faces, states, flux);
  TESSERA_GPU_CHECK_LAUNCH();
}

} // namespace

template <class PDE, class Recon, class Flux>
UnfusedSchemeDevice<PDE, Recon, Flux>::UnfusedSchemeDevice(const PatchLayout<kDim>& layout,
                                                           int numPatches)
    : layout_(layout), numPatches_(numPatches) {
  if (layout.numVars != PDE::kNumVars || layout.halo < Recon::kHalo || numPatches < 0)
    throw std::invalid_argument("UnfusedSchemeDevice: the layout needs the PDE's variables and "
                                "the reconstruction's halo, patches >= 0");
  const std::size_t patches = std::size_t(numPatches);
  for (int a = 0; a < kDim; ++a) {
    faceStates_[a] = DeviceArray<double>(patches * 2 * PDE::kNumVars *
                                             StateGrid<kDim>{layout.cellsPerAxis, a}.count(),
                                         MemorySpace::Device);
    faceFluxes_[a] = DeviceArray<double>(
        patches * PDE::kNumVars * FaceGrid<kDim>{layout.cellsPerAxis, a, PDE::kNumVars}.count(),
        MemorySpace::Device);
  }
}

template <class PDE, class Recon, class Flux>
std::size_t UnfusedSchemeDevice<PDE, Recon, Flux>::temporaryBytes() const {
  std::size_t bytes = 0;
  for (int a = 0; a < kDim; ++a)
    bytes += faceStates_[a].bytes() + faceFluxes_[a].bytes();
  return bytes;
}

template <class PDE, class Recon, class Flux>
void UnfusedSchemeDevice<PDE, Recon, Flux>::update(const PDE& pde,
                                                   const PatchGeometry<kDim>* geometry,
                                                   const double* q, double* qOut,
                                                   const StageWeights& stage, double* patchLambda) {
  if (numPatches_ == 0)
    return;
  axisPasses<0, Recon, Flux>(pde, layout_, numPatches_, q, faceStates_[0].data(),
                             faceFluxes_[0].data());
  axisPasses<1, Recon, Flux>(pde, layout_, numPatches_, q, faceStates_[1].data(),
                             faceFluxes_[1].data());
  if constexpr (kDim == 3)
    axisPasses<2, Recon, Flux>(pde, layout_, numPatches_, q, faceStates_[2].data(),
                               faceFluxes_[2].data());
  Vec<const double*, kDim> flux;
  for (int a = 0; a < kDim; ++a)
    flux[a] = faceFluxes_[a].data();
  const std::size_t values = std::size_t(numPatches_) * PDE::kNumVars * layout_.interiorCells();
  updateStage<<<blocksFor(values), kThreads>>>(layout_, geometry, flux, stage, values, q, qOut);
  TESSERA_GPU_CHECK_LAUNCH();
  reducePatchEigenvalues<<<numPatches_, kThreads>>>(pde, layout_, qOut, patchLambda);
  TESSERA_GPU_CHECK_LAUNCH();
}

template class UnfusedSchemeDevice<Euler<2>, Plm<VanLeer>, Hllc>;
template class UnfusedSchemeDevice<Euler<3>, Plm<VanLeer>, Hllc>;

} // namespace tessera
