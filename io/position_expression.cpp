#include "io/position_expression.hpp"

#include <muParser.h>
#include <numbers>
#include <omp.h>

namespace tessera::io {

struct PositionExpression::Compiled {
  mu::Parser parser;
  double x[3] = {0.0, 0.0, 0.0};
};

namespace {
constexpr const char* kCoordinates[3] = {"x", "y", "z"};
} // namespace

std::unique_ptr<PositionExpression::Compiled>
PositionExpression::compile(const std::string& text, int dim, const Parameters& parameters) {
  auto c = std::make_unique<Compiled>();
  try {
    c->parser.DefineConst("pi", std::numbers::pi);
    c->parser.DefineConst("e", std::numbers::e);
    for (const auto& [name, value] : parameters)
      c->parser.DefineConst(name, value);
    for (int a = 0; a < dim; ++a)
      c->parser.DefineVar(kCoordinates[a], &c->x[a]);
    c->parser.SetExpr(text);
    c->parser.Eval(); // muParser parses on the first evaluation: a syntax error shows now
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError(e.GetMsg(), e.GetPos());
  }
  return c;
}

PositionExpression::PositionExpression(const std::string& text, int dim,
                                       const Parameters& parameters)
    : perThread_(std::make_shared<std::vector<std::unique_ptr<Compiled>>>()), dim_(dim) {
  if (dim < 1 || dim > 3)
    throw std::invalid_argument("PositionExpression: " + std::to_string(dim) + " coordinates");
  for (int t = 0; t < omp_get_max_threads(); ++t)
    perThread_->push_back(compile(text, dim, parameters));
}

double PositionExpression::operator()(const double* x) const {
  const int thread = omp_get_thread_num(); // 0 outside a parallel region
  Compiled& c = *perThread_->at(std::size_t(thread));
  for (int a = 0; a < dim_; ++a)
    c.x[a] = x[a];
  return c.parser.Eval();
}

} // namespace tessera::io
