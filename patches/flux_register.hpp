#pragma once
// Flux registers and refluxing. The fused update leaves the numerical fluxes of every patch's
// boundary faces in a register; where a coarse patch meets finer ones, the coarse cells next to
// the interface are then corrected from the coarse face flux to the mean of the fine face fluxes
// over the same face. Total mass, momentum and energy are then conserved across levels.
#include <cstddef>
#include <span>
#include <vector>

#include "engine/backend.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"
#include "patches/placement_index.hpp"

namespace tessera {

// Where a patch's boundary fluxes sit: for each face (axis a, side s: 0 lower, 1 upper), each
// variable, and each face cell t (the face's cells numbered x fastest over the other axes).
template <int Dim>
struct FluxRegisterLayout {
  int cellsPerAxis = 0;
  int numVars = 0;

  TESSERA_INLINE int faceCells() const {
    int c = 1;
    for (int a = 1; a < Dim; ++a)
      c *= cellsPerAxis;
    return c;
  }
  TESSERA_INLINE std::size_t patchStride() const {
    return std::size_t(2 * Dim) * numVars * faceCells();
  }
  TESSERA_INLINE std::size_t index(int patch, int axis, int side, int var, int t) const {
    return patch * patchStride() + (std::size_t(2 * axis + side) * numVars + var) * faceCells() + t;
  }
};

// One coarse face against one finer patch: the coarse patch's face (axis, side) is covered in
// part by finePatch, whose opposite face lies on it; `child` gives which half of the coarse face
// along each other axis (entries on `axis` unused).
template <int Dim>
struct RefluxOp {
  int coarsePatch = 0;
  int finePatch = 0;
  int axis = 0;
  int side = 0;
  Vec<int, Dim> child{};
  friend bool operator==(const RefluxOp&, const RefluxOp&) = default;
};

// Every coarse-fine face of a 2:1-balanced set of patches (periodic images included) whose coarse
// patch is one of the first `correctedPatches` (all where negative); the fine patch may be any
// (on several MPI ranks, a ghost patch, whose fluxes its owner sends).
template <int Dim>
std::vector<RefluxOp<Dim>>
buildRefluxPlan(std::span<const PatchPlacement<Dim>> patches, Vec<int, Dim> level0PatchesPerAxis,
                const DomainBoundary<Dim>& boundary, int correctedPatches = -1);
// The same with the patches' index already built (a HaloPlanner's: a regrid builds both plans).
template <int Dim>
std::vector<RefluxOp<Dim>>
buildRefluxPlan(const PlacementIndex<Dim>& index, std::span<const PatchPlacement<Dim>> patches,
                Vec<int, Dim> level0PatchesPerAxis, const DomainBoundary<Dim>& boundary,
                int correctedPatches);

// Host execution after the update: each coarse cell next to a finer patch gets
// dt/dx (F_coarse - mean F_fine), signed by its face, added to qNew. The caller recomputes the
// eigenvalues of the coarse patches named in the plan.
template <int Dim>
void reflux(std::span<const RefluxOp<Dim>> plan, const PatchLayout<Dim>& layout,
            std::span<const PatchGeometry<Dim>> geometry, const double* fluxRegister, double dt,
            double* qNew);

} // namespace tessera
