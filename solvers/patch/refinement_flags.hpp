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

// The criterion's quantity of a cell's conserved state: one variable of it, or of its primitive
// state. The variable is picked as the sum of each variable times 1 or 0, not by an index: an
// index known only at run time keeps the state in local memory on the device, and so does a chain
// of selects, which the compiler folds back into an indexed load. For a finite state the sum is
// the variable (a -0 comes out +0, which no indicator tells apart); a state with an infinite or
// NaN variable gives NaN, on the host as on the device.
template <ConservationLaw PDE>
TESSERA_INLINE double criterionValue(const PDE& pde, const amr::IndicatorCriterion& criterion,
                                     const typename PDE::State& q) {
  const typename PDE::State w = pde.toPrimitive(q);
  double value = 0.0;
  for (int v = 0; v < PDE::kNumVars; ++v) // per component: a choice of state takes its address
    value += (criterion.primitive ? w[v] : q[v]) * (v == criterion.variable ? 1.0 : 0.0);
  return value;
}

// The criterion's quantity at a cell of one patch's data (halo included): a conserved variable
// read where it is stored (the same value as criterionValue's for a finite state), a primitive
// one from the cell's state.
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
    return criterionValue(pde, criterion, q);
  }
};

// A built-in criterion that an update evaluates on its input state (the halos it reads filled):
// one flag per updated patch into `flags` (where the state lives, indexed by patch), so that the
// regrid after a step needs neither a pass over the state nor a halo fill of its own.
struct UpdateCriterion {
  amr::IndicatorCriterion criterion;
  amr::AdaptFlag* flags;
};

// The flag of patch p of q (halos filled).
template <ConservationLaw PDE>
amr::AdaptFlag patchFlagHost(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                             const amr::IndicatorCriterion& criterion, const double* q, int p) {
  const CriterionQuantity<PDE> quantity{pde, layout, criterion, q + p * layout.patchStride()};
  return amr::patchFlag<PDE::kDim>(criterion, quantity, layout);
}

// Host twin of refinementFlagsDevice: q holds numPatches patches with filled halos.
template <ConservationLaw PDE>
std::vector<amr::AdaptFlag>
refinementFlagsHost(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                    const amr::IndicatorCriterion& criterion, const double* q, int numPatches) {
  std::vector<amr::AdaptFlag> flags(numPatches);
  forEachPatch(numPatches, [&](int p) { flags[p] = patchFlagHost(pde, layout, criterion, q, p); });
  return flags;
}

// The same on the device: q and flags are device pointers (one flag per patch); with faceLinks
// (FaceLinks::neighbour, on the device) the linked faces' halo cells are read from the
// neighbours, and edge and corner halo cells are never read. With `patches` (a device list of
// numPatches patch numbers) only the listed patches are flagged. Asynchronous.
template <ConservationLaw PDE>
void refinementFlagsDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                           const amr::IndicatorCriterion& criterion, const double* q,
                           int numPatches, amr::AdaptFlag* flags, const int* faceLinks = nullptr,
                           const int* patches = nullptr);

} // namespace tessera
