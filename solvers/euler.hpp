#pragma once
// The compressible Euler equations of an ideal gas in 2D or 3D.
// Conserved: (rho, rho u_x, rho u_y[, rho u_z], E); primitive: (rho, u_x, u_y[, u_z], p), with
// p = (gamma - 1) (E - rho |u|^2 / 2).
#include <array>
#include <cmath>
#include <string_view>

#include "engine/backend.hpp"
#include "engine/small_vector.hpp"

namespace tessera {

template <int Dim>
struct Euler {
  static constexpr int kDim = Dim;
  static constexpr int kNumVars = Dim + 2;
  static constexpr int kDensity = 0;
  static constexpr int kMomentum = 1; // first momentum component; axis a is kMomentum + a
  static constexpr int kEnergy = Dim + 1;
  using State = Vec<double, kNumVars>;

  double gamma = 1.4;

  TESSERA_INLINE double pressure(const State& q) const {
    double kinetic = 0.0;
    for (int a = 0; a < Dim; ++a)
      kinetic += q[kMomentum + a] * q[kMomentum + a];
    return (gamma - 1.0) * (q[kEnergy] - 0.5 * kinetic / q[kDensity]);
  }

  TESSERA_INLINE double soundSpeed(const State& q) const {
    return std::sqrt(gamma * pressure(q) / q[kDensity]);
  }

  TESSERA_INLINE State flux(const State& q, int axis) const {
    const double un = q[kMomentum + axis] / q[kDensity];
    const double p = pressure(q);
    State f;
    f[kDensity] = q[kMomentum + axis];
    for (int a = 0; a < Dim; ++a)
      f[kMomentum + a] = q[kMomentum + a] * un;
    f[kMomentum + axis] += p;
    f[kEnergy] = (q[kEnergy] + p) * un;
    return f;
  }

  // Eigenvalues along an axis are u_n - c, u_n (Dim times) and u_n + c.
  TESSERA_INLINE double maxEigenvalue(const State& q, int axis) const {
    return std::fabs(q[kMomentum + axis] / q[kDensity]) + soundSpeed(q);
  }

  TESSERA_INLINE State toPrimitive(const State& q) const {
    State w;
    w[kDensity] = q[kDensity];
    for (int a = 0; a < Dim; ++a)
      w[kMomentum + a] = q[kMomentum + a] / q[kDensity];
    w[kEnergy] = pressure(q);
    return w;
  }

  TESSERA_INLINE State toConserved(const State& w) const {
    State q;
    double kinetic = 0.0;
    q[kDensity] = w[kDensity];
    for (int a = 0; a < Dim; ++a) {
      q[kMomentum + a] = w[kDensity] * w[kMomentum + a];
      kinetic += w[kMomentum + a] * w[kMomentum + a];
    }
    q[kEnergy] = w[kEnergy] / (gamma - 1.0) + 0.5 * w[kDensity] * kinetic;
    return q;
  }

  TESSERA_INLINE static constexpr double reflectionParity(int var, int axis) {
    return var == kMomentum + axis ? -1.0 : 1.0;
  }

  static std::array<std::string_view, kNumVars> conservedNames() {
    if constexpr (Dim == 2)
      return {"density", "momentum_x", "momentum_y", "energy"};
    else
      return {"density", "momentum_x", "momentum_y", "momentum_z", "energy"};
  }
  static std::array<std::string_view, kNumVars> primitiveNames() {
    if constexpr (Dim == 2)
      return {"density", "velocity_x", "velocity_y", "pressure"};
    else
      return {"density", "velocity_x", "velocity_y", "velocity_z", "pressure"};
  }
};

} // namespace tessera
