#pragma once
// An initial state given by formulas in the case file (initial.type = "expression"): one
// expression of x, y (and z in 3D) and of the parameters in initial.parameters for each
// primitive variable of the system, under the variable's own name:
//
//   [initial]
//   type = "expression"
//   parameters = { amplitude = 0.2, k = 2.0 }
//   density = "1 + amplitude * sin(k * pi * x)"
//   velocity_x = "1"
//   velocity_y = "0"
//   pressure = "1"
//
// Every expression is parsed before the run (io/position_expression.hpp): one that does not
// parse is refused naming its key, the position and what muParser found there.
#include <cctype>
#include <string>
#include <vector>

#include "io/config.hpp"
#include "io/position_expression.hpp"
#include "physics/conservation_law.hpp"

namespace tessera::io {

template <ConservationLaw PDE>
struct ExpressionInitial {
  PDE pde;
  std::vector<PositionExpression> primitive; // one per primitive variable, in the system's order

  typename PDE::State operator()(const Vec<double, PDE::kDim>& x) const {
    typename PDE::State w;
    for (int v = 0; v < PDE::kNumVars; ++v)
      w[v] = primitive[std::size_t(v)](x.v);
    return pde.toConserved(w);
  }
};

namespace detail {
// A parameter's name as muParser takes it, and none that hides a coordinate or a constant.
inline bool parameterNameAllowed(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return name != "x" && name != "y" && name != "z" && name != "pi" && name != "e";
}
} // namespace detail

template <ConservationLaw PDE>
ExpressionInitial<PDE> readExpressionInitial(Config& cfg, const PDE& pde) {
  PositionExpression::Parameters parameters;
  for (const std::string& name : cfg.keysOf("initial.parameters")) {
    const std::string key = "initial.parameters." + name;
    if (!detail::parameterNameAllowed(name))
      cfg.fail(ConfigErrorKind::OutOfRange, key,
               "a parameter's name is a letter or _ followed by letters, digits or _, and not x, "
               "y, z, pi or e");
    parameters.emplace_back(name, cfg.getDouble(key, std::nullopt));
  }
  ExpressionInitial<PDE> initial{pde, {}};
  for (std::string_view name : PDE::primitiveNames()) {
    const std::string key = "initial." + std::string(name);
    const std::string text = cfg.getString(key, std::nullopt);
    try {
      initial.primitive.emplace_back(text, PDE::kDim, parameters);
    } catch (const ExpressionError& e) {
      // muParser's message names the token and its position, counted from 0.
      cfg.fail(ConfigErrorKind::Syntax, key,
               std::string(e.what()) + " (an expression of x, y" + (PDE::kDim == 3 ? ", z" : "") +
                   ", the initial.parameters and muParser's functions)");
    }
  }
  return initial;
}

} // namespace tessera::io
