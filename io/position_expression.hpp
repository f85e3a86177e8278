#pragma once
// A formula of the position (x, y and, in 3D, z) and of named parameters, as a case file gives an
// initial state (initial.type = "expression"), parsed and evaluated by muParser: the usual
// operators, ^ for powers, sin, cos, tan, exp, log, sqrt, abs, min, max, sum, avg, the ternary
// ?:, and the constants pi and e (also muParser's own _pi and _e).
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tessera::io {

// A formula that does not parse: muParser's message and the position (0-based) it points at.
class ExpressionError : public std::runtime_error {
public:
  ExpressionError(const std::string& message, int position)
      : std::runtime_error(message), position_(position) {}
  int position() const { return position_; }

private:
  int position_;
};

class PositionExpression {
public:
  using Parameters = std::vector<std::pair<std::string, double>>;

  // Parses `text` for `dim` coordinates and the parameters. Throws ExpressionError for a syntax
  // error or a name that is neither a coordinate, a parameter nor one of muParser's.
  PositionExpression(const std::string& text, int dim, const Parameters& parameters);

  // The value at x (dim coordinates). Safe to call from several OpenMP threads at once: each
  // thread evaluates with a parser of its own. Copies share the parsers.
  double operator()(const double* x) const;

private:
  struct Compiled; // one muParser parser with the coordinates it reads
  static std::unique_ptr<Compiled> compile(const std::string& text, int dim,
                                           const Parameters& parameters);
  std::shared_ptr<std::vector<std::unique_ptr<Compiled>>> perThread_;
  int dim_;
};

} // namespace tessera::io
