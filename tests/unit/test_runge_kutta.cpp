// The Runge-Kutta stage tables (numerics/time/runge_kutta.hpp) on ODEs with known solutions,
// applied exactly as the fused update applies them: the observed order of each method, and the
// stage times (a non-autonomous right-hand side).
#include <cmath>
#include <gtest/gtest.h>

#include "numerics/time/runge_kutta.hpp"

namespace tessera {
namespace {

// Integrates y' = f(t, y) from y(0) = y0 to t = 1 in `steps` steps.
template <class F>
double integrate(const RungeKutta& rk, F f, double y0, int steps) {
  const double dt = 1.0 / steps;
  double y = y0;
  for (int n = 0; n < steps; ++n) {
    const double t = n * dt;
    double stage = y;
    for (int s = 0; s < rk.stages; ++s) {
      const RungeKuttaStage& w = rk.stage[s];
      stage = w.keep * y + w.advance * (stage + dt * f(t + w.time * dt, stage));
    }
    y = stage;
  }
  return y;
}

template <class F>
double observedOrder(const RungeKutta& rk, F f, double y0, double exact) {
  const double e1 = std::fabs(integrate(rk, f, y0, 40) - exact);
  const double e2 = std::fabs(integrate(rk, f, y0, 80) - exact);
  return std::log2(e1 / e2);
}

TEST(RungeKutta, StagesAreConvexCombinations) {
  for (const RungeKutta& rk : kRungeKuttaMethods)
    for (int s = 0; s < rk.stages; ++s) {
      EXPECT_DOUBLE_EQ(rk.stage[s].keep + rk.stage[s].advance, 1.0) << rk.name;
      EXPECT_GE(rk.stage[s].keep, 0.0) << rk.name;
    }
}

TEST(RungeKutta, EachMethodReachesItsOrder) {
  // y' = -y^2, y(0) = 1: y = 1 / (1 + t). y' = cos(t) y: y = exp(sin t), whose right-hand side
  // depends on t, so wrong stage times would cost the order.
  for (const RungeKutta& rk : kRungeKuttaMethods) {
    const double nonlinear = observedOrder(
        rk, [](double, double y) { return -y * y; }, 1.0, 0.5);
    const double timed = observedOrder(
        rk, [](double t, double y) { return std::cos(t) * y; }, 1.0, std::exp(std::sin(1.0)));
    EXPECT_NEAR(nonlinear, rk.order, 0.1) << rk.name;
    EXPECT_NEAR(timed, rk.order, 0.1) << rk.name;
  }
}

} // namespace
} // namespace tessera
