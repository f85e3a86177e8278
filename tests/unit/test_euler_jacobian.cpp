// The Euler flux Jacobian and the Rusanov and Roe face Jacobians against central finite
// differences; Roe's dissipation matrix against Roe's flux and the Jacobian's eigenvectors.
//
// Central differences with step h = 1e-6 (the states are O(1)) have truncation error ~h^2 and
// round-off ~1e-16 / h ~ 1e-10 relative to the flux; bound 1e-7 relative to the block's largest
// entry. The face Jacobians hold the Rusanov coefficient s fixed (the approximation the implicit
// solver makes), so they are compared with differences of the flux at that fixed s, after checking
// that this flux is the solver's (EulerFaceFlux) at the unperturbed states.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <utility>
#include <vector>

#include "numerics/flux/normal_flux.hpp"
#include "solvers/unstructured/euler_jacobian.hpp"
#include "solvers/unstructured/unstructured_face_jacobian.hpp"

namespace tessera {
namespace {

using State = Euler<3>::State;

constexpr double kStep = 1e-6;
constexpr double kTolerance = 1e-7;

const Euler<3> kPde{};
const State kLeft = kPde.toConserved({{1.3, 0.7, -0.4, 0.25, 2.1}});
const State kRight = kPde.toConserved({{0.9, 0.5, 0.2, -0.3, 1.6}});
const State kFarfield = kPde.toConserved({{1.4, 0.5, 0.0, 0.0, 1.0}});
const Vec<double, 3> kArea{{0.3, -0.4, 1.2}}; // |S| = 1.3

// The block of central differences of flux(q) with respect to q.
template <class Flux>
JacobianBlock finiteDifferences(const Flux& flux, const State& q) {
  JacobianBlock J;
  for (int j = 0; j < 5; ++j) {
    State plus = q, minus = q;
    plus[j] += kStep;
    minus[j] -= kStep;
    const State fp = flux(plus), fm = flux(minus);
    for (int i = 0; i < 5; ++i)
      J[5 * i + j] = (fp[i] - fm[i]) / (2.0 * kStep);
  }
  return J;
}

void expectBlocksNear(const JacobianBlock& analytic, const JacobianBlock& differences) {
  double scale = 0.0;
  for (int k = 0; k < 25; ++k)
    scale = std::max(scale, std::fabs(differences[k]));
  for (int k = 0; k < 25; ++k)
    EXPECT_NEAR(analytic[k], differences[k], kTolerance * scale)
        << "entry (" << k / 5 << ", " << k % 5 << ")";
}

State fluxAlong(const State& q, const Vec<double, 3>& S) {
  State f = State::filled(0.0);
  for (int a = 0; a < 3; ++a) {
    const State g = kPde.flux(q, a);
    for (int v = 0; v < 5; ++v)
      f[v] += S[a] * g[v];
  }
  return f;
}

Vec<double, 3> unit(const Vec<double, 3>& S) {
  const double length = std::sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  return {{S[0] / length, S[1] / length, S[2] / length}};
}

// The Rusanov flux with a fixed coefficient s.
State frozenRusanov(const State& qL, const State& qR, double s) {
  const State fL = fluxAlong(qL, kArea), fR = fluxAlong(qR, kArea);
  State F;
  for (int v = 0; v < 5; ++v)
    F[v] = 0.5 * (fL[v] + fR[v]) - 0.5 * s * (qR[v] - qL[v]);
  return F;
}

double rusanovCoefficient(const State& qL, const State& qR) {
  const Vec<double, 3> n = unit(kArea);
  return std::sqrt(0.3 * 0.3 + 0.4 * 0.4 + 1.2 * 1.2) *
         std::max(kPde.maxEigenvalueAlong(qL, n), kPde.maxEigenvalueAlong(qR, n));
}

// One face with cell 0 as owner and, for Interior, cell 1 as neighbour.
struct OneFace {
  std::vector<int> owner{0}, neighbour;
  std::vector<double> area{kArea[0], kArea[1], kArea[2]};
  std::vector<FaceKind> kind;
  std::vector<double> q;

