// Roe's flux (numerics/flux/roe.hpp) and every Riemann-solver policy through an arbitrary face
// (numerics/flux/normal_flux.hpp), against references that do not come from them: the physical
// flux, Rankine-Hugoniot shocks (where Roe's flux is the exact Godunov flux), the exact Riemann
// solver of tests/support (for small jumps, and for a transonic rarefaction, where the entropy
// fix must stop Roe's flux from keeping an expansion shock), and the Euler equations' rotational
// invariance.
#include <cmath>
#include <gtest/gtest.h>

#include "numerics/flux/hllc.hpp"
#include "numerics/flux/hlle.hpp"
#include "numerics/flux/normal_flux.hpp"
#include "numerics/flux/roe.hpp"
#include "numerics/flux/rusanov.hpp"
#include "physics/euler/euler.hpp"
#include "tests/support/exact_riemann.hpp"

namespace tessera {
namespace {

using State = Euler<3>::State;
const Euler<3> kPde{};

double largestDifference(const State& a, const State& b) {
  double d = 0.0;
  for (int v = 0; v < 5; ++v)
    d = std::max(d, std::fabs(a[v] - b[v]));
  return d;
}

// The 1D state (rho, u, p) moving along x, with tangential velocities (0.3, -0.2).
State along(const test::Primitive1D& w) {
  return kPde.toConserved({{w.rho, w.u, 0.3, -0.2, w.p}});
}

// The Godunov flux along x: the physical flux of the exact solution at x / t = 0 (the tangential
// velocities are carried by the contact: the left one where u* > 0).
State godunovFlux(const test::Primitive1D& l, const test::Primitive1D& r) {
  const test::ExactRiemannSolver exact(l, r, kPde.gamma);
  return kPde.flux(along(exact.sample(0.0)), 0);
}

TEST(RoeFlux, IsConsistentAndMirrorSymmetric) {
  const State q = kPde.toConserved({{0.8, 0.3, -1.2, 0.5, 2.4}});
  for (int axis = 0; axis < 3; ++axis)
    EXPECT_LT(largestDifference(Roe::flux(kPde, q, q, axis), kPde.flux(q, axis)), 1e-14);
  // Swapping the sides and negating the normal velocity negates every flux but the normal
  // momentum's.
  const State qL = kPde.toConserved({{1.0, 0.7, 0.2, 0.1, 1.0}});
  const State qR = kPde.toConserved({{0.3, -0.1, 0.4, -0.3, 0.2}});
  const auto mirror = [](State s) {
    s[1] = -s[1];
    return s;
  };
  const State F = Roe::flux(kPde, qL, qR, 0), G = Roe::flux(kPde, mirror(qR), mirror(qL), 0);
  for (int v = 0; v < 5; ++v)
    EXPECT_NEAR(G[v], v == 1 ? F[v] : -F[v], 1e-15 * (1.0 + std::fabs(F[v]))) << v;
}

// A shock of Mach number M moving right into gas at rest: the states on both sides satisfy the
// Rankine-Hugoniot conditions (Toro 2009, section 3.1.3), so their jump is an eigenvector of
// Roe's matrix and the flux is the upwind one, f(q_L): the exact Godunov flux.
TEST(RoeFlux, IsExactForAMovingShock) {
  const double g = kPde.gamma;
  for (double mach : {1.2, 2.0, 5.0}) {
    const test::Primitive1D ahead{1.0, 0.0, 1.0};
    const double c = std::sqrt(g * ahead.p / ahead.rho), speed = mach * c;
    const double m2 = mach * mach;
    const double rho = ahead.rho * (g + 1.0) * m2 / ((g - 1.0) * m2 + 2.0);
    const double p = ahead.p * (2.0 * g * m2 - (g - 1.0)) / (g + 1.0);
    const double u = speed * (1.0 - ahead.rho / rho);
    const State behind = along({rho, u, p});
    const State F = Roe::flux(kPde, behind, along(ahead), 0);
    EXPECT_LT(largestDifference(F, kPde.flux(behind, 0)), 1e-13 * p) << "Mach " << mach;
  }
}

// For small jumps every approximate Riemann solver differs from Godunov's flux by O(jump), Roe's
// (a linearisation about the average state) by O(jump^2) away from sonic points.
TEST(RoeFlux, DiffersFromGodunovsFluxByTheSquareOfASmallJump) {
  const test::Primitive1D base{1.0, 0.4, 1.0};
  for (double jump : {1e-2, 1e-3}) {
    const test::Primitive1D r{base.rho * (1.0 + jump), base.u - 0.5 * jump, base.p * (1.0 - jump)};
    const double error =
        largestDifference(Roe::flux(kPde, along(base), along(r), 0), godunovFlux(base, r));
    EXPECT_LT(error, 2.0 * jump * jump) << "jump " << jump;
  }
}

// A stationary shock read backwards, subsonic gas on the left flowing into supersonic gas on the
// right, satisfies the Rankine-Hugoniot conditions with speed 0 but is no admissible shock: the
// exact solution is a transonic rarefaction. Without an entropy fix Roe's flux would be f(q_L),
// which keeps the expansion shock standing; with Harten's fix it moves toward Godunov's flux.
TEST(RoeFlux, EntropyFixOpensAnExpansionShock) {
  const double g = kPde.gamma, m2 = 4.0; // the upstream Mach number 2
  const test::Primitive1D supersonic{1.0, 2.0 * std::sqrt(g), 1.0};
  const double rho = supersonic.rho * (g + 1.0) * m2 / ((g - 1.0) * m2 + 2.0);
  const test::Primitive1D subsonic{rho, supersonic.rho * supersonic.u / rho,
                                   supersonic.p * (2.0 * g * m2 - (g - 1.0)) / (g + 1.0)};
  const State fL = kPde.flux(along(subsonic), 0);
  ASSERT_LT(largestDifference(fL, kPde.flux(along(supersonic), 0)), 1e-12 * subsonic.p);
  const State godunov = godunovFlux(subsonic, supersonic);
  const State roe = Roe::flux(kPde, along(subsonic), along(supersonic), 0);
  EXPECT_LT(largestDifference(roe, godunov), 0.8 * largestDifference(fL, godunov));
}

// ---- Every policy through a face of any orientation. ----------------------------------------

template <class Flux>
void checkFaceFlux() {
  const State qL = kPde.toConserved({{1.0, 0.7, -0.3, 0.2, 1.0}});
  const State qR = kPde.toConserved({{0.4, -0.2, 0.5, 0.6, 0.3}});
  const double inv = 1.0 / std::sqrt(0.09 + 0.64 + 0.25);
  const Vec<double, 3> n{{0.3 * inv, -0.8 * inv, 0.5 * inv}};
  const FaceFrame frame = FaceFrame::along(n);
  // The frame is orthonormal and right-handed.
  const auto dot = [](const Vec<double, 3>& a, const Vec<double, 3>& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  };
  EXPECT_NEAR(dot(frame.t1, frame.t1), 1.0, 1e-15);
  EXPECT_NEAR(dot(frame.t2, frame.t2), 1.0, 1e-15);
  EXPECT_NEAR(dot(frame.t1, n), 0.0, 1e-15);
  EXPECT_NEAR(dot(frame.t2, n), 0.0, 1e-15);
  EXPECT_NEAR(dot(frame.t2, frame.t1), 0.0, 1e-15);

  // Consistency: F(q, q) = sum_a n_a f_a(q).
  State physical = State::filled(0.0);
  for (int a = 0; a < 3; ++a) {
    const State f = kPde.flux(qL, a);
    for (int v = 0; v < 5; ++v)
      physical[v] += n[a] * f[v];
  }
  EXPECT_LT(largestDifference(normalFlux<Flux>(kPde, qL, qL, frame), physical), 1e-14)
      << Flux::kName;

  // Conservation: the face seen from the other side carries the opposite flux.
  const Vec<double, 3> minus{{-n[0], -n[1], -n[2]}};
  const State F = normalFlux<Flux>(kPde, qL, qR, frame);
  const State G = normalFlux<Flux>(kPde, qR, qL, FaceFrame::along(minus));
  for (int v = 0; v < 5; ++v)
    EXPECT_NEAR(G[v], -F[v], 1e-14) << Flux::kName << ", variable " << v;

  // Along a coordinate axis it is the policy's own flux along that axis.
  for (int axis = 0; axis < 3; ++axis) {
    Vec<double, 3> e{{0.0, 0.0, 0.0}};
    e[axis] = 1.0;
    EXPECT_LT(largestDifference(normalFlux<Flux>(kPde, qL, qR, FaceFrame::along(e)),
                                Flux::flux(kPde, qL, qR, axis)),
              1e-14)
        << Flux::kName << ", axis " << axis;
  }

  // Rotational invariance: other tangents (the frame turned about n) give the same flux.
  FaceFrame turned = frame;
  const double c = std::cos(0.7), s = std::sin(0.7);
  for (int a = 0; a < 3; ++a) {
    turned.t1[a] = c * frame.t1[a] + s * frame.t2[a];
    turned.t2[a] = -s * frame.t1[a] + c * frame.t2[a];
  }
  EXPECT_LT(largestDifference(normalFlux<Flux>(kPde, qL, qR, turned), F), 1e-14) << Flux::kName;
}

TEST(FaceFlux, EveryRiemannSolverIsConsistentConservativeAndRotationInvariant) {
  checkFaceFlux<Rusanov>();
  checkFaceFlux<Hlle>();
  checkFaceFlux<Hllc>();
  checkFaceFlux<Roe>();
}

} // namespace
} // namespace tessera
