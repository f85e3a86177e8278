#pragma once
// Jacobians of the 3D Euler flux and of the first-order Rusanov and Roe face fluxes, for implicit
// time stepping, written once for the host and the device. Blocks are 5x5, row-major: entry (i, j)
// is d(flux component i) / d(conserved variable j).
#include "engine/backend.hpp"
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

// Roe's dissipation matrix along the unit normal n: the D with
// D dq = sum_k |lambda_k| alpha_k(dq) r_k at the Roe average of qL and qR (numerics/flux/roe.hpp,
// Harten's entropy fix on the acoustic waves), the alpha_k taking the jumps of pressure and normal
// velocity as dq's linear parts at that average,
//   dp = (gamma - 1) (dE - u~.dm + |u~|^2 / 2 drho),  rho~ du_n = n.dm - u~_n drho,
// which for dq = qR - qL are exact (the property that defines the average), so that
// D (qR - qL) is the dissipation of Roe's flux. The sum is taken in its compact form: every wave
// moves at |u~_n| but the two acoustic ones, whose excess lies along (1, u~, H~) and (0, n, u~_n).
// With s = (|u_n + c| + |u_n - c|) / 2 - |u_n| and d = (|u_n + c| - |u_n - c|) / 2 (tildes
// dropped),
//   D dq = |u_n| dq + (s dp / c^2 + d rho du_n / c) (1, u, H)
//                   + (d dp / c + s rho du_n) (0, n, u_n),
// a rank-two change of |u_n| I.
TESSERA_INLINE JacobianBlock roeDissipationMatrix(const Euler<3>& pde, const Euler<3>::State& qL,
                                                  const Euler<3>::State& qR,
                                                  const Vec<double, 3>& n) {
  const Roe::Average<3> avg = Roe::average(pde, qL, qR, pde.pressure(qL), pde.pressure(qR));
  const double* u = avg.u;
  const double un = u[0] * n[0] + u[1] * n[1] + u[2] * n[2];
  const double c = avg.c, g = pde.gamma - 1.0;
  const double delta = Roe::kEntropyFix * (std::fabs(un) + c);
  const double aPlus = Roe::harten(un + c, delta), aMinus = Roe::harten(un - c, delta);
  const double aZero = std::fabs(un);
  const double sum = 0.5 * (aPlus + aMinus) - aZero, difference = 0.5 * (aPlus - aMinus);
  // The rows of dp and rho du_n in dq, and the two directions.
  const double P[5] = {0.5 * g * avg.speed2, -g * u[0], -g * u[1], -g * u[2], g};
  const double U[5] = {-un, n[0], n[1], n[2], 0.0};
  const double along[5] = {1.0, u[0], u[1], u[2], avg.H};
  const double across[5] = {0.0, n[0], n[1], n[2], un};
  JacobianBlock D;
  for (int j = 0; j < 5; ++j) {
    const double first = sum * P[j] / avg.c2 + difference * U[j] / c;
    const double second = difference * P[j] / c + sum * U[j];
    for (int i = 0; i < 5; ++i)
      D[5 * i + j] = first * along[i] + second * across[i] + (i == j ? aZero : 0.0);
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
  const JacobianBlock D = roeDissipationMatrix(pde, qL, qR, n);
  for (int k = 0; k < 25; ++k) {
    J.left[k] = 0.5 * (J.left[k] + area * D[k]);
    J.right[k] = 0.5 * (J.right[k] - area * D[k]);
  }
  return J;
}

} // namespace tessera
