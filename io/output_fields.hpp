#pragma once
// What an output holds (output.fields): a PDE's variables, conserved and primitive, with a
// vector's components as one 3-vector field (momentum, velocity), and for the Euler equations the
// quantities derived from them. Resolved once from the names a case lists into OutputField
// recipes, which the patch and the unstructured writers evaluate cell by cell.
#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "physics/conservation_law.hpp"
#include "physics/euler/derived_quantities.hpp"
#include "physics/euler/euler.hpp"

namespace tessera::io {

template <class PDE>
inline constexpr bool kIsEuler = std::is_same_v<PDE, Euler<PDE::kDim>>;

enum class Quantity {
  Conserved,   // conserved variables (`variables`)
  Primitive,   // primitive variables (`variables`)
  Mach,        // |u| / c
  SoundSpeed,  // c
  Temperature, // p / (rho R)
  Entropy,     // R / (gamma - 1) ln(p / rho^gamma)
  Vorticity,   // curl u: its z component in 2D, the vector in 3D (needs neighbour cells)
  Schlieren,   // |grad rho|, the magnitude a schlieren image shows (needs neighbour cells)
};

// One output field: its name, what it is, its component count (1 or 3) and, for variables, the
// variable of each component (-1: the z component of a 2D vector, written as 0).
struct OutputField {
  std::string name;
  Quantity quantity = Quantity::Conserved;
  int components = 1;
  int variables[3] = {-1, -1, -1};

  bool needsNeighbours() const {
    return quantity == Quantity::Vorticity || quantity == Quantity::Schlieren;
  }
};

// The fields of an output and the gas constant that temperature and entropy take.
struct OutputFields {
  std::vector<OutputField> fields;
  double gasConstant = 1.0;

  bool needNeighbours() const {
    return std::any_of(fields.begin(), fields.end(),
                       [](const OutputField& f) { return f.needsNeighbours(); });
  }
};

namespace detail {

// The fields of some variables: one per variable, except the components of a vector (variables
// named <stem>_x, <stem>_y(, <stem>_z)), which make one 3-vector named <stem>.
template <class Names>
std::vector<OutputField> fieldsOfVariables(const Names& names, Quantity quantity) {
  std::vector<OutputField> fields;
  for (int v = 0; v < int(std::size(names)); ++v) {
    const std::string name(names[std::size_t(v)]);
    const std::size_t n = name.size();
    const bool component = n > 2 && name[n - 2] == '_' && name[n - 1] >= 'x' && name[n - 1] <= 'z';
    if (!component) {
      fields.push_back({name, quantity, 1, {v, -1, -1}});
      continue;
    }
    const std::string stem = name.substr(0, n - 2);
    if (fields.empty() || fields.back().name != stem)
      fields.push_back({stem, quantity, 3, {-1, -1, -1}});
    fields.back().variables[name[n - 1] - 'x'] = v;
  }
  return fields;
}

} // namespace detail

// Every field a PDE's output can hold, by name: its conserved variables, then the primitive ones
// that are not also conserved (density is one field), then for Euler the derived quantities;
// vorticity and schlieren only where the mesh gives each cell its neighbours (`neighbours`).
template <ConservationLaw PDE>
std::vector<OutputField> availableOutputFields(bool neighbours) {
  std::vector<OutputField> fields =
      detail::fieldsOfVariables(PDE::conservedNames(), Quantity::Conserved);
  for (OutputField& field : detail::fieldsOfVariables(PDE::primitiveNames(), Quantity::Primitive))
    if (std::none_of(fields.begin(), fields.end(),
                     [&](const OutputField& c) { return c.name == field.name; }))
      fields.push_back(std::move(field));
  if constexpr (kIsEuler<PDE>) {
    fields.push_back({"mach", Quantity::Mach});
    fields.push_back({"sound_speed", Quantity::SoundSpeed});
    fields.push_back({"temperature", Quantity::Temperature});
    fields.push_back({"entropy", Quantity::Entropy});
    if (neighbours) {
      fields.push_back({"vorticity", Quantity::Vorticity, PDE::kDim == 2 ? 1 : 3});
      fields.push_back({"schlieren", Quantity::Schlieren});
    }
  }
  return fields;
}

// The names output.fields takes: "primitive" and "conserved" (all variables of the kind), then
// the name of every available field.
template <ConservationLaw PDE>
std::vector<std::string> outputFieldChoices(bool neighbours) {
  std::vector<std::string> names{"primitive", "conserved"};
  for (const OutputField& field : availableOutputFields<PDE>(neighbours))
    names.push_back(field.name);
  return names;
}

// The fields named (each a choice of outputFieldChoices), in the order given, each once:
// "primitive" and "conserved" stand for the fields of those variables. Throws
// std::invalid_argument for a name that is not a choice.
template <ConservationLaw PDE>
std::vector<OutputField> selectOutputFields(const std::vector<std::string>& names,
                                            bool neighbours) {
  const std::vector<OutputField> available = availableOutputFields<PDE>(neighbours);
  std::vector<OutputField> selected;
  const auto add = [&](const OutputField& field) {
    if (std::none_of(selected.begin(), selected.end(),
                     [&](const OutputField& s) { return s.name == field.name; }))
      selected.push_back(field);
  };
  for (const std::string& name : names) {
    if (name == "conserved" || name == "primitive") {
      const auto group =
          name == "conserved"
              ? detail::fieldsOfVariables(PDE::conservedNames(), Quantity::Conserved)
              : detail::fieldsOfVariables(PDE::primitiveNames(), Quantity::Primitive);
      for (const OutputField& field : group) // density: whichever kind comes first
        add(*std::find_if(available.begin(), available.end(),
                          [&](const OutputField& a) { return a.name == field.name; }));
      continue;
    }
    const auto found = std::find_if(available.begin(), available.end(),
                                    [&](const OutputField& a) { return a.name == name; });
    if (found == available.end())
      throw std::invalid_argument("no output field named '" + name + "'");
    add(*found);
  }
  return selected;
}

// Writes one cell's values of a field that needs no neighbours (components values) from its
// conserved state q and primitive state w.
template <ConservationLaw PDE>
void pointwiseValues(const PDE& pde, const OutputField& field, const typename PDE::State& q,
                     const typename PDE::State& w, double gasConstant, double* out) {
  switch (field.quantity) {
  case Quantity::Conserved:
  case Quantity::Primitive: {
    const typename PDE::State& source = field.quantity == Quantity::Conserved ? q : w;
    for (int c = 0; c < field.components; ++c)
      out[c] = field.variables[c] >= 0 ? source[field.variables[c]] : 0.0;
    return;
  }
  default:
    break;
  }
  if constexpr (kIsEuler<PDE>) {
    constexpr int Dim = PDE::kDim;
    switch (field.quantity) {
    case Quantity::Mach:
      *out = euler::machNumber<Dim>(pde, w);
      return;
    case Quantity::SoundSpeed:
      *out = euler::soundSpeed<Dim>(pde, w);
      return;
    case Quantity::Temperature:
      *out = euler::temperature<Dim>(w, gasConstant);
      return;
    case Quantity::Entropy:
      *out = euler::specificEntropy<Dim>(pde, w, gasConstant);
      return;
    default:
      break;
    }
  }
  throw std::logic_error("output field '" + field.name + "' needs neighbour cells");
}

} // namespace tessera::io
