#pragma once
// The compressible Euler equations of an ideal gas in 2D or 3D.
// Conserved: (rho, rho u_x, rho u_y[, rho u_z], E); primitive: (rho, u_x, u_y[, u_z], p), with
// p = (gamma - 1) (E - rho |u|^2 / 2).
#include <array>
#include <cmath>
#include <string_view>

#include "engine/arithmetic.hpp"
#include "engine/backend.hpp"
#include "engine/small_vector.hpp"
#include "physics/axis_flux.hpp"
#include "physics/wave_speeds.hpp"

namespace tessera {

template <int Dim>
struct Euler {
  static constexpr const char* kName = "euler";
  static constexpr int kDim = Dim;
  static constexpr int kNumVars = Dim + 2;
  static constexpr int kDensity = 0;
  static constexpr int kMomentum = 1; // first momentum component; axis a is kMomentum + a
  static constexpr int kEnergy = Dim + 1;
  using State = Vec<double, kNumVars>;
  // Checked at compile time against what is found (physics/optional_members.hpp).
  static constexpr std::array<std::string_view, 7> kOptionalMembers{
      "waveSpeeds", "admissible", "maxEigenvalueAllAxes", "axisFlux", "axisFluxes",
      "source",     "hasSource"};
  // The primitive variables that must stay positive (physics/state_check.hpp).
  static constexpr std::array<std::string_view, 2> kPositiveVariables{"density", "pressure"};

  double gamma = 1.4;
  // A uniform gravitational acceleration (physics.gravity): the source rho g in the momentum and
  // rho u.g in the energy. Zero by default, and then no source pass runs (hasSource).
  Vec<double, Dim> gravity{};

  TESSERA_INLINE State source(const State& q, const Vec<double, Dim>&, double) const {
    State s;
    s[kDensity] = 0.0;
    s[kEnergy] = 0.0;
    for (int a = 0; a < Dim; ++a) {
      s[kMomentum + a] = q[kDensity] * gravity[a];
      s[kEnergy] += q[kMomentum + a] * gravity[a];
    }
    return s;
  }
  bool hasSource() const {
    for (int a = 0; a < Dim; ++a)
      if (gravity[a] != 0.0)
        return true;
    return false;
  }

  // One division per state: everything else multiplies by 1 / rho (a division costs as much as
  // the rest of the flux together on vector units). Divisions and roots are engine/arithmetic's,
  // branch-free on the device.
  TESSERA_INLINE double pressure(const State& q) const {
    return pressure(q, reciprocal(q[kDensity]));
  }
  TESSERA_INLINE double pressure(const State& q, double invRho) const {
    double kinetic = 0.0;
    for (int a = 0; a < Dim; ++a)
      kinetic += q[kMomentum + a] * q[kMomentum + a];
    return (gamma - 1.0) * (q[kEnergy] - 0.5 * kinetic * invRho);
  }

  TESSERA_INLINE double soundSpeed(const State& q) const {
    const double invRho = reciprocal(q[kDensity]);
    return squareRoot(gamma * pressure(q, invRho) * invRho);
  }

  TESSERA_INLINE State flux(const State& q, int axis) const {
    const double invRho = reciprocal(q[kDensity]);
    return flux(q, axis, invRho, pressure(q, invRho));
  }

  // Eigenvalues along an axis are u_n - c, u_n (Dim times) and u_n + c.
  TESSERA_INLINE double maxEigenvalue(const State& q, int axis) const {
    const double invRho = reciprocal(q[kDensity]);
    return std::fabs(q[kMomentum + axis] * invRho) +
           squareRoot(gamma * pressure(q, invRho) * invRho);
  }

