#pragma once
// Per-patch refinement flags of a built-in criterion (patches/indicator_criterion.hpp) on the state
// of a PDE: the host loop here and its device twin (refinement_flags_kernels.hpp) evaluate the same
// per-cell indicator on the same quantity, so both back ends flag the same patches. Only the
// flags, one byte per patch, leave the device.
#include <span>
#include <vector>

#include "engine/parallel_for.hpp"
#include "patches/indicator_criterion.hpp"
#include "patches/patch_layout.hpp"
#include "physics/conservation_law.hpp"

namespace tessera {

// The criterion's quantity at a cell of one patch's data (halo included): a conserved variable
// as stored, or a primitive one computed from the cell's state.
template <ConservationLaw PDE>
struct CriterionQuantity {
  const PDE& pde;
  const PatchLayout<PDE::kDim>& layout;
  const amr::IndicatorCriterion& criterion;
  const double* patch;

  TESSERA_INLINE double operator()(const CellIndex<PDE::kDim>& c) const {
    const std::size_t cell = layout.cellOffset(c), vs = layout.varStride();
    if (!criterion.primitive)
      return patch[criterion.variable * vs + cell];
    typename PDE::State q;
    for (int v = 0; v < PDE::kNumVars; ++v)
      q[v] = patch[v * vs + cell];
    return pde.toPrimitive(q)[criterion.variable];
  }
};

// Host twin of refinementFlagsDevice: q holds numPatches patches with filled halos.
template <ConservationLaw PDE>
std::vector<amr::AdaptFlag>
refinementFlagsHost(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                    const amr::IndicatorCriterion& criterion, const double* q, int numPatches) {
  std::vector<amr::AdaptFlag> flags(numPatches);
  forEachPatch(numPatches, [&](int p) {
    const CriterionQuantity<PDE> quantity{pde, layout, criterion, q + p * layout.patchStride()};
    flags[p] = amr::patchFlag<PDE::kDim>(criterion, quantity, layout);
  });
  return flags;
}

// The same on the device: q and flags are device pointers (one flag per patch); with faceLinks
// (FaceLinks::neighbour, on the device) the linked faces' halo cells are read from the
// neighbours, and edge and corner halo cells are never read. Asynchronous.
template <ConservationLaw PDE>
void refinementFlagsDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                           const amr::IndicatorCriterion& criterion, const double* q,
                           int numPatches, amr::AdaptFlag* flags, const int* faceLinks = nullptr);

} // namespace tessera
