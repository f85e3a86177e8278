#pragma once
// Jacobians of the 3D Euler flux and of the first-order Rusanov and Roe face fluxes, for implicit
// time stepping, written once for the host and the device. Blocks are 5x5, row-major: entry (i, j)
// is d(flux component i) / d(conserved variable j).
#include "engine/backend.hpp"
#include "numerics/flux/normal_flux.hpp"
#include "numerics/flux/roe.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/unstructured/unstructured_boundary.hpp"

namespace tessera {

using JacobianBlock = Vec<double, 25>;

TESSERA_INLINE JacobianBlock identityBlock(double diagonal) {
  JacobianBlock b = JacobianBlock::filled(0.0);
  for (int i = 0; i < 5; ++i)
    b[6 * i] = diagonal;
  return b;
}

// d(f.S)/dq, f.S = sum_a S_a f_a(q), analytically (S need not be a unit vector: the Jacobian is
// linear in it). With u = m / rho, u_S = u.S, k = |u|^2 / 2, H = (E + p) / rho, g = gamma - 1:
//   mass      (0, S^T, 0)
//   momentum  (g k S_i - u_i u_S,  u_S delta_ij + u_i S_j - g S_i u_j,  g S_i)
//   energy    (u_S (g k - H),  H S_j - g u_S u_j,  gamma u_S)
TESSERA_INLINE JacobianBlock eulerFluxJacobian(const Euler<3>& pde, const Euler<3>::State& q,
                                               const Vec<double, 3>& S) {
  const double invRho = 1.0 / q[0];
  const double u[3] = {q[1] * invRho, q[2] * invRho, q[3] * invRho};
  const double uS = u[0] * S[0] + u[1] * S[1] + u[2] * S[2];
  const double k = 0.5 * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  const double g = pde.gamma - 1.0;
  const double H = (q[4] + pde.pressure(q, invRho)) * invRho;
  JacobianBlock A;
  A[0] = 0.0;
  for (int j = 0; j < 3; ++j)
    A[1 + j] = S[j];
  A[4] = 0.0;
  for (int i = 0; i < 3; ++i) {
    double* row = A.v + 5 * (1 + i);
    row[0] = g * k * S[i] - u[i] * uS;
    for (int j = 0; j < 3; ++j)
      row[1 + j] = (i == j ? uS : 0.0) + u[i] * S[j] - g * S[i] * u[j];
    row[4] = g * S[i];
  }
  double* energy = A.v + 20;
  energy[0] = uS * (g * k - H);
  for (int j = 0; j < 3; ++j)
    energy[1 + j] = H * S[j] - g * uS * u[j];
  energy[4] = pde.gamma * uS;
  return A;
}

// d(outer state)/d(inner state) of a boundary face
// (solvers/unstructured/unstructured_boundary.hpp): the mirror I - 2 n n^T on the momentum for slip
// walls and symmetry planes, I for outflow (a copy), 0 for farfield (a constant).
TESSERA_INLINE JacobianBlock outerStateJacobian(FaceKind kind, const Vec<double, 3>& n) {
  if (kind == FaceKind::Farfield)
    return JacobianBlock::filled(0.0);
  JacobianBlock G = identityBlock(1.0);
  if (kind == FaceKind::SlipWall || kind == FaceKind::Symmetry)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        G[5 * (1 + i) + 1 + j] -= 2.0 * n[i] * n[j];
  return G;
}

// a b (5x5).
TESSERA_INLINE JacobianBlock blockProduct(const JacobianBlock& a, const JacobianBlock& b) {
  JacobianBlock p;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      double sum = 0.0;
      for (int k = 0; k < 5; ++k)
        sum += a[5 * i + k] * b[5 * k + j];
      p[5 * i + j] = sum;
    }
  return p;
}

// The Jacobians of the Rusanov face flux F = (f(qL) + f(qR)).S / 2 - s (qR - qL) / 2 with respect
// to its two sides, with the coefficient s = |S| max(|u.n| + c) held fixed:
//   dF/dqL = (A(qL) S + s I) / 2,  dF/dqR = (A(qR) S - s I) / 2.
// The usual approximate Jacobian of a first-order scheme: s depends on the states only through a
// max, whose derivative would add a rank-one term that changes where the max switches sides and
// is dropped (Newton's method becomes a quasi-Newton one; the converged state is unaffected).
struct FaceFluxJacobians {
  JacobianBlock left, right;
};

