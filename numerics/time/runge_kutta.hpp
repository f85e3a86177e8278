#pragma once
// Explicit strong-stability-preserving Runge-Kutta methods as data (Shu & Osher 1988; Gottlieb,
// Shu & Tadmor 2001), in the form the fused update computes: stage s takes the state Q^(s)
// (Q^(0) = Q^n) to
//   Q^(s+1) = keep_s Q^n + advance_s (Q^(s) + dt L(Q^(s))),   keep_s + advance_s = 1,
// at stage time t^n + time_s dt; Q^(stages) is Q^(n+1). Each stage is a convex combination of
// forward-Euler steps, so whatever a forward-Euler step preserves under a CFL number (positivity,
// the TVD property, conservation across refinement levels when each stage refluxes with
// advance_s dt) every stage preserves too.
namespace tessera {

struct RungeKuttaStage {
  double keep;    // weight of Q^n
  double advance; // weight of the forward-Euler step from Q^(s)
  double time;    // the stage's time as a fraction of dt
};

struct RungeKutta {
  const char* name;
  int stages;
  int order;
  RungeKuttaStage stage[3];
};

inline constexpr RungeKutta kForwardEuler{"euler", 1, 1, {{0.0, 1.0, 0.0}}};
// Heun's method.
inline constexpr RungeKutta kSspRk2{"ssp_rk2", 2, 2, {{0.0, 1.0, 0.0}, {0.5, 0.5, 1.0}}};
inline constexpr RungeKutta kSspRk3{
    "ssp_rk3", 3, 3, {{0.0, 1.0, 0.0}, {0.75, 0.25, 1.0}, {1.0 / 3.0, 2.0 / 3.0, 0.5}}};

inline constexpr RungeKutta kRungeKuttaMethods[] = {kForwardEuler, kSspRk2, kSspRk3};

} // namespace tessera
