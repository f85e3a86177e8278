#pragma once
// Roe's approximate Riemann solver for the Euler equations (Roe 1981; Toro 2009, section 11.3),
// the flux of seed 000's roe-flux kernel:
//   F = (F_L + F_R) / 2 - sum_k |lambda_k| alpha_k r_k / 2
// over the eigenvectors r_k of the Jacobian at Roe's average state
//   rho~ = sqrt(rho_L rho_R), u~ and H~ the sqrt(rho)-weighted averages of u and H = (E + p) / rho,
//   c~^2 = (gamma - 1) (H~ - |u~|^2 / 2),
// with the wave strengths (along the axis, u_n the normal velocity, u_t the tangential ones)
//   alpha_acoustic,-+ = (dp -+ rho~ c~ du_n) / (2 c~^2),  alpha_entropy = drho - dp / c~^2,
//   alpha_shear,t = rho~ du_t.
// Entropy fix: Harten's (1983) on the two acoustic waves, |lambda| -> (lambda^2 + delta^2) /
// (2 delta) where |lambda| < delta = kEntropyFix (|u~_n| + c~): without it a transonic
// rarefaction, whose Roe eigenvalue passes through zero at the face, stays a discontinuity (an
// expansion shock). The contact and shear waves are linearly degenerate and keep |u~_n|.
#include <cmath>

#include "engine/backend.hpp"
#include "numerics/flux/hllc.hpp"
#include "physics/conservation_law.hpp"

namespace tessera {

struct Roe {
  static constexpr const char* kName = "roe";
  static constexpr double kEntropyFix = 0.1;
  template <ConservationLaw PDE>
  static constexpr bool kAppliesTo = EulerLike<PDE>;

  // Roe's average of two states (their pressures given).
  template <int Dim>
  struct Average {
    double rho, H, c, c2, speed2;
    double u[Dim];
  };
  template <EulerLike PDE>
  TESSERA_INLINE static Average<PDE::kDim> average(const PDE& pde, const typename PDE::State& qL,
                                                   const typename PDE::State& qR, double pL,
                                                   double pR) {
    constexpr int kRho = PDE::kDensity, kM = PDE::kMomentum, kE = PDE::kEnergy;
    const double invRhoL = 1.0 / qL[kRho], invRhoR = 1.0 / qR[kRho];
    const double sqrtL = std::sqrt(qL[kRho]), sqrtR = std::sqrt(qR[kRho]);
    const double wL = sqrtL / (sqrtL + sqrtR), wR = 1.0 - wL;
    Average<PDE::kDim> avg;
    avg.speed2 = 0.0;
    for (int a = 0; a < PDE::kDim; ++a) {
      const double uL = qL[kM + a] * invRhoL, uR = qR[kM + a] * invRhoR;
      avg.u[a] = wL * uL + wR * uR;
      avg.speed2 += avg.u[a] * avg.u[a];
    }
    avg.H = wL * (qL[kE] + pL) * invRhoL + wR * (qR[kE] + pR) * invRhoR;
    avg.c2 = (pde.gamma - 1.0) * (avg.H - 0.5 * avg.speed2);
    avg.c = std::sqrt(avg.c2);
    avg.rho = sqrtL * sqrtR;
    return avg;
  }

  template <EulerLike PDE>
  TESSERA_INLINE static typename PDE::State flux(const PDE& pde, const typename PDE::State& qL,
                                                 const typename PDE::State& qR, int axis) {
    using State = typename PDE::State;
    constexpr int kRho = PDE::kDensity, kM = PDE::kMomentum, kE = PDE::kEnergy, kDim = PDE::kDim;
    const double invRhoL = 1.0 / qL[kRho], invRhoR = 1.0 / qR[kRho];
    const double pL = pde.pressure(qL, invRhoL), pR = pde.pressure(qR, invRhoR);
    const Average<kDim> avg = average(pde, qL, qR, pL, pR);
    const double* u = avg.u;
    double du[kDim];
    for (int a = 0; a < kDim; ++a)
      du[a] = qR[kM + a] * invRhoR - qL[kM + a] * invRhoL;
    const double c = avg.c, c2 = avg.c2, rho = avg.rho, H = avg.H;
    const double un = u[axis], dp = pR - pL, drho = qR[kRho] - qL[kRho];

    const double delta = kEntropyFix * (std::fabs(un) + c);
    const double aMinus = harten(un - c, delta), aPlus = harten(un + c, delta);
    const double aZero = std::fabs(un);
    // |lambda| alpha of each wave.
    const double minus = aMinus * (dp - rho * c * du[axis]) / (2.0 * c2);
    const double plus = aPlus * (dp + rho * c * du[axis]) / (2.0 * c2);
    const double entropy = aZero * (drho - dp / c2);

    State D; // sum_k |lambda_k| alpha_k r_k
    D[kRho] = minus + entropy + plus;
    double shearEnergy = 0.0;
    for (int a = 0; a < kDim; ++a) {
      D[kM + a] = (minus + entropy + plus) * u[a];
      if (a != axis) {
        const double shear = aZero * rho * du[a];
        D[kM + a] += shear;
        shearEnergy += shear * u[a];
      }
    }
    D[kM + axis] += c * (plus - minus);
    D[kE] = minus * (H - un * c) + entropy * 0.5 * avg.speed2 + plus * (H + un * c) + shearEnergy;

    const State fL = pde.flux(qL, axis), fR = pde.flux(qR, axis);
    State F;
    for (int v = 0; v < PDE::kNumVars; ++v)
      F[v] = 0.5 * (fL[v] + fR[v]) - 0.5 * D[v];
    return F;
  }

  // |lambda| with Harten's fix below delta (the implicit solver's Jacobian takes it too).
  TESSERA_INLINE static double harten(double lambda, double delta) {
    const double a = std::fabs(lambda);
    return a < delta ? 0.5 * (lambda * lambda + delta * delta) / delta : a;
  }
};

} // namespace tessera
