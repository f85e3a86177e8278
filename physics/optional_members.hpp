#pragma once
// The optional members of a system (physics/conservation_law.hpp), each found by a concept here
// and only here: the kernels choose by these concepts (numerics/, solvers/), and `tessera info`
// lists what a system provides by the same ones, so what it says is what runs. A member whose
// name is misspelled or whose signature differs is not found and the fallback runs; a system
// that lists the members it means to provide in kOptionalMembers gets a compile-time error
// instead (declaredOptionalMembersProvided, which PatchSolver asserts).
#include <algorithm>
#include <array>
#include <concepts>
#include <string_view>

#include "engine/small_vector.hpp"
#include "physics/axis_flux.hpp"
#include "physics/conservation_law.hpp"
#include "physics/wave_speeds.hpp"

namespace tessera {

// The slowest and fastest signal speeds along an axis, for HLLE (else -+ maxEigenvalue).
template <class P>
concept ProvidesWaveSpeeds = requires(const P& pde, const typename P::State& q, int axis) {
  { pde.waveSpeeds(q, axis) } -> std::same_as<WaveSpeeds>;
};

// Whether reconstructed primitive face values are physical (else always): a face whose values are
// not falls back to first order.
template <class P>
concept ProvidesAdmissible = requires(const P& pde, const typename P::State& w) {
  { pde.admissible(w) } -> std::same_as<bool>;
};

// The largest |eigenvalue| over every axis at once, for the time step (else Dim maxEigenvalue).
template <class P>
concept ProvidesMaxEigenvalueAllAxes = requires(const P& pde, const typename P::State& q) {
  { pde.maxEigenvalueAllAxes(q) } -> std::convertible_to<double>;
};

// A state's flux with its largest eigenvalue along one axis (else flux and maxEigenvalue).
template <class P>
concept ProvidesAxisFlux = requires(const P& pde, const typename P::State& q, int axis) {
  { pde.axisFlux(q, axis) } -> std::same_as<AxisFlux<typename P::State>>;
};

// The same along every axis at once (else axisFlux per axis).
template <class P>
concept ProvidesAxisFluxes = requires(const P& pde, const typename P::State& q) {
  { pde.axisFluxes(q) } -> std::same_as<Vec<AxisFlux<typename P::State>, P::kDim>>;
};

// Source terms: dQ/dt + sum_a dF_a/dx_a = source(q, x, t), added in every stage (else none).
template <class P>
concept ProvidesSource = requires(const P& pde, const typename P::State& q,
                                  const Vec<double, P::kDim>& x, double t) {
  { pde.source(q, x, t) } -> std::same_as<typename P::State>;
};

// Whether this instance's source is on (else always, where the system has one): a system whose
// source is a run's choice (Euler's gravity) runs no source pass where it is off.
template <class P>
concept ProvidesHasSource = requires(const P& pde) {
  { pde.hasSource() } -> std::same_as<bool>;
};

template <class P>
bool sourceActive(const P& pde) {
  if constexpr (!ProvidesSource<P>)
    return false;
  else if constexpr (ProvidesHasSource<P>)
    return pde.hasSource();
  else
    return true;
}

// One optional member: its name, what it serves, what runs without it, and whether P has it.
struct OptionalMember {
  std::string_view name, serves, fallback;
  bool provided;
};

template <class P>
constexpr std::array<OptionalMember, 7> optionalMembers() {
  return {{
      {"waveSpeeds", "HLLE's signal speeds", "-+ maxEigenvalue (as diffusive as Rusanov)",
       ProvidesWaveSpeeds<P>},
      {"admissible", "the reconstruction's check of its face values", "every face value taken",
       ProvidesAdmissible<P>},
      {"maxEigenvalueAllAxes", "the time step", "maxEigenvalue along each axis",
       ProvidesMaxEigenvalueAllAxes<P>},
      {"axisFlux", "the Rusanov flux", "flux and maxEigenvalue", ProvidesAxisFlux<P>},
      {"axisFluxes", "the Rusanov flux on every axis", "axisFlux along each axis",
       ProvidesAxisFluxes<P>},
      {"source", "source terms, added in every stage", "no source terms", ProvidesSource<P>},
      {"hasSource", "whether a run's source is on", "the source always on", ProvidesHasSource<P>},
  }};
}

// True unless P lists in kOptionalMembers a name that is not an optional member or that P does
// not provide with the signature above.
template <class P>
constexpr bool declaredOptionalMembersProvided() {
  if constexpr (requires { P::kOptionalMembers; }) {
    const auto members = optionalMembers<P>();
    return std::ranges::all_of(P::kOptionalMembers, [&](std::string_view declared) {
      return std::ranges::any_of(
          members, [&](const OptionalMember& m) { return m.name == declared && m.provided; });
    });
  } else {
    return true;
  }
}

} // namespace tessera
