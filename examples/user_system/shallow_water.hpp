#pragma once
// The 2D shallow-water equations, a system of a user's own: depth h and discharges (hu, hv) over a
// bed of height b(x, y), dQ/dt + dF_x/dx + dF_y/dy = S with F_x = (hu, hu^2 + g h^2 / 2, huv) and
// the bed's slope as the source S = (0, -g h db/dx, -g h db/dy). Everything Tessera asks of a
// system (physics/conservation_law.hpp), with the optional members that sharpen HLLE, guard the
// reconstruction and add the source declared, so that a misspelling cannot go unnoticed. The bed
// is flat or one Gaussian bump, b = height exp(-(x - x0)^2 / wx^2 - (y - y0)^2 / wy^2), whose
// slope is known in closed form at any point, as the pointwise source needs.
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
  static constexpr std::array<std::string_view, 4> kOptionalMembers{"waveSpeeds", "admissible",
                                                                    "source", "hasSource"};
  static constexpr std::array<std::string_view, 1> kPositiveVariables{"depth"};

  double g = 9.81;
  // The bed's bump: its height (0: a flat bed, and no source pass), centre and widths.
  double bumpHeight = 0.0;
  tessera::Vec<double, 2> bumpCentre{{0.0, 0.0}}, bumpWidth{{1.0, 1.0}};

  TESSERA_INLINE double bed(const tessera::Vec<double, 2>& x) const {
    double r2 = 0.0;
    for (int a = 0; a < 2; ++a)
      r2 += (x[a] - bumpCentre[a]) * (x[a] - bumpCentre[a]) / (bumpWidth[a] * bumpWidth[a]);
    return bumpHeight * std::exp(-r2);
  }
  TESSERA_INLINE State source(const State& q, const tessera::Vec<double, 2>& x, double) const {
    const double b = bed(x);
    State s{{0.0, 0.0, 0.0}};
    for (int a = 0; a < 2; ++a) // db/dx_a = -2 (x_a - c_a) / w_a^2 b
      s[1 + a] = g * q[0] * 2.0 * (x[a] - bumpCentre[a]) / (bumpWidth[a] * bumpWidth[a]) * b;
    return s;
  }
  bool hasSource() const { return bumpHeight != 0.0; }

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
