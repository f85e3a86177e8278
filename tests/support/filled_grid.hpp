#pragma once
// A uniform grid of patches holding a PDE's initial data with its halos filled: the set-up the
// tests share that compare a device kernel with its host twin.
#include <limits>
#include <utility>
#include <vector>

#include "patches/boundary.hpp"
#include "patches/face_links.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_store.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "solvers/patch/patch_solver.hpp"
#include "tests/support/halo_op_cells.hpp"

namespace tessera::test {

template <int Dim>
struct FilledGrid {
  UniformPatchGrid<Dim> grid;
  std::vector<PatchGeometry<Dim>> geometry;
  HaloPlan<Dim> plan; // the halo plan that filled q
  PatchStore<Dim> q;

  // Patches of `layout` over [0, upper], every interior cell set to ic(cell centre).
  template <class PDE, class Initial>
  FilledGrid(const PDE&, const Initial& ic, PatchLayout<Dim> layout, Vec<int, Dim> patches,
             Vec<double, Dim> upper, const DomainBoundary<Dim>& boundary)
      : grid(layout, patches, Vec<double, Dim>::filled(0.0), upper), geometry(grid.geometries()),
        plan(buildUniformHaloPlan(grid, boundary)),
        q(layout, grid.numPatches(), MemorySpace::Host) {
    for (int p = 0; p < grid.numPatches(); ++p)
      for (int c = 0; c < layout.interiorCells(); ++c) {
        const CellIndex<Dim> cell = layout.interiorCell(c);
        Vec<double, Dim> x;
        for (int a = 0; a < Dim; ++a)
          x[a] = geometry[p].cellCenter(a, cell[a]);
        const auto state = ic(x);
        for (int v = 0; v < PDE::kNumVars; ++v)
          q.at(p, v, cell) = state[v];
      }
    fillHalos(plan, layout, reflectionParityOf<PDE>(), q.data());
  }
};

// The face links of a filled grid, and its state with the halo cells the kernels should not read
// (linked faces, edges, corners) set to NaN: a device update that read one would spread NaN.
template <int Dim>
std::pair<std::vector<int>, std::vector<double>>
linkedWithPoisonedFaces(const test::FilledGrid<Dim>& filled) {
  const PatchLayout<Dim>& layout = filled.grid.layout();
  HaloPlan<Dim> rest = filled.plan;
  FaceLinks<Dim> links = unlinkedFaces<Dim>(filled.grid.numPatches());
  linkSameLevelFaces(rest, layout, links);
  std::vector<double> q(filled.q.data(), filled.q.data() + filled.q.array().size());
  for (const HaloOp<Dim>& op : links.unreadOps.ops)
    forEachCellOf(op, [&](const CellIndex<Dim>& c) {
      for (int v = 0; v < layout.numVars; ++v)
        q[layout.index(op.dstPatch, v, c)] = std::numeric_limits<double>::quiet_NaN();
    });
  return {std::move(links.neighbour), std::move(q)};
}

} // namespace tessera::test