  explicit OneFace(FaceKind k) : neighbour{k == FaceKind::Interior ? 1 : -1}, kind{k} {
    q.assign(kLeft.v, kLeft.v + 5);
    q.insert(q.end(), kRight.v, kRight.v + 5);
  }
  UnstructuredFaces faces() const {
    return {owner.data(), neighbour.data(), area.data(), kind.data()};
  }
};

TEST(EulerJacobian, FluxJacobianAlongAnyVectorMatchesDifferences) {
  for (const Vec<double, 3>& S :
       {kArea, Vec<double, 3>{{1.0, 0.0, 0.0}}, Vec<double, 3>{{0.0, -2.0, 0.5}}}) {
    const auto flux = [&](const State& q) { return fluxAlong(q, S); };
    expectBlocksNear(eulerFluxJacobian(kPde, kLeft, S), finiteDifferences(flux, kLeft));
    expectBlocksNear(eulerFluxJacobian(kPde, kRight, S), finiteDifferences(flux, kRight));
  }
}

// A(q) S q = f(q).S: the Euler flux is homogeneous of degree one in q.
TEST(EulerJacobian, FluxJacobianTimesStateIsTheFlux) {
  const JacobianBlock A = eulerFluxJacobian(kPde, kLeft, kArea);
  const State f = fluxAlong(kLeft, kArea);
  for (int i = 0; i < 5; ++i) {
    double Aq = 0.0;
    for (int j = 0; j < 5; ++j)
      Aq += A[5 * i + j] * kLeft[j];
    EXPECT_NEAR(Aq, f[i], 1e-13 * std::fabs(f[i]) + 1e-14);
  }
}

TEST(EulerJacobian, InteriorFaceJacobiansMatchDifferencesAtFixedCoefficient) {
  const OneFace face(FaceKind::Interior);
  const double s = rusanovCoefficient(kLeft, kRight);
  State solver, ignored;
  EulerFaceFlux{kPde, face.faces(), face.q.data(), kFarfield}(0, solver.v, ignored.v);
  const State frozen = frozenRusanov(kLeft, kRight, s);
  for (int v = 0; v < 5; ++v)
    EXPECT_NEAR(-solver[v], frozen[v], 1e-14 * std::fabs(frozen[v]) + 1e-14);

  const FaceFluxJacobians J =
      faceJacobians(kPde, face.faces(), face.q.data(), kFarfield, 0, JacobianFlux::Rusanov);
  expectBlocksNear(J.left, finiteDifferences(
                               [&](const State& q) { return frozenRusanov(q, kRight, s); }, kLeft));
  expectBlocksNear(
      J.right,
      finiteDifferences([&](const State& q) { return frozenRusanov(kLeft, q, s); }, kRight));
}

// On the boundary the outer state follows the inner one through outerState: the owner's block is
// the derivative of F(q, outerState(q)).
TEST(EulerJacobian, BoundaryFaceJacobiansFollowTheOuterState) {
  const Vec<double, 3> n = unit(kArea);
  for (FaceKind kind : kBoundaryFaceKinds) {
    SCOPED_TRACE(std::string(faceKindName(kind)));
    const OneFace face(kind);
    const double s = rusanovCoefficient(kLeft, outerState(kind, kLeft, n, kFarfield));
    State solver, ignored;
    EulerFaceFlux{kPde, face.faces(), face.q.data(), kFarfield}(0, solver.v, ignored.v);
    const State frozen = frozenRusanov(kLeft, outerState(kind, kLeft, n, kFarfield), s);
    for (int v = 0; v < 5; ++v)
      EXPECT_NEAR(-solver[v], frozen[v], 1e-14 * std::fabs(frozen[v]) + 1e-14);

    const FaceFluxJacobians J =
        faceJacobians(kPde, face.faces(), face.q.data(), kFarfield, 0, JacobianFlux::Rusanov);
    const auto flux = [&](const State& q) {
      return frozenRusanov(q, outerState(kind, q, n, kFarfield), s);
    };
    expectBlocksNear(J.left, finiteDifferences(flux, kLeft));
  }
}

// D (qR - qL) for Roe's dissipation matrix D.
State roeDissipationOf(const JacobianBlock& D, const State& qL, const State& qR) {
  State d = State::filled(0.0);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      d[i] += D[5 * i + j] * (qR[j] - qL[j]);
  return d;
}

// Applied to the jump between two states, Roe's dissipation matrix is the dissipation of Roe's
// flux: (f(qL) + f(qR)).n / 2 - F_Roe = D (qR - qL) / 2, also where the entropy fix acts (a
// transonic pair: u.n - c changes sign between the sides).
TEST(EulerJacobian, RoeDissipationMatrixGivesTheRoeFluxDissipation) {
  const Vec<double, 3> n = unit(kArea);
  const FaceFrame frame = FaceFrame::along(n);
  const State sonicL = kPde.toConserved({{1.0, 1.1 * n[0], 1.1 * n[1], 1.1 * n[2], 1.0 / 1.4}});
  const State sonicR = kPde.toConserved({{0.8, 0.9 * n[0], 0.9 * n[1], 0.9 * n[2], 0.6}});
  for (const auto& [qL, qR] : {std::pair{kLeft, kRight}, std::pair{sonicL, sonicR}}) {
    const State d = roeDissipationOf(roeDissipationMatrix(kPde, qL, qR, n), qL, qR);
    const State F = normalFlux<Roe>(kPde, qL, qR, frame);
    const State fL = fluxAlong(qL, n), fR = fluxAlong(qR, n);
    for (int v = 0; v < 5; ++v)
      EXPECT_NEAR(0.5 * (fL[v] + fR[v]) - F[v], 0.5 * d[v], 1e-13) << "component " << v;
  }
}

// At one state D is the absolute value of the flux Jacobian along n: it scales each of the
// Jacobian's eigenvectors (Toro 2009, section 3.2.2) by |its eigenvalue|.
TEST(EulerJacobian, RoeDissipationMatrixAtOneStateIsTheJacobiansAbsoluteValue) {
  const Vec<double, 3> n = unit(kArea);
  const FaceFrame frame = FaceFrame::along(n);
  const JacobianBlock D = roeDissipationMatrix(kPde, kLeft, kLeft, n);
  const double rho = kLeft[0], u[3] = {kLeft[1] / rho, kLeft[2] / rho, kLeft[3] / rho};
  const double p = kPde.pressure(kLeft), c = std::sqrt(kPde.gamma * p / rho);
  const double un = u[0] * n[0] + u[1] * n[1] + u[2] * n[2];
  const double k = 0.5 * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]), H = (kLeft[4] + p) / rho;
  ASSERT_GT(std::fabs(un - c), 0.1 * (std::fabs(un) + c)) << "outside the entropy fix";
  const auto along = [&](double scale, const Vec<double, 3>& w, double first, double last) {
    return State{{first, u[0] * first + scale * w[0], u[1] * first + scale * w[1],
                  u[2] * first + scale * w[2], last}};
  };
  const Vec<double, 3> zero{{0.0, 0.0, 0.0}};
  const double ut1 = u[0] * frame.t1[0] + u[1] * frame.t1[1] + u[2] * frame.t1[2];
  const double ut2 = u[0] * frame.t2[0] + u[1] * frame.t2[1] + u[2] * frame.t2[2];
  const std::pair<State, double> eigen[] = {{along(-c, n, 1.0, H - un * c), un - c},
                                            {along(0.0, zero, 1.0, k), un},
                                            {along(1.0, frame.t1, 0.0, ut1), un},
                                            {along(1.0, frame.t2, 0.0, ut2), un},
                                            {along(c, n, 1.0, H + un * c), un + c}};
  for (const auto& [r, lambda] : eigen)
    for (int i = 0; i < 5; ++i) {
      double Dr = 0.0;
      for (int j = 0; j < 5; ++j)
        Dr += D[5 * i + j] * r[j];
      EXPECT_NEAR(Dr, std::fabs(lambda) * r[i], 1e-13 * (1.0 + std::fabs(r[i])))
          << "eigenvalue " << lambda << ", component " << i;
    }
}

