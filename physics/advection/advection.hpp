#pragma once
// Linear advection of one scalar with a constant velocity: dq/dt + div(a q) = 0.
#include <array>
#include <cmath>
#include <string_view>

#include "engine/backend.hpp"
#include "engine/small_vector.hpp"
#include "physics/wave_speeds.hpp"

namespace tessera {

template <int Dim>
struct Advection {
  static constexpr const char* kName = "advection";
  static constexpr int kDim = Dim;
  static constexpr int kNumVars = 1;
  using State = Vec<double, 1>;
  static constexpr std::array<std::string_view, 1> kOptionalMembers{"waveSpeeds"};

  Vec<double, Dim> velocity = Vec<double, Dim>::filled(1.0);

  TESSERA_INLINE State flux(const State& q, int axis) const { return {{velocity[axis] * q[0]}}; }
  TESSERA_INLINE double maxEigenvalue(const State&, int axis) const {
    return std::fabs(velocity[axis]);
  }
  // Every wave moves with the velocity.
  TESSERA_INLINE WaveSpeeds waveSpeeds(const State&, int axis) const {
    return {velocity[axis], velocity[axis]};
  }
  TESSERA_INLINE State toPrimitive(const State& q) const { return q; }
  TESSERA_INLINE State toConserved(const State& w) const { return w; }
  TESSERA_INLINE static constexpr double reflectionParity(int, int) { return 1.0; }

  static std::array<std::string_view, 1> conservedNames() { return {"scalar"}; }
  static std::array<std::string_view, 1> primitiveNames() { return {"scalar"}; }
};

} // namespace tessera
