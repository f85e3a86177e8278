#pragma once
// The 2D shallow-water equations, a system of a user's own: depth h and discharges (hu, hv) over a
// flat bed, dQ/dt + dF_x/dx + dF_y/dy = 0 with F_x = (hu, hu^2 + g h^2 / 2, huv). Everything
// Tessera asks of a system (physics/conservation_law.hpp), with the optional members that sharpen
// HLLE and guard the reconstruction declared so that a misspelling cannot go unnoticed.
#include <array>
#include <cmath>
#include <string_view>

#include "engine/backend.hpp"
#include "engine/small_vector.hpp"
#include "physics/wave_speeds.hpp"

template <int Dim>
struct ShallowWater {
  static_assert(Dim == 2, "the shallow-water equations here are two-dimensional");
  static constexpr const char* kName = "shallow_water";
  static constexpr int kDim = 2;
  static constexpr int kNumVars = 3;
  using State = tessera::Vec<double, 3>;
  static constexpr std::array<std::string_view, 2> kOptionalMembers{"waveSpeeds", "admissible"};
  static constexpr std::array<std::string_view, 1> kPositiveVariables{"depth"};

  double g = 9.81;

  TESSERA_INLINE State flux(const State& q, int axis) const {
    const double u = q[1 + axis] / q[0];
    State f{{q[1 + axis], q[1] * u, q[2] * u}};
    f[1 + axis] += 0.5 * g * q[0] * q[0];
    return f;
  }
  TESSERA_INLINE double maxEigenvalue(const State& q, int axis) const {
    return std::fabs(q[1 + axis] / q[0]) + std::sqrt(g * q[0]);
  }
  TESSERA_INLINE tessera::WaveSpeeds waveSpeeds(const State& q, int axis) const {
    const double u = q[1 + axis] / q[0], c = std::sqrt(g * q[0]);
    return {u - c, u + c};
  }
  TESSERA_INLINE bool admissible(const State& w) const { return w[0] > 0.0; }
  TESSERA_INLINE State toPrimitive(const State& q) const {
    return {{q[0], q[1] / q[0], q[2] / q[0]}};
  }
  TESSERA_INLINE State toConserved(const State& w) const {
    return {{w[0], w[0] * w[1], w[0] * w[2]}};
  }
  TESSERA_INLINE static constexpr double reflectionParity(int var, int axis) {
    return var == 1 + axis ? -1.0 : 1.0;
  }
  static std::array<std::string_view, 3> conservedNames() {
    return {"depth", "discharge_x", "discharge_y"};
  }
  static std::array<std::string_view, 3> primitiveNames() {
    return {"depth", "velocity_x", "velocity_y"};
  }
};
