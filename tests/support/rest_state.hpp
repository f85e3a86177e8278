#pragma once
// What the tests of a state that must not change share (tests/regression/
// test_unstructured_rest.cpp, tests/gpu/test_unstructured_device.cpp): irregular meshes of each
// shape, a state at rest and a uniform flow, and how far a run of either solver takes a cell from
// its initial state.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/linalg/precision.hpp"
#include "engine/unstructured/box_mesh.hpp"
#include "solvers/unphysical_state.hpp"
#include "solvers/unstructured/unstructured_implicit.hpp"
#include "solvers/unstructured/unstructured_scheme.hpp"

namespace tessera::test {

// A box of the given shape, nodes jittered by 0.15 of a cell, cells and nodes shuffled.
inline unstructured::Mesh irregularBox(unstructured::BoxCells cells, int n) {
  unstructured::BoxMeshSpec spec;
  spec.lo = {-0.5, 0.0, 1.0};
  spec.hi = {0.5, 0.8, 2.2};
  spec.nx = n;
  spec.ny = n;
  spec.nz = cells == unstructured::BoxCells::Mixed ? std::max(n, 4) : n;
  spec.cells = cells;
  spec.shuffle = true;
  spec.seed = 29;
  spec.jitter = 0.15;
  return unstructured::buildMesh(unstructured::boxMesh(spec));
}

struct NamedMesh {
  std::string name;
  unstructured::Mesh mesh;
};

// The meshes both suites run: a few hundred cells each, enough for the face-neighbour gradient to
// blow up on the tetrahedra, small enough for 2,000 steps of every scheme and mesh in CI.
inline std::vector<NamedMesh> irregularMeshes() {
  using unstructured::BoxCells;
  return {{"tetrahedra", irregularBox(BoxCells::Tetrahedra, 3)},
          {"pyramids", irregularBox(BoxCells::Pyramids, 3)},
          {"mixed", irregularBox(BoxCells::Mixed, 3)}};
}

inline constexpr UnstructuredLimiter kEveryLimiter[] = {UnstructuredLimiter::Venkatakrishnan,
                                                        UnstructuredLimiter::BarthJespersen,
                                                        UnstructuredLimiter::None};

// MUSCL with the default (auto) gradient and Roe's flux, and the given limiter.
inline UnstructuredScheme withLimiter(UnstructuredLimiter limiter) {
  UnstructuredScheme s;
  s.limiter = limiter;
  return s;
}

inline UnstructuredBoundary allRound(FaceKind kind, const Euler<3>::State& farfield) {
  UnstructuredBoundary b;
  for (int tag = 1; tag <= 6; ++tag)
    b.kindOfTag[tag] = kind;
  b.farfield = farfield;
  return b;
}

// Primitive states: at rest (c = 1), and an oblique flow.
inline const Euler<3>::State kRest{{1.0, 0.0, 0.0, 0.0, 1.0 / 1.4}};
inline const Euler<3>::State kUniformFlow{{1.2, 0.7, -0.3, 0.4, 1.0}};

// Each state with the boundary that keeps it: slip walls round the gas at rest, the far field
// round the uniform flow.
struct NamedState {
  std::string name;
  Euler<3>::State w;
  UnstructuredBoundary boundary;
};

inline std::vector<NamedState> restAndUniformFlow() {
  const Euler<3> pde;
  return {
      {"at rest", kRest, allRound(FaceKind::SlipWall, pde.toConserved(kRest))},
      {"uniform flow", kUniformFlow, allRound(FaceKind::Farfield, pde.toConserved(kUniformFlow))}};
}

// One case of the rest and uniform-flow matrix: a mesh, a state with its boundary, a scheme.
struct RestCase {
  const NamedMesh& mesh;
  const NamedState& state;
  UnstructuredScheme scheme;
  // "at rest, tetrahedra, muscl (...) + roe", for messages.
  std::string name() const { return state.name + ", " + mesh.name + ", " + describe(scheme); }
};

// Calls check(RestCase) for every mesh of irregularMeshes(), state of restAndUniformFlow() and
// limiter of kEveryLimiter.
template <class Check>
void forEachRestCase(Check&& check) {
  const std::vector<NamedMesh> meshes = irregularMeshes();
  const std::vector<NamedState> states = restAndUniformFlow();
  for (const NamedMesh& m : meshes)
    for (const NamedState& state : states)
      for (UnstructuredLimiter limiter : kEveryLimiter)
        check(RestCase{m, state, withLimiter(limiter)});
}

// The largest departure of any cell from the primitive state w0: density and pressure relative
// to w0's, velocity over w0's sound speed; infinite for a state that is no gas.
inline double departure(const UnstructuredEuler& solver, const Euler<3>::State& w0) {
  const Euler<3>& pde = solver.pde();
  const double c0 = std::sqrt(pde.gamma * w0[4] / w0[0]);
  const std::vector<double>& q = solver.hostState();
  double worst = 0.0;
  for (std::size_t c = 0; c < q.size() / 5; ++c) {
    Euler<3>::State s;
    for (int v = 0; v < 5; ++v)
      s[v] = q[5 * c + std::size_t(v)];
    const Euler<3>::State w = pde.toPrimitive(s);
    if (!std::isfinite(w[0]) || !std::isfinite(w[4]))
      return INFINITY;
    worst = std::max({worst, std::fabs(w[0] - w0[0]) / w0[0], std::fabs(w[4] - w0[4]) / w0[4]});
    for (int a = 1; a <= 3; ++a)
      worst = std::max(worst, std::fabs(w[a] - w0[a]) / c0);
  }
  return worst;
}

// After explicit SSP-RK2 steps at CFL 0.5 (the tessera program's at second order); an
// unphysical state on the way counts as an infinite departure.
inline double explicitDeparture(const unstructured::Mesh& mesh,
                                const UnstructuredBoundary& boundary,
                                const UnstructuredScheme& scheme, const Euler<3>::State& w0,
                                int steps, MemorySpace space = MemorySpace::Host) {
  const Euler<3> pde;
  UnstructuredEuler solver(pde, mesh, boundary, 0.5, space, scheme, kSspRk2);
  // Race-free: on the host several times faster than atomics at a thread or two.
  solver.setStrategy(atomics::Strategy::Gather);
  solver.initialise([&](const Vec<double, 3>&) { return pde.toConserved(w0); });
  try {
    for (int n = 0; n < steps; ++n)
      solver.advance(solver.stableDt());
  } catch (const UnphysicalStateError&) {
    return INFINITY;
  }
  return departure(solver, w0);
}

// After backward-Euler iterations (Roe's Jacobian, mixed precision, CFL up to 100), every one of
// them taken: a gas at rest has a density residual of exactly 0 (its mass fluxes are 0), which
// would count as converged at once. From a steady state the residual is round-off, so the SER
// ramp runs the CFL number up to its maximum at once: the largest steps there are.
inline double implicitDeparture(const unstructured::Mesh& mesh,
                                const UnstructuredBoundary& boundary,
                                const UnstructuredScheme& scheme, const Euler<3>::State& w0,
                                int iterations, MemorySpace space = MemorySpace::Host,
                                LinearSolver linear = LinearSolver::Sweeps) {
  const Euler<3> pde;
  const ColorContiguousMesh colored = colorContiguousMesh(mesh);
  UnstructuredEuler solver(pde, colored.mesh, boundary, 0.5, space, scheme);
  solver.setStrategy(atomics::Strategy::Gather);
  solver.initialise([&](const Vec<double, 3>&) { return pde.toConserved(w0); });
  ImplicitSettings settings;
  settings.jacobian = JacobianFlux::Roe;
  settings.linearSolver = linear;
  // The sweeps' second-order ceiling; Newton-Krylov's own (tools/tessera's defaults).
  settings.cflMax = linear == LinearSolver::Gmres ? 1e5 : 100.0;
  UnstructuredImplicit<linalg::MixedPrecision> implicit(solver, colored.pattern, settings);
  try {
    for (int n = 0; n < iterations; ++n)
      implicit.step(implicit.measure().cfl);
  } catch (const UnphysicalStateError&) {
    return INFINITY;
  }
  return departure(solver, w0);
}

} // namespace tessera::test