// The first-order flux an implicit matrix linearises.
enum class JacobianFlux { Rusanov, Roe };
inline constexpr const char* kJacobianFluxNames[] = {"rusanov", "roe"};

TESSERA_INLINE FaceFluxJacobians rusanovJacobians(const Euler<3>& pde, const Euler<3>::State& qL,
                                                  const Euler<3>::State& qR,
                                                  const Vec<double, 3>& S, double s) {
  FaceFluxJacobians J{eulerFluxJacobian(pde, qL, S), eulerFluxJacobian(pde, qR, S)};
  for (int k = 0; k < 25; ++k) {
    J.left[k] *= 0.5;
    J.right[k] *= 0.5;
  }
  for (int i = 0; i < 5; ++i) {
    J.left[6 * i] += 0.5 * s;
    J.right[6 * i] -= 0.5 * s;
  }
  return J;
}

// Roe's dissipation matrix through a face of unit normal frame.n: the D with
// D dq = sum_k |lambda_k| alpha_k(dq) r_k at the Roe average of qL and qR, the alpha_k taking the
// jumps of velocity and pressure as dq's linear parts at that average,
//   du = (dm - u~ drho) / rho~,  dp = (gamma - 1) (dE - u~.dm + |u~|^2 / 2 drho),
// which for dq = qR - qL are exact (the property that defines the average), so that
// D (qR - qL) is the dissipation of Roe's flux (numerics/flux/roe.hpp). Built column by column in
// the face's frame, where Roe's flux takes the waves along axis 0.
TESSERA_INLINE JacobianBlock roeDissipationMatrix(const Euler<3>& pde, const Euler<3>::State& qL,
                                                  const Euler<3>::State& qR,
                                                  const FaceFrame& frame) {
  using State = Euler<3>::State;
  const auto turned = [&](const State& q) {
    State r = q;
    const Vec<double, 3> m = frame.toFrame(q[1], q[2], q[3]);
    for (int a = 0; a < 3; ++a)
      r[1 + a] = m[a];
    return r;
  };
  const State tL = turned(qL), tR = turned(qR);
  const Roe::Average<3> avg = Roe::average(pde, tL, tR, pde.pressure(qL), pde.pressure(qR));
  const double g = pde.gamma - 1.0;
  JacobianBlock D;
  for (int j = 0; j < 5; ++j) {
    State dq = State::filled(0.0);
    dq[j] = 1.0;
    const State t = turned(dq);
    double du[3], udm = 0.0;
    for (int a = 0; a < 3; ++a) {
      du[a] = (t[1 + a] - avg.u[a] * t[0]) / avg.rho;
      udm += avg.u[a] * t[1 + a];
    }
    const double dp = g * (t[4] - udm + 0.5 * avg.speed2 * t[0]);
    const State d = Roe::dissipation<Euler<3>>(avg, t[0], du, dp, 0);
    const Vec<double, 3> m = frame.fromFrame(d[1], d[2], d[3]);
    D[j] = d[0];
    for (int a = 0; a < 3; ++a)
      D[5 * (1 + a) + j] = m[a];
    D[20 + j] = d[4];
  }
  return D;
}

// The Jacobians of the first-order Roe flux F = (f(qL) + f(qR)).S / 2 - |S| D (qR - qL) / 2 with
// Roe's dissipation matrix D held fixed (as Rusanov's coefficient above):
//   dF/dqL = (A(qL) S + |S| D) / 2,  dF/dqR = (A(qR) S - |S| D) / 2.
// Its dissipation is the residual's (Roe's) wave by wave, where Rusanov's is the fastest wave's for
// all of them: a model of a Roe residual whose steps may be longer.
TESSERA_INLINE FaceFluxJacobians roeJacobians(const Euler<3>& pde, const Euler<3>::State& qL,
                                              const Euler<3>::State& qR, const Vec<double, 3>& S,
                                              double area, const Vec<double, 3>& n) {
  FaceFluxJacobians J{eulerFluxJacobian(pde, qL, S), eulerFluxJacobian(pde, qR, S)};
  const JacobianBlock D = roeDissipationMatrix(pde, qL, qR, FaceFrame::along(n));
  for (int k = 0; k < 25; ++k) {
    J.left[k] = 0.5 * (J.left[k] + area * D[k]);
    J.right[k] = 0.5 * (J.right[k] - area * D[k]);
  }
  return J;
}

} // namespace tessera
