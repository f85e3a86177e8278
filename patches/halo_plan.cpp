#include "patches/halo_plan.hpp"

#include <stdexcept>
#include <string>

#include "patches/halo_cell.hpp"
#include "patches/halo_planner.hpp"
#include "patches/uniform_patch_grid.hpp"

namespace tessera {
template <int Dim>
HaloPlan<Dim> buildHaloPlan(const PatchLayout<Dim>& layout,
                            std::span<const PatchPlacement<Dim>> patches,
                            Vec<int, Dim> level0PatchesPerAxis, const DomainBoundary<Dim>& boundary,
                            int filledPatches) {
  return HaloPlanner<Dim>(layout, {patches.begin(), patches.end()}, level0PatchesPerAxis, boundary,
                          filledPatches)
      .whole();
}

template <int Dim>
HaloPlan<Dim> buildUniformHaloPlan(const UniformPatchGrid<Dim>& grid,
                                   const DomainBoundary<Dim>& boundary) {
  std::vector<PatchPlacement<Dim>> patches(grid.numPatches());
  for (int p = 0; p < grid.numPatches(); ++p)
    patches[p].index = grid.patchCoords(p);
  return buildHaloPlan<Dim>(grid.layout(), patches, grid.patchesPerAxis(), boundary);
}

template <int Dim>
void fillHalos(const HaloPlan<Dim>& plan, const PatchLayout<Dim>& layout,
               const ReflectionParity& parity, double* data) {
  constexpr int kMaxVars = 32;
  const int nv = layout.numVars;
  if (nv > kMaxVars)
    throw std::invalid_argument("fillHalos: at most 32 variables per cell");
  if (parity.size() != std::size_t(Dim * nv))
    throw std::invalid_argument("fillHalos: reflection parity must have Dim * numVars entries");
  const std::ptrdiff_t numOps = std::ptrdiff_t(plan.ops.size());

  // The same values as fillHaloCell (the device's per-cell form), with what is fixed for an
  // operation (signs, source pointers) worked out once per operation: the host loop over a box
  // is then a few loads and stores per cell.
#pragma omp parallel for schedule(dynamic, 16)
  for (std::ptrdiff_t o = 0; o < numOps; ++o) {
    const HaloOp<Dim>& op = plan.ops[o];
    const double* fixed =
        op.source == HaloSource::Fixed ? plan.inflowStates[op.fixedState].data() : nullptr;
    double sign[kMaxVars];
    const double* src[kMaxVars];
    double* dst[kMaxVars];
    for (int v = 0; v < nv; ++v) {
      sign[v] = haloSign(op, parity.data(), nv, v);
      src[v] = data + layout.varOffset(op.srcPatch, v);
      dst[v] = data + layout.varOffset(op.dstPatch, v);
    }
    CellIndex<Dim> c;
    for (int a = 0; a < Dim; ++a)
      c[a] = op.lo[a];
    while (true) {
      CellIndex<Dim> u{};
      for (int a = 0; a < Dim; ++a)
        u[a] = op.scale[a] * c[a] + op.shift[a];
      const int at = layout.cellOffset(c);
      for (int v = 0; v < nv; ++v)
        dst[v][at] = sign[v] * haloValue(op, layout, src[v], fixed, u, v);
      int a = 0; // advance the box's cell counter, x fastest
      for (; a < Dim; ++a) {
        if (++c[a] < op.hi[a])
          break;
        c[a] = op.lo[a];
      }
      if (a == Dim)
        break;
    }
  }
}

template HaloPlan<2> buildHaloPlan(const PatchLayout<2>&, std::span<const PatchPlacement<2>>,
                                   Vec<int, 2>, const DomainBoundary<2>&, int);
template HaloPlan<3> buildHaloPlan(const PatchLayout<3>&, std::span<const PatchPlacement<3>>,
                                   Vec<int, 3>, const DomainBoundary<3>&, int);
template HaloPlan<2> buildUniformHaloPlan(const UniformPatchGrid<2>&, const DomainBoundary<2>&);
template HaloPlan<3> buildUniformHaloPlan(const UniformPatchGrid<3>&, const DomainBoundary<3>&);
template void fillHalos(const HaloPlan<2>&, const PatchLayout<2>&, const ReflectionParity&,
                        double*);
template void fillHalos(const HaloPlan<3>&, const PatchLayout<3>&, const ReflectionParity&,
                        double*);

} // namespace tessera
