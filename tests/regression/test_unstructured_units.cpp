// The unstructured solver does not depend on the mesh's length unit: the transonic bump channel
// (Mach 0.85, a shock on the bump, so that Venkatakrishnan's limiter is at work) on tetrahedra,
// once in metres and once scaled by 1000 (millimetres) with the reference length scaled with it,
// takes the same implicit iterations: the relative residuals of every iteration agree to 1e-11,
// and the floor's force, divided by the square of the scale, to 1e-11 relative (measured on
// 2026-11-28: 1.4e-14 over 40 iterations).
//
// Why it holds: every length enters as a ratio. Gradients scale as 1/L and the offsets they
// multiply as L; fluxes through faces and cell volumes as L^2 and L^3, and so do the matrix's
// blocks and its pseudo-time diagonal V / dtau = sum |S| lambda / CFL, so dQ is the same;
// Venkatakrishnan's threshold (K h / L_ref)^3 is a pure number. The bound leaves room for the
// round-off of lengths like 0.1 * 1000, which are not the exact thousandfold of 0.1.
//
// The unit is not a no-op: the same millimetre mesh with the reference length left at 1 runs a
// different history (the threshold 10^9 times larger switches the limiter off).
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <vector>

#include "engine/linalg/precision.hpp"
#include "solvers/unstructured/unstructured_implicit.hpp"
#include "tests/support/bump_channel.hpp"

namespace tessera {
namespace {

const Euler<3> kPde{};
constexpr int kIterations = 40;

Euler<3>::State transonic() {
  return kPde.toConserved({{1.4, 0.85, 0.0, 0.0, 1.0}});
}

struct History {
  std::vector<double> relative;
  double floorForce = 0.0; // x-force on the floor (tag 3)
};

History iterate(double scale, double referenceLength) {
  unstructured::MeshDescription d = [] {
    unstructured::BoxMeshSpec spec;
    spec.lo = {0.0, 0.0, 0.0};
    spec.hi = {3.0, 1.0, 0.2};
    spec.nx = 24;
    spec.ny = 8;
    spec.nz = 1;
    spec.cells = unstructured::BoxCells::Tetrahedra;
    unstructured::MeshDescription description = unstructured::boxMesh(spec);
    unstructured::applyBump(description, {.height = 0.1, .from = 1.0, .to = 2.0}, 0.0, 1.0);
    return description;
  }();
  for (unstructured::Point& x : d.nodes)
    for (double& c : x)
      c *= scale;
  const ColorContiguousMesh colored = colorContiguousMesh(unstructured::buildMesh(d));
  UnstructuredBoundary boundary = test::bumpChannelBoundary(kPde);
  boundary.farfield = transonic();
  UnstructuredScheme scheme;
  scheme.referenceLength = referenceLength;
  UnstructuredEuler solver(kPde, colored.mesh, boundary, 0.9, MemorySpace::Host, scheme);
  solver.initialise([](const Vec<double, 3>&) { return transonic(); });
  ImplicitSettings settings;
  settings.residualDrop = 0.0;
  settings.jacobian = JacobianFlux::Roe;
  settings.cflMax = 100.0;
  UnstructuredImplicit<linalg::DoublePrecision> implicit(solver, colored.pattern, settings);
  History h;
  for (int n = 0; n < kIterations; ++n) {
    const PseudoTimeStep s = implicit.measure();
    h.relative.push_back(s.relativeResidual);
    implicit.step(s.cfl);
  }
  h.floorForce = solver.wallForces({0.0, 0.0, 0.0})[0].force[0] / (scale * scale);
  return h;
}

double largestRelativeDifference(const History& a, const History& b) {
  double worst = std::fabs(a.floorForce - b.floorForce) / std::fabs(b.floorForce);
  for (std::size_t n = 0; n < b.relative.size(); ++n)
    worst = std::max(worst, std::fabs(a.relative[n] - b.relative[n]) / b.relative[n]);
  return worst;
}

TEST(UnstructuredUnits, MetresAndMillimetresRunTheSameIterations) {
  const History metres = iterate(1.0, 1.0);
  const History millimetres = iterate(1000.0, 1000.0);
  const History unscaledThreshold = iterate(1000.0, 1.0);
  const double same = largestRelativeDifference(millimetres, metres);
  const double other = largestRelativeDifference(unscaledThreshold, metres);
  std::printf("after %d iterations (relative residual %.3e): millimetres differ by %.3g, with the "
              "threshold in millimetres by %.3g\n",
              kIterations, metres.relative.back(), same, other);
  EXPECT_LE(same, 1e-11);
  EXPECT_GT(other, 1e-3);
}

} // namespace
} // namespace tessera
