// The Riemann-solver policies (numerics/flux/): consistency F(q, q) = f(q), mirror antisymmetry,
// and the cases where HLLE and HLLC are exact Godunov fluxes by construction: supersonic states
// (upwind), an isolated contact (HLLC only: stationary, the flux is the pressure alone; moving,
// the upwind state's flux), and upwinding for linear advection.
#include <cmath>
#include <gtest/gtest.h>
#include <utility>

#include "numerics/flux/hllc.hpp"
#include "numerics/flux/hlle.hpp"
#include "numerics/flux/rusanov.hpp"
#include "physics/advection/advection.hpp"
#include "physics/euler/euler.hpp"

namespace tessera {
namespace {

template <class State>
void expectNear(const State& a, const State& b, double tolerance, const char* what) {
  for (int v = 0; v < State::size(); ++v)
    EXPECT_NEAR(a[v], b[v], tolerance * (1.0 + std::fabs(b[v]))) << what << ", variable " << v;
}

template <class Flux>
void checkConsistency() {
  Euler<3> pde;
  const Euler<3>::State q = pde.toConserved({{0.8, 0.3, -1.2, 0.5, 2.4}});
  for (int axis = 0; axis < 3; ++axis)
    expectNear(Flux::flux(pde, q, q, axis), pde.flux(q, axis), 1e-14, Flux::kName);
}

TEST(RiemannSolvers, ConsistentWithThePhysicalFlux) {
  checkConsistency<Rusanov>();
  checkConsistency<Hlle>();
  checkConsistency<Hllc>();
}

template <class Flux>
void checkMirror(const Euler<2>::State& wL, const Euler<2>::State& wR) {
  // Swapping the sides and negating the normal velocity negates every flux but the normal
  // momentum's, exactly: what the Sedov test's mirror symmetry to round-off rests on.
  Euler<2> pde;
  const Euler<2>::State qL = pde.toConserved(wL), qR = pde.toConserved(wR);
  const auto mirror = [](Euler<2>::State q) {
    q[1] = -q[1];
    return q;
  };
  const auto F = Flux::flux(pde, qL, qR, 0);
  const auto G = Flux::flux(pde, mirror(qR), mirror(qL), 0);
  EXPECT_EQ(G[0], -F[0]) << Flux::kName;
  EXPECT_EQ(G[1], F[1]) << Flux::kName;
  EXPECT_EQ(G[2], -F[2]) << Flux::kName;
  EXPECT_EQ(G[3], -F[3]) << Flux::kName;
}

template <class Flux>
void checkMirror() {
  checkMirror<Flux>({{1.0, 0.7, 0.2, 1.0}}, {{0.3, -0.1, 0.4, 0.2}});
  checkMirror<Flux>({{0.125, -0.3, 0.0, 0.1}}, {{1.0, 0.2, 0.5, 1.0}});
  // Mirror-image sides: the contact does not move (S* = 0).
  checkMirror<Flux>({{1.0, 0.4, 0.2, 1.0}}, {{1.0, -0.4, 0.2, 1.0}});
}

TEST(RiemannSolvers, MirroredStatesGiveTheMirroredFlux) {
  checkMirror<Rusanov>();
  checkMirror<Hlle>();
  checkMirror<Hllc>();
}

TEST(RiemannSolvers, HllFamilyIsUpwindForSupersonicStates) {
  // u - c > 0 on both sides: every wave moves right, the face sees the left state.
  Euler<2> pde;
  const auto qL = pde.toConserved({{1.0, 3.0, 0.1, 1.0}});
  const auto qR = pde.toConserved({{0.5, 2.8, -0.2, 0.6}});
  expectNear(Hlle::flux(pde, qL, qR, 0), pde.flux(qL, 0), 0.0, "hlle, rightward");
  expectNear(Hllc::flux(pde, qL, qR, 0), pde.flux(qL, 0), 0.0, "hllc, rightward");
  const auto mL = pde.toConserved({{1.0, 0.1, -3.5, 1.0}});
  const auto mR = pde.toConserved({{0.4, 0.0, -3.2, 0.5}});
  expectNear(Hlle::flux(pde, mL, mR, 1), pde.flux(mR, 1), 0.0, "hlle, leftward");
  expectNear(Hllc::flux(pde, mL, mR, 1), pde.flux(mR, 1), 0.0, "hllc, leftward");
}

TEST(RiemannSolvers, HllcResolvesAStationaryContactExactly) {
  // Density jumps, velocity zero, pressure equal: the exact Godunov flux is (0, p, 0, 0); HLLC
  // has it, HLLE diffuses mass across the contact.
  Euler<2> pde;
  const auto qL = pde.toConserved({{1.0, 0.0, 0.0, 1.0}});
  const auto qR = pde.toConserved({{0.1, 0.0, 0.0, 1.0}});
  const auto F = Hllc::flux(pde, qL, qR, 0);
  EXPECT_NEAR(F[0], 0.0, 1e-15);
  EXPECT_NEAR(F[1], 1.0, 1e-15);
  EXPECT_NEAR(F[2], 0.0, 1e-15);
  EXPECT_NEAR(F[3], 0.0, 1e-15);
  EXPECT_GT(std::fabs(Hlle::flux(pde, qL, qR, 0)[0]), 0.05);
}

TEST(RiemannSolvers, HllcCarriesAMovingContactAndShearUpwind) {
  // A contact with a tangential velocity jump moving right at u = 0.5: the face sees the left
  // state, so the exact flux is f(qL).
  Euler<3> pde;
  const auto qL = pde.toConserved({{1.0, 0.5, 0.3, -0.2, 1.0}});
  const auto qR = pde.toConserved({{0.1, 0.5, -0.7, 0.4, 1.0}});
  expectNear(Hllc::flux(pde, qL, qR, 0), pde.flux(qL, 0), 1e-14, "moving contact");
}

// HLLC's entry on primitive face states (what a reconstruction in primitive variables hands it)
// is the same flux as on conserved ones, to round-off, in every case it distinguishes:
// subsonic either way of the contact, supersonic either way, a contact at rest; and it keeps the
// mirror antisymmetry exactly.
TEST(RiemannSolvers, HllcOnPrimitiveStatesIsItsFluxOnConservedOnes) {
  Euler<3> pde;
  using W = Euler<3>::State;
  const std::pair<W, W> cases[] = {
      {{{1.0, 0.7, 0.2, -0.1, 1.0}}, {{0.3, -0.1, 0.4, 0.3, 0.2}}},
      {{{0.125, -0.3, 0.0, 0.2, 0.1}}, {{1.0, 0.2, 0.5, -0.4, 1.0}}},
      {{{1.0, 3.0, 0.1, 0.2, 1.0}}, {{0.5, 2.8, -0.2, 0.1, 0.6}}},
      {{{1.0, -3.5, 0.1, 0.0, 1.0}}, {{0.4, -3.2, 0.0, 0.3, 0.5}}},
      {{{1.0, 0.0, 0.3, 0.0, 1.0}}, {{0.1, 0.0, -0.7, 0.2, 1.0}}},
  };
  for (const auto& [wL, wR] : cases)
    for (int axis = 0; axis < 3; ++axis) {
      W l = wL, r = wR; // the normal velocity along `axis`
      std::swap(l[1], l[1 + axis]);
      std::swap(r[1], r[1 + axis]);
      const auto F = Hllc::flux(pde, pde.toConserved(l), pde.toConserved(r), axis);
      expectNear(Hllc::fluxOfPrimitive(pde, l, r, axis), F, 1e-14, "hllc on primitive states");
      W ml = r, mr = l;
      ml[1 + axis] = -ml[1 + axis];
      mr[1 + axis] = -mr[1 + axis];
      const auto G = Hllc::fluxOfPrimitive(pde, ml, mr, axis);
      const auto H = Hllc::fluxOfPrimitive(pde, l, r, axis);
      for (int v = 0; v < 5; ++v)
        EXPECT_EQ(G[v], v == 1 + axis ? H[v] : -H[v]) << "mirror, variable " << v;
    }
}

TEST(RiemannSolvers, HlleIsTheUpwindFluxOfLinearAdvection) {
  Advection<2> pde;
  pde.velocity = {{0.7, -1.3}};
  const Advection<2>::State qL{{2.0}}, qR{{-1.0}};
  EXPECT_DOUBLE_EQ(Hlle::flux(pde, qL, qR, 0)[0], 0.7 * 2.0);
  EXPECT_DOUBLE_EQ(Hlle::flux(pde, qL, qR, 1)[0], -1.3 * -1.0);
  static_assert(!Hllc::kAppliesTo<Advection<2>>, "HLLC needs the Euler equations");
  static_assert(Hlle::kAppliesTo<Advection<2>> && Rusanov::kAppliesTo<Advection<3>>);
}

} // namespace
} // namespace tessera
