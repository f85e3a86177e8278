#pragma once
// The unfused first-order Rusanov update on the device (CUDA or HIP): the pipeline of separate
// kernels that ExaHyPE 2's original CUDA solver runs (seed 004, Fouad, section 2.2, Table 2.2),
// kept as the baseline the fused kernel (rusanov_update_device.hpp) is measured against:
//   copy-sol     Q_new = Q on the interior;
//   comp-eigv    the largest eigenvalue along each axis of every cell next to a face;
//   comp-flux    the Rusanov flux of every face, into global temporaries;
//   update-sol   Q_new -= dt/dx_a (F_a(i+1/2) - F_a(i-1/2)), axis by axis, from those fluxes;
//   reduce-eigv  the largest eigenvalue of every cell of Q_new, reduced to one value per patch.
// Intermediate values go through global memory between kernels; that traffic is what fusing
// removes. Same result as the host twin rusanovUpdateHost.
#include <array>
#include <cstddef>

#include "engine/device_array.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

template <class PDE>
class UnfusedRusanovDevice {
public:
  static constexpr int kDim = PDE::kDim;

  // Allocates the temporaries for numPatches patches of this layout (halo >= 1, numVars the
  // PDE's) in device memory, once: the seed's solver keeps them across steps for the same reason,
  // an allocation per step would cost more than the step.
  UnfusedRusanovDevice(const PatchLayout<kDim>& layout, int numPatches);

  // One step of all patches. All pointers are device pointers: one geometry per patch, the state
  // with halos filled, the new state (interior written), one eigenvalue per patch.
  void update(const PDE& pde, const PatchGeometry<kDim>* geometry, const double* q, double* qNew,
              double dt, double* patchLambda);

  // Device memory held by the temporaries.
  std::size_t temporaryBytes() const;

private:
  PatchLayout<kDim> layout_;
  int numPatches_;
  // maxEigenvalue along axis a of each cell of the patch plus one halo layer, stored like a patch
  // state whose "variables" are the axes.
  DeviceArray<double> eigenvalues_;
  // The Rusanov fluxes of the faces normal to each axis: [patch][var][face], x fastest.
  std::array<DeviceArray<double>, kDim> faceFluxes_;
};

} // namespace tessera
