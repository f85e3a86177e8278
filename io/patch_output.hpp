#pragma once
// From patch storage to VTK output cells: the interior cells of every patch with the conserved
// and the primitive variables of the PDE (primitive arrays whose name repeats a conserved one,
// such as density, are written once).
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "io/vtk_output.hpp"
#include "numerics/reconstruct/cell_faces.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_store.hpp"
#include "physics/conservation_law.hpp"

namespace tessera::io {

template <int Dim>
PatchMesh patchMesh(const PatchLayout<Dim>& layout, std::span<const PatchGeometry<Dim>> geometry,
                    std::span<const int> levels, int firstPatchId) {
  PatchMesh mesh;
  mesh.dim = Dim;
  mesh.cellsPerAxis = layout.cellsPerAxis;
  for (std::size_t p = 0; p < geometry.size(); ++p) {
    for (int a = 0; a < 3; ++a) {
      mesh.origin.push_back(a < Dim ? geometry[p].origin[a] : 0.0);
      mesh.dx.push_back(a < Dim ? geometry[p].dx[a] : 0.0);
    }
    mesh.patchId.push_back(firstPatchId + int(p));
    mesh.level.push_back(levels[p]);
  }
  return mesh;
}

template <ConservationLaw PDE>
std::vector<CellArray> cellArrays(const PDE& pde, const PatchStore<PDE::kDim>& store) {
  constexpr int nv = PDE::kNumVars;
  const auto& layout = store.layout();
  const std::size_t cells = std::size_t(store.numPatches()) * layout.interiorCells();
  std::vector<CellArray> arrays;
  const auto conservedNames = PDE::conservedNames();
  const auto primitiveNames = PDE::primitiveNames();
  for (int v = 0; v < nv; ++v)
    arrays.push_back({std::string(conservedNames[v]), std::vector<double>(cells)});
  std::vector<int> primitiveSlot(nv, -1);
  for (int v = 0; v < nv; ++v) {
    bool repeated = false;
    for (int w = 0; w < nv; ++w)
      repeated = repeated || primitiveNames[v] == conservedNames[w];
    if (!repeated) {
      primitiveSlot[v] = int(arrays.size());
      arrays.push_back({std::string(primitiveNames[v]), std::vector<double>(cells)});
    }
  }
  std::size_t cell = 0;
  for (int p = 0; p < store.numPatches(); ++p)
    for (int n = 0; n < layout.interiorCells(); ++n, ++cell) {
      typename PDE::State q;
      for (int v = 0; v < nv; ++v)
        q[v] = store.at(p, v, layout.interiorCell(n));
      const typename PDE::State w = pde.toPrimitive(q);
      for (int v = 0; v < nv; ++v) {
        arrays[v].values[cell] = q[v];
        if (primitiveSlot[v] >= 0)
          arrays[primitiveSlot[v]].values[cell] = w[v];
      }
    }
  return arrays;
}

// For the diagnostic output of a run that became unphysical: 1 in every interior cell whose
// state is not admissible (a non-finite value, density or pressure at or below zero, a non-finite
// wave speed), 0 elsewhere.
template <ConservationLaw PDE>
CellArray unphysicalCells(const PDE& pde, const PatchStore<PDE::kDim>& store) {
  const auto& layout = store.layout();
  CellArray marked{"unphysical", {}};
  for (int p = 0; p < store.numPatches(); ++p)
    for (int n = 0; n < layout.interiorCells(); ++n) {
      typename PDE::State q;
      bool finite = true;
      for (int v = 0; v < PDE::kNumVars; ++v) {
        q[v] = store.at(p, v, layout.interiorCell(n));
        finite = finite && std::isfinite(q[v]);
      }
      bool admissible = finite && admissiblePrimitive(pde, pde.toPrimitive(q));
      for (int a = 0; a < PDE::kDim && admissible; ++a)
        admissible = std::isfinite(pde.maxEigenvalue(q, a));
      marked.values.push_back(admissible ? 0.0 : 1.0);
    }
  return marked;
}

} // namespace tessera::io
