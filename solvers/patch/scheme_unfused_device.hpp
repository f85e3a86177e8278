#pragma once
// The unfused second-order update on the device: the baseline the fused scheme kernel
// (scheme_update_kernels.hpp) is measured against, a pipeline of plain one-thread-per-item kernels
// that hand their results to each other through global memory:
//   reconstruct  per axis, the conserved states at both faces of every cell next to a face
//                (cell_faces.hpp: primitive variables, limiter, positivity fallback);
//   flux         per axis, the Riemann flux of every face from the two states on it;
//   update       qOut = keep q0 + advance (q - dt/dx_a sum_a (F_a(i+1/2) - F_a(i-1/2))), axes in
//                the host twin's order;
//   reduce       the largest eigenvalue of qOut, one value per patch.
// Same result as the host twin schemeUpdateHost to rounding. Built for the Euler equations with
// PLM (van Leer) and HLLC, the default scheme, which the benchmarks time.
#include <array>
#include <cstddef>

#include "engine/device_array.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"
#include "solvers/patch/stage_weights.hpp"

namespace tessera {

template <class PDE, class Recon, class Flux>
class UnfusedSchemeDevice {
public:
  static constexpr int kDim = PDE::kDim;

  // The temporaries for numPatches patches of this layout, allocated once.
  UnfusedSchemeDevice(const PatchLayout<kDim>& layout, int numPatches);

  // One stage of all patches; device pointers, q with its halos filled.
  void update(const PDE& pde, const PatchGeometry<kDim>* geometry, const double* q, double* qOut,
              const StageWeights& stage, double* patchLambda);

  std::size_t temporaryBytes() const;

private:
  PatchLayout<kDim> layout_;
  int numPatches_;
  // Per axis: the lower and upper face states of every cell from -1 to N along the axis,
  // [patch][side][var][cell], and the fluxes of the N + 1 faces, [patch][var][face].
  std::array<DeviceArray<double>, kDim> faceStates_, faceFluxes_;
};

} // namespace tessera