// Roe's face Jacobians against differences of the Roe flux with its dissipation matrix held
// fixed at the unperturbed states; consistent at one state (dF/dqL + dF/dqR = A(q) S).
TEST(EulerJacobian, RoeFaceJacobiansMatchDifferencesAtFixedDissipation) {
  const OneFace face(FaceKind::Interior);
  const double area = std::sqrt(0.3 * 0.3 + 0.4 * 0.4 + 1.2 * 1.2);
  const JacobianBlock D = roeDissipationMatrix(kPde, kLeft, kRight, unit(kArea));
  const auto frozenRoe = [&](const State& qL, const State& qR) {
    const State fL = fluxAlong(qL, kArea), fR = fluxAlong(qR, kArea);
    const State d = roeDissipationOf(D, qL, qR);
    State F;
    for (int v = 0; v < 5; ++v)
      F[v] = 0.5 * (fL[v] + fR[v]) - 0.5 * area * d[v];
    return F;
  };
  const FaceFluxJacobians J =
      faceJacobians(kPde, face.faces(), face.q.data(), kFarfield, 0, JacobianFlux::Roe);
  expectBlocksNear(J.left,
                   finiteDifferences([&](const State& q) { return frozenRoe(q, kRight); }, kLeft));
  expectBlocksNear(J.right,
                   finiteDifferences([&](const State& q) { return frozenRoe(kLeft, q); }, kRight));

  const FaceFluxJacobians same = roeJacobians(kPde, kLeft, kLeft, kArea, area, unit(kArea));
  const JacobianBlock A = eulerFluxJacobian(kPde, kLeft, kArea);
  for (int k = 0; k < 25; ++k)
    EXPECT_NEAR(same.left[k] + same.right[k], A[k], 1e-13 * (1.0 + std::fabs(A[k])));
}

// The diagonal contribution and the off-diagonal blocks carry the signs of R = -(outgoing flux).
TEST(EulerJacobian, ContributionsCarryTheSignsOfOutgoingFlux) {
  const OneFace face(FaceKind::Interior);
  const FaceFluxJacobians J =
      faceJacobians(kPde, face.faces(), face.q.data(), kFarfield, 0, JacobianFlux::Rusanov);
  JacobianBlock toOwner, toNeighbour;
  EulerFaceJacobianDiagonal{kPde, face.faces(), face.q.data(), kFarfield}(0, toOwner.v,
                                                                          toNeighbour.v);
  const std::vector<int> slots{1, 0};
  std::vector<float> offdiagonal(50);
  EulerFaceJacobianOffdiagonal<float>{kPde,      face.faces(), face.q.data(),
                                      kFarfield, slots.data(), offdiagonal.data()}(0);
  for (int k = 0; k < 25; ++k) {
    EXPECT_EQ(toOwner[k], J.left[k]);
    EXPECT_EQ(toNeighbour[k], -J.right[k]);
    EXPECT_EQ(offdiagonal[std::size_t(25 + k)], float(J.right[k]));
    EXPECT_EQ(offdiagonal[std::size_t(k)], float(-J.left[k]));
  }
}

} // namespace
} // namespace tessera