  // Flux and largest eigenvalue together (physics/axis_flux.hpp), along one axis and along every
  // axis: one division, one pressure and one square root for all, where separate calls take one
  // each per flux and per eigenvalue (the device's division and root are not shared between
  // calls by the compiler). The same operations in the same order as flux and maxEigenvalue.
  TESSERA_INLINE AxisFlux<State> axisFlux(const State& q, int axis) const {
    const double invRho = reciprocal(q[kDensity]), p = pressure(q, invRho);
    const double c = squareRoot(gamma * p * invRho);
    return {flux(q, axis, invRho, p), std::fabs(q[kMomentum + axis] * invRho) + c};
  }
  TESSERA_INLINE Vec<AxisFlux<State>, Dim> axisFluxes(const State& q) const {
    const double invRho = reciprocal(q[kDensity]), p = pressure(q, invRho);
    const double c = squareRoot(gamma * p * invRho);
    Vec<AxisFlux<State>, Dim> all;
    for (int a = 0; a < Dim; ++a)
      all[a] = {flux(q, a, invRho, p), std::fabs(q[kMomentum + a] * invRho) + c};
    return all;
  }

  // The slowest and fastest eigenvalues along an axis, u_n - c and u_n + c (the HLL family's
  // wave speeds, numerics/flux/wave_speeds.hpp).
  TESSERA_INLINE WaveSpeeds waveSpeeds(const State& q, int axis) const {
    const double invRho = reciprocal(q[kDensity]);
    const double un = q[kMomentum + axis] * invRho;
    const double c = squareRoot(gamma * pressure(q, invRho) * invRho);
    return {un - c, un + c};
  }

  // Whether a primitive state is a gas: density and pressure above zero (reconstruction falls
  // back to first order where a face state is not, numerics/reconstruct/cell_faces.hpp).
  TESSERA_INLINE bool admissible(const State& w) const {
    return w[kDensity] > 0.0 && w[kEnergy] > 0.0;
  }

  // The largest |eigenvalue| along a unit normal n, |u.n| + c: the Jacobian of the flux along n,
  // sum_a n_a dF_a/dQ, has the eigenvalues u.n - c, u.n (Dim times) and u.n + c. Unstructured
  // faces point anywhere; along an axis this is maxEigenvalue.
  TESSERA_INLINE double maxEigenvalueAlong(const State& q, const Vec<double, Dim>& n) const {
    const double invRho = reciprocal(q[kDensity]);
    double un = 0.0;
    for (int a = 0; a < Dim; ++a)
      un += q[kMomentum + a] * n[a];
    return std::fabs(un * invRho) + squareRoot(gamma * pressure(q, invRho) * invRho);
  }

  // max over axes of maxEigenvalue, with one division and one square root instead of Dim each.
  TESSERA_INLINE double maxEigenvalueAllAxes(const State& q) const {
    const double invRho = reciprocal(q[kDensity]);
    double un = 0.0;
    for (int a = 0; a < Dim; ++a) {
      const double u = std::fabs(q[kMomentum + a] * invRho);
      un = u > un ? u : un;
    }
    return un + squareRoot(gamma * pressure(q, invRho) * invRho);
  }

  TESSERA_INLINE State toPrimitive(const State& q) const {
    State w;
    const double invRho = reciprocal(q[kDensity]);
    w[kDensity] = q[kDensity];
    for (int a = 0; a < Dim; ++a)
      w[kMomentum + a] = q[kMomentum + a] * invRho;
    w[kEnergy] = pressure(q, invRho);
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
    // A product, not a quotient: 1 / (gamma - 1) is the same for every state of a loop.
    q[kEnergy] = w[kEnergy] * reciprocal(gamma - 1.0) + 0.5 * w[kDensity] * kinetic;
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

private:
  TESSERA_INLINE State flux(const State& q, int axis, double invRho, double p) const {
    const double un = q[kMomentum + axis] * invRho;
    State f;
    f[kDensity] = q[kMomentum + axis];
    for (int a = 0; a < Dim; ++a)
      f[kMomentum + a] = q[kMomentum + a] * un;
    f[kMomentum + axis] += p;
    f[kEnergy] = (q[kEnergy] + p) * un;
    return f;
  }
};

} // namespace tessera
