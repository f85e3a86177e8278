// The unfused Rusanov pipeline of seed 004 (Fouad, section 2.2, Table 2.2): copy-sol, comp-eigv,
// comp-flux, update-sol and reduce-eigv as separate kernels that hand their results to each other
// through global memory. Each kernel is deliberately plain: one thread per item (cell, face or
// value) over all patches, no shared memory except in the final reduction, as in the seed's
// "cuda-original" baseline. The pointwise physics is the PDE's and rusanovFaceFlux, as in the
// host twin rusanovUpdateHost, and the update subtracts the axes in the same order, so the two
// agree to rounding.
#include <algorithm>
#include <stdexcept>

#include "engine/gpu_runtime.hpp"
#include "numerics/flux/rusanov.hpp"
#include "physics/shipped_systems.hpp"
#include "solvers/patch/rusanov_unfused_device.hpp"
#include "solvers/patch/rusanov_update_host.hpp"
#include "solvers/patch/unfused_kernels.hpp"

namespace tessera {
namespace {

using namespace unfused_kernels;

// The layout of the eigenvalue temporary: the patch plus one halo layer, one "variable" per axis.
template <int Dim>
TESSERA_INLINE PatchLayout<Dim> eigenvalueLayout(const PatchLayout<Dim>& layout) {
  return {layout.cellsPerAxis, 1, Dim};
}

// copy-sol: the interior of Q into Q_new, the base the update subtracts the fluxes from.
template <int Dim>
__global__ void copySolution(PatchLayout<Dim> layout, std::size_t items, const double* q,
                             double* qNew) {
  const int cells = layout.interiorCells();
  for (std::size_t i = firstItem(); i < items; i += itemStride()) {
    const int pv = int(i / cells), p = pv / layout.numVars, v = pv % layout.numVars;
    const std::size_t at = layout.index(p, v, layout.interiorCell(int(i % cells)));
    qNew[at] = q[at];
  }
}

// comp-eigv: maxEigenvalue along axis a of every cell that touches a face normal to a: the
// interior and the first halo layer across a. Cells outside the interior on two or more axes
// (edges and corners of the halo) touch no face and are skipped.
template <class PDE>
__global__ void computeEigenvalues(PDE pde, PatchLayout<PDE::kDim> layout, std::size_t items,
                                   const double* q, double* eigenvalues) {
  const PatchLayout<PDE::kDim> eigLayout = eigenvalueLayout(layout);
  const int cells = eigLayout.cellsWithHalo();
  for (std::size_t i = firstItem(); i < items; i += itemStride()) {
    const int p = int(i / cells);
    const CellIndex<PDE::kDim> c = cellWithHalo(eigLayout, int(i % cells));
    int outside = 0, outsideAxis = -1;
    for (int a = 0; a < PDE::kDim; ++a)
      if (c[a] < 0 || c[a] >= layout.cellsPerAxis) {
        ++outside;
        outsideAxis = a;
      }
    if (outside > 1)
      continue;
    const auto s = loadState<PDE>(layout, q, p, c);
    for (int a = 0; a < PDE::kDim; ++a)
      if (outside == 0 || a == outsideAxis)
        eigenvalues[eigLayout.index(p, a, c)] = pde.maxEigenvalue(s, a);
  }
}

// comp-flux: the Rusanov flux of every face normal to Axis, from the two cells' states and the
// eigenvalues comp-eigv stored; the physical fluxes are evaluated here, once per face side. The
// axis is a template parameter: with a run-time axis the states' momentum components are indexed
// at run time and spill to local memory.
template <int Axis, class PDE>
__global__ void computeFaceFluxes(PDE pde, PatchLayout<PDE::kDim> layout, std::size_t items,
                                  const double* q, const double* eigenvalues, double* flux) {
  const PatchLayout<PDE::kDim> eigLayout = eigenvalueLayout(layout);
  const FaceGrid<PDE::kDim> faces{layout.cellsPerAxis, Axis, PDE::kNumVars};
  const int count = faces.count();
  for (std::size_t i = firstItem(); i < items; i += itemStride()) {
    const int p = int(i / count);
    const CellIndex<PDE::kDim> right = faces.face(int(i % count));
    CellIndex<PDE::kDim> left = right;
    left[Axis] -= 1;
    const auto qL = loadState<PDE>(layout, q, p, left), qR = loadState<PDE>(layout, q, p, right);
    const auto F = rusanovFaceFlux(qL, qR, pde.flux(qL, Axis), pde.flux(qR, Axis),
                                   eigenvalues[eigLayout.index(p, Axis, left)],
                                   eigenvalues[eigLayout.index(p, Axis, right)]);
    for (int v = 0; v < PDE::kNumVars; ++v)
      flux[faces.index(p, v, right)] = F[v];
  }
}

template <int Axis, class PDE>
void launchFaceFluxes(const PDE& pde, const PatchLayout<PDE::kDim>& layout, int numPatches,
                      const double* q, const double* eigenvalues, double* flux) {
  const std::size_t items =
      std::size_t(numPatches) * FaceGrid<PDE::kDim>{layout.cellsPerAxis, Axis, 1}.count();
  computeFaceFluxes<Axis><<<blocksFor(items), kThreads>>>(pde, layout, items, q, eigenvalues, flux);
  TESSERA_GPU_CHECK_LAUNCH();
}

// update-sol: Q_new -= dt/dx_a (F_a(upper face) - F_a(lower face)) for a = x, y[, z] in turn,
// the host twin's order, from the stored face fluxes.
template <int Dim>
__global__ void updateSolution(PatchLayout<Dim> layout, const PatchGeometry<Dim>* geometry,
                               Vec<const double*, Dim> flux, double dt, std::size_t items,
                               double* qNew) {
  const int cells = layout.interiorCells();
  for (std::size_t i = firstItem(); i < items; i += itemStride()) {
    const int pv = int(i / cells), p = pv / layout.numVars, v = pv % layout.numVars;
    const CellIndex<Dim> c = layout.interiorCell(int(i % cells));
    const std::size_t at = layout.index(p, v, c);
    double value = qNew[at];
    for (int a = 0; a < Dim; ++a) {
      const FaceGrid<Dim> faces{layout.cellsPerAxis, a, layout.numVars};
      CellIndex<Dim> upper = c;
      upper[a] += 1;
      const double ratio = dt / geometry[p].dx[a];
      value -= ratio * (flux[a][faces.index(p, v, upper)] - flux[a][faces.index(p, v, c)]);
    }
    qNew[at] = value;
  }
}

} // namespace

template <class PDE>
UnfusedRusanovDevice<PDE>::UnfusedRusanovDevice(const PatchLayout<kDim>& layout, int numPatches)
    : layout_(layout), numPatches_(numPatches) {
  if (layout.numVars != PDE::kNumVars || layout.halo < 1 || numPatches < 0)
    throw std::invalid_argument(
        "UnfusedRusanovDevice: the layout needs the PDE's variables and a halo, patches >= 0");
  const std::size_t patches = std::size_t(numPatches);
  eigenvalues_ =
      DeviceArray<double>(patches * eigenvalueLayout(layout).patchStride(), MemorySpace::Device);
  for (int a = 0; a < kDim; ++a)
    faceFluxes_[a] = DeviceArray<double>(
        patches * PDE::kNumVars * FaceGrid<kDim>{layout.cellsPerAxis, a, PDE::kNumVars}.count(),
        MemorySpace::Device);
}

template <class PDE>
std::size_t UnfusedRusanovDevice<PDE>::temporaryBytes() const {
  std::size_t bytes = eigenvalues_.bytes();
  for (const auto& f : faceFluxes_)
    bytes += f.bytes();
  return bytes;
}

template <class PDE>
void UnfusedRusanovDevice<PDE>::update(const PDE& pde, const PatchGeometry<kDim>* geometry,
                                       const double* q, double* qNew, double dt,
                                       double* patchLambda) {
  if (numPatches_ == 0)
    return;
  const std::size_t patches = std::size_t(numPatches_);
  const std::size_t values = patches * PDE::kNumVars * layout_.interiorCells();
  const PatchLayout<kDim> eigLayout = eigenvalueLayout(layout_);

  copySolution<<<blocksFor(values), kThreads>>>(layout_, values, q, qNew);
  TESSERA_GPU_CHECK_LAUNCH();

  const std::size_t boxCells = patches * eigLayout.cellsWithHalo();
  computeEigenvalues<<<blocksFor(boxCells), kThreads>>>(pde, layout_, boxCells, q,
                                                        eigenvalues_.data());
  TESSERA_GPU_CHECK_LAUNCH();

  launchFaceFluxes<0>(pde, layout_, numPatches_, q, eigenvalues_.data(), faceFluxes_[0].data());
  launchFaceFluxes<1>(pde, layout_, numPatches_, q, eigenvalues_.data(), faceFluxes_[1].data());
  if constexpr (kDim == 3)
    launchFaceFluxes<2>(pde, layout_, numPatches_, q, eigenvalues_.data(), faceFluxes_[2].data());
  Vec<const double*, kDim> flux;
  for (int a = 0; a < kDim; ++a)
    flux[a] = faceFluxes_[a].data();

  updateSolution<<<blocksFor(values), kThreads>>>(layout_, geometry, flux, dt, values, qNew);
  TESSERA_GPU_CHECK_LAUNCH();

  reducePatchEigenvalues<<<numPatches_, kThreads>>>(pde, layout_, qNew, patchLambda);
  TESSERA_GPU_CHECK_LAUNCH();
}

#define TESSERA_INSTANTIATE_IN_2D_AND_3D(System)                                                   \
  template class UnfusedRusanovDevice<System<2>>;                                                  \
  template class UnfusedRusanovDevice<System<3>>;
TESSERA_SHIPPED_SYSTEMS(TESSERA_INSTANTIATE_IN_2D_AND_3D)
#undef TESSERA_INSTANTIATE_IN_2D_AND_3D

} // namespace tessera
