#pragma once
// From patch storage to VTK output cells: the interior cells of every patch with the fields a
// case asks for (cellFields).
#include <algorithm>
#include <cmath>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "io/output_fields.hpp"
#include "io/vtk_output.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_store.hpp"
#include "physics/conservation_law.hpp"
#include "physics/state_check.hpp"

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

// The output fields of a patch state, in PatchMesh order (io/output_fields.hpp). Vorticity and
// schlieren are central differences across each cell and read the halo cells next to a patch's
// edge: their halos must be filled (PatchSolver::fillCurrentHalos) before.
template <ConservationLaw PDE>
std::vector<CellField> cellFields(const PDE& pde, const PatchStore<PDE::kDim>& store,
                                  std::span<const PatchGeometry<PDE::kDim>> geometry,
                                  const OutputFields& output) {
  constexpr int Dim = PDE::kDim;
  const auto& layout = store.layout();
  const std::size_t cells = std::size_t(store.numPatches()) * layout.interiorCells();
  std::vector<CellField> fields;
  for (const OutputField& field : output.fields)
    fields.push_back(CellField{field.name, field.components,
                               std::vector<double>(std::size_t(field.components) * cells)});
  const auto stateAt = [&](int p, CellIndex<Dim> c) {
    typename PDE::State q;
    for (int v = 0; v < PDE::kNumVars; ++v)
      q[v] = store.at(p, v, c);
    return q;
  };
  std::size_t cell = 0;
  for (int p = 0; p < store.numPatches(); ++p)
    for (int n = 0; n < layout.interiorCells(); ++n, ++cell) {
      const CellIndex<Dim> at = layout.interiorCell(n);
      const typename PDE::State q = stateAt(p, at);
      const typename PDE::State w = pde.toPrimitive(q);
      // d(primitive)/dx_a by central differences, where a field needs neighbours.
      Vec<typename PDE::State, Dim> gradient{};
      if (output.needNeighbours())
        for (int a = 0; a < Dim; ++a) {
          CellIndex<Dim> lower = at, upper = at;
          --lower[a];
          ++upper[a];
          const typename PDE::State below = pde.toPrimitive(stateAt(p, lower));
          const typename PDE::State above = pde.toPrimitive(stateAt(p, upper));
          for (int v = 0; v < PDE::kNumVars; ++v)
            gradient[a][v] = (above[v] - below[v]) / (2.0 * geometry[std::size_t(p)].dx[a]);
        }
      for (std::size_t f = 0; f < output.fields.size(); ++f) {
        const OutputField& field = output.fields[f];
        double* out = fields[f].values.data() + std::size_t(field.components) * cell;
        if (!field.needsNeighbours()) {
          pointwiseValues(pde, field, q, w, output.gasConstant, out);
          continue;
        }
        if constexpr (kIsEuler<PDE>) {
          constexpr int u = PDE::kMomentum; // velocity components among the primitive variables
          const auto du = [&](int component, int axis) { return gradient[axis][u + component]; };
          if (field.quantity == Quantity::Schlieren) {
            double squared = 0.0;
            for (int a = 0; a < Dim; ++a)
              squared += gradient[a][PDE::kDensity] * gradient[a][PDE::kDensity];
            *out = std::sqrt(squared);
          } else if constexpr (Dim == 2) { // vorticity
            *out = du(1, 0) - du(0, 1);
          } else {
            out[0] = du(2, 1) - du(1, 2);
            out[1] = du(0, 2) - du(2, 0);
            out[2] = du(1, 0) - du(0, 1);
          }
        }
      }
    }
  return fields;
}

// Every variable of a patch state, conserved and primitive, as output fields: for diagnostics.
template <ConservationLaw PDE>
std::vector<CellField> allVariableFields(const PDE& pde, const PatchStore<PDE::kDim>& store,
                                         std::span<const PatchGeometry<PDE::kDim>> geometry) {
  return cellFields(pde, store, geometry,
                    OutputFields{selectOutputFields<PDE>({"conserved", "primitive"}, false)});
}

// For the diagnostic output of a run that became unphysical: 1 in every interior cell whose
// state is unphysical as the error message judges it (physics/state_check.hpp: a non-finite
// value, one of the system's positive variables at or below zero, a bad eigenvalue), 0 elsewhere.
template <ConservationLaw PDE>
CellField unphysicalCells(const PDE& pde, const PatchStore<PDE::kDim>& store) {
  const auto& layout = store.layout();
  CellField marked{"unphysical", 1, {}};
  for (int p = 0; p < store.numPatches(); ++p)
    for (int n = 0; n < layout.interiorCells(); ++n) {
      typename PDE::State q;
      for (int v = 0; v < PDE::kNumVars; ++v)
        q[v] = store.at(p, v, layout.interiorCell(n));
      marked.values.push_back(unphysicalQuantity(pde, q).empty() ? 0.0 : 1.0);
    }
  return marked;
}

} // namespace tessera::io
