#pragma once
// From patch storage to VTK output cells: the interior cells of every patch with the conserved
// and the primitive variables of the PDE as fields (cellFields).
#include <algorithm>
#include <cmath>
#include <iterator>
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

namespace detail {

// An output field made of some of a PDE's variables: one variable, or the components of a vector
// (variables named <stem>_x, <stem>_y(, <stem>_z)), written as a 3-vector named <stem> (z = 0 in
// 2D).
struct FieldOfVariables {
  std::string name;
  int components = 1;
  int variables[3] = {-1, -1, -1};
};

template <class Names>
std::vector<FieldOfVariables> fieldsOfVariables(const Names& names) {
  std::vector<FieldOfVariables> fields;
  for (int v = 0; v < int(std::size(names)); ++v) {
    const std::string name(names[std::size_t(v)]);
    const std::size_t n = name.size();
    const bool component = n > 2 && name[n - 2] == '_' && name[n - 1] >= 'x' && name[n - 1] <= 'z';
    if (!component) {
      fields.push_back({name, 1, {v, -1, -1}});
      continue;
    }
    const std::string stem = name.substr(0, n - 2);
    if (fields.empty() || fields.back().name != stem)
      fields.push_back({stem, 3, {-1, -1, -1}});
    fields.back().variables[name[n - 1] - 'x'] = v;
  }
  return fields;
}

} // namespace detail

// The output fields of a patch state, in PatchMesh order: the conserved variables, then the
// primitive ones that are not also conserved (density is written once); the components of a
// vector as one 3-vector field (momentum, velocity).
template <ConservationLaw PDE>
std::vector<CellField> cellFields(const PDE& pde, const PatchStore<PDE::kDim>& store) {
  constexpr int nv = PDE::kNumVars;
  const auto& layout = store.layout();
  const std::size_t cells = std::size_t(store.numPatches()) * layout.interiorCells();
  std::vector<detail::FieldOfVariables> layoutOf = detail::fieldsOfVariables(PDE::conservedNames());
  const std::size_t numConserved = layoutOf.size();
  for (auto& field : detail::fieldsOfVariables(PDE::primitiveNames()))
    if (std::none_of(layoutOf.begin(), layoutOf.begin() + std::ptrdiff_t(numConserved),
                     [&](const auto& c) { return c.name == field.name; }))
      layoutOf.push_back(std::move(field));
  std::vector<CellField> fields;
  for (const auto& field : layoutOf)
    fields.push_back(CellField{field.name, field.components,
                               std::vector<double>(std::size_t(field.components) * cells)});
  std::size_t cell = 0;
  for (int p = 0; p < store.numPatches(); ++p)
    for (int n = 0; n < layout.interiorCells(); ++n, ++cell) {
      typename PDE::State q;
      for (int v = 0; v < nv; ++v)
        q[v] = store.at(p, v, layout.interiorCell(n));
      const typename PDE::State w = pde.toPrimitive(q);
      for (std::size_t f = 0; f < layoutOf.size(); ++f) {
        const typename PDE::State& source = f < numConserved ? q : w;
        const detail::FieldOfVariables& field = layoutOf[f];
        double* out = fields[f].values.data() + std::size_t(field.components) * cell;
        for (int c = 0; c < field.components; ++c)
          out[c] = field.variables[c] >= 0 ? source[field.variables[c]] : 0.0;
      }
    }
  return fields;
}

// For the diagnostic output of a run that became unphysical: 1 in every interior cell whose
// state is not admissible (a non-finite value, density or pressure at or below zero, a non-finite
// wave speed), 0 elsewhere.
template <ConservationLaw PDE>
CellField unphysicalCells(const PDE& pde, const PatchStore<PDE::kDim>& store) {
  const auto& layout = store.layout();
  CellField marked{"unphysical", 1, {}};
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
