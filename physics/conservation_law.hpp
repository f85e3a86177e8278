#pragma once
// The PDE concept: what a hyperbolic system of conservation laws dQ/dt + sum_a dF_a(Q)/dx_a = 0
// must provide to run on Tessera's patches. Everything pointwise is a TESSERA_HOST_DEVICE member,
// written once and used by the host and the device back ends alike.
#include <array>
#include <concepts>
#include <string_view>

#include "engine/small_vector.hpp"

namespace tessera {

template <class P>
concept ConservationLaw = requires(const P& pde, const typename P::State& q, int axis, int var) {
  requires P::kDim == 2 || P::kDim == 3;
  requires P::kNumVars >= 1;
  requires std::same_as<typename P::State, Vec<double, P::kNumVars>>;
  // Physical flux along an axis and the largest |eigenvalue| of its Jacobian.
  { pde.flux(q, axis) } -> std::same_as<typename P::State>;
  { pde.maxEigenvalue(q, axis) } -> std::convertible_to<double>;
  // Primitive variables (for output and initial data) and back.
  { pde.toPrimitive(q) } -> std::same_as<typename P::State>;
  { pde.toConserved(q) } -> std::same_as<typename P::State>;
  // -1 for components that change sign under reflection across a plane normal to `axis`.
  { P::reflectionParity(var, axis) } -> std::convertible_to<double>;
  { P::conservedNames() } -> std::same_as<std::array<std::string_view, P::kNumVars>>;
  { P::primitiveNames() } -> std::same_as<std::array<std::string_view, P::kNumVars>>;
};

} // namespace tessera
