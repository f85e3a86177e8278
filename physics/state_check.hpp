#pragma once
// What makes a state unphysical, in words, for the error a run stops with: written once for every
// system, host-side (error paths only). A system names the primitive variables that must stay
// positive in kPositiveVariables (Euler: density and pressure); without it only non-finite values
// and eigenvalues are caught, and the message says nothing about positivity it does not check.
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "physics/conservation_law.hpp"

namespace tessera {

// The first conserved variable that is not finite ("momentum_y nan"), else the first of
// kPositiveVariables at or below zero or not finite ("pressure -0.25"), else a largest eigenvalue
// that is not finite or negative ("largest eigenvalue along axis 1 nan"); "" for a physical state.
template <ConservationLaw PDE>
std::string unphysicalQuantity(const PDE& pde, const typename PDE::State& q) {
  char text[128];
  const auto said = [&](std::string_view name, double value) {
    std::snprintf(text, sizeof text, "%.*s %g", int(name.size()), name.data(), value);
    return std::string(text);
  };
  const auto conserved = PDE::conservedNames();
  for (int v = 0; v < PDE::kNumVars; ++v)
    if (!std::isfinite(q[v]))
      return said(conserved[std::size_t(v)], q[v]);
  if constexpr (requires { PDE::kPositiveVariables; }) {
    const auto primitive = PDE::primitiveNames();
    const typename PDE::State w = pde.toPrimitive(q);
    for (std::string_view name : PDE::kPositiveVariables)
      for (int v = 0; v < PDE::kNumVars; ++v)
        if (primitive[std::size_t(v)] == name && !(w[v] > 0.0 && std::isfinite(w[v])))
          return said(name, w[v]);
  }
  for (int a = 0; a < PDE::kDim; ++a)
    if (const double lambda = pde.maxEigenvalue(q, a); !(lambda >= 0.0 && std::isfinite(lambda)))
      return said("largest eigenvalue along axis " + std::to_string(a), lambda);
  return {};
}

} // namespace tessera
