// Formulas of the position in case files (io/position_expression.hpp, io/expression_initial.hpp):
// values against the same formula written in C++, the same values from every OpenMP thread, and
// each kind of mistake refused before a run with the key, the position and muParser's words.
#include <cmath>
#include <gtest/gtest.h>
#include <numbers>
#include <string>
#include <vector>

#include "io/config.hpp"
#include "io/expression_initial.hpp"
#include "io/position_expression.hpp"
#include "physics/euler/euler.hpp"

namespace tessera::io {
namespace {

TEST(PositionExpression, EvaluatesFormulasOfThePositionAndParameters) {
  const PositionExpression f("a + b * sin(2 * pi * x) * y^2 - exp(-z) + (x < 0.5 ? 1 : 0)", 3,
                             {{"a", 1.5}, {"b", -0.25}});
  for (const double x : {0.1, 0.6})
    for (const double y : {-1.0, 3.0}) {
      const double at[3] = {x, y, 0.7};
      const double expected = 1.5 - 0.25 * std::sin(2 * std::numbers::pi * x) * y * y -
                              std::exp(-0.7) + (x < 0.5 ? 1.0 : 0.0);
      EXPECT_NEAR(f(at), expected, 1e-14 * std::fabs(expected));
    }
}

TEST(PositionExpression, EveryThreadGetsTheSameValues) {
  const PositionExpression f("sin(3 * x) + y", 2, {});
  const int n = 20000;
  std::vector<double> values(n);
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    const double at[2] = {1e-4 * i, -1e-4 * i};
    values[std::size_t(i)] = f(at);
  }
  for (int i = 0; i < n; ++i) {
    const double x = 1e-4 * i;
    ASSERT_EQ(values[std::size_t(i)], std::sin(3 * x) + -x) << i;
  }
}

TEST(PositionExpression, RefusesSyntaxErrorsAndUnknownNamesWithThePosition) {
  try {
    PositionExpression("1 + * x", 2, {});
    FAIL() << "no error";
  } catch (const ExpressionError& e) {
    EXPECT_EQ(e.position(), 4) << e.what();
  }
  EXPECT_THROW(PositionExpression("z + 1", 2, {}), ExpressionError) << "z in 2D";
  EXPECT_THROW(PositionExpression("rho0 * x", 2, {}), ExpressionError) << "no such parameter";
  EXPECT_THROW(PositionExpression("sin(x", 2, {}), ExpressionError);
}

std::string errorOf(const std::string& toml) {
  Config cfg = Config::fromString(toml, "case.toml");
  try {
    readExpressionInitial(cfg, Euler<2>{});
  } catch (const ConfigError& e) {
    return std::to_string(e.exitCode()) + " " + e.what();
  }
  return "no error";
}

const std::string kValid = R"toml(
[initial]
type = "expression"
parameters = { amplitude = 0.2 }
density = "1 + amplitude * sin(2 * pi * x)"
velocity_x = "1"
velocity_y = "0"
pressure = "1"
)toml";

TEST(ExpressionInitial, GivesEachPrimitiveVariableItsFormula) {
  Config cfg = Config::fromString(kValid, "case.toml");
  cfg.getChoice("initial.type", std::nullopt, {"expression"});
  const ExpressionInitial<Euler<2>> initial = readExpressionInitial(cfg, Euler<2>{});
  const Euler<2> pde;
  const auto w = pde.toPrimitive(initial(Vec<double, 2>{{0.25, 0.5}}));
  EXPECT_NEAR(w[0], 1.2, 1e-15);
  EXPECT_NEAR(w[1], 1.0, 1e-15);
  EXPECT_EQ(w[2], 0.0);
  EXPECT_NEAR(w[3], 1.0, 1e-15);
  cfg.rejectUnreadKeys(); // every key was read, the parameters' too
}

TEST(ExpressionInitial, RefusesMistakesNamingTheKeyAndPosition) {
  std::string bad = kValid;
  bad.replace(bad.find("1 + amplitude"), 13, "1 + * amplitude");
  std::string m = errorOf(bad);
  EXPECT_EQ(m.rfind("4 case.toml:5: initial.density = ", 0), 0u) << m;
  EXPECT_NE(m.find("\"*\" found at position 4"), std::string::npos) << m;

  bad = kValid;
  bad.replace(bad.find("amplitude = 0.2"), 15, "amp-litude = 0.2");
  m = errorOf(bad);
  EXPECT_EQ(m.rfind("7 ", 0), 0u) << m;
  EXPECT_NE(m.find("initial.parameters.amp-litude"), std::string::npos) << m;

  bad = kValid;
  bad.erase(bad.find("pressure = \"1\""));
  m = errorOf(bad);
  EXPECT_EQ(m.rfind("9 ", 0), 0u) << m;
  EXPECT_NE(m.find("initial.pressure"), std::string::npos) << m;
}

} // namespace
} // namespace tessera::io
