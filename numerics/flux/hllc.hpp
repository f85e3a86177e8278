#pragma once
// The HLLC flux for the Euler equations (Toro, Spruce & Speares 1994; Toro 2009, section 10.4):
// HLL's single intermediate state split by the contact wave S*, so that contacts and shear layers
// stay sharp. Wave speeds S_L, S_R by Davis's estimate (numerics/flux/wave_speeds.hpp),
//   S* = (p_R - p_L + rho_L u_L (S_L - u_L) - rho_R u_R (S_R - u_R))
//        / (rho_L (S_L - u_L) - rho_R (S_R - u_R)),
// and on the side K of the contact that the face lies in, F = F_K + S_K (U*_K - U_K) with
//   U*_K = rho_K (S_K - u_K) / (S_K - S*) (1, S* along the axis, the tangential velocities,
//          E_K / rho_K + (S* - u_K) (S* + p_K / (rho_K (S_K - u_K)))).
// It needs the gas's density, momentum and energy by name: systems of the Euler kind only.
#include "engine/backend.hpp"
#include "numerics/flux/wave_speeds.hpp"
#include "physics/conservation_law.hpp"

namespace tessera {

// A system with the Euler equations' variables: density, Dim momenta, total energy, a pressure.
template <class PDE>
concept EulerLike = ConservationLaw<PDE> && requires(const PDE& pde, const typename PDE::State& q) {
  PDE::kDensity;
  PDE::kMomentum;
  PDE::kEnergy;
  { pde.pressure(q) } -> std::convertible_to<double>;
};

struct Hllc {
  static constexpr const char* kName = "hllc";
  template <ConservationLaw PDE>
  static constexpr bool kAppliesTo = EulerLike<PDE>;

  template <EulerLike PDE>
  TESSERA_INLINE static typename PDE::State flux(const PDE& pde, const typename PDE::State& qL,
                                                 const typename PDE::State& qR, int axis) {
    using State = typename PDE::State;
    constexpr int kRho = PDE::kDensity;
    const int kUn = PDE::kMomentum + axis;
    const WaveSpeeds s = davisWaveSpeeds(pde, qL, qR, axis);
    if (s.slowest >= 0.0)
      return pde.flux(qL, axis);
    if (s.fastest <= 0.0)
      return pde.flux(qR, axis);
    const double uL = qL[kUn] / qL[kRho], uR = qR[kUn] / qR[kRho];
    const double pL = pde.pressure(qL), pR = pde.pressure(qR);
    const double mL = qL[kRho] * (s.slowest - uL), mR = qR[kRho] * (s.fastest - uR);
    // Grouped so that mirror-image data (sides swapped, normal velocity negated) give exactly the
    // negated S*; at S* = 0 both sides' star fluxes are averaged, which is mirror-symmetric too.
    const double sStar =
        ((pR - pL) + (qL[kUn] * (s.slowest - uL) - qR[kUn] * (s.fastest - uR))) / (mL - mR);
    if (sStar > 0.0)
      return starSideFlux(pde, qL, axis, s.slowest, sStar, uL, pL, mL);
    if (sStar < 0.0)
      return starSideFlux(pde, qR, axis, s.fastest, sStar, uR, pR, mR);
    const State FL = starSideFlux(pde, qL, axis, s.slowest, sStar, uL, pL, mL),
                FR = starSideFlux(pde, qR, axis, s.fastest, sStar, uR, pR, mR);
    State F;
    for (int v = 0; v < PDE::kNumVars; ++v)
      F[v] = 0.5 * (FL[v] + FR[v]);
    return F;
  }

private:
  // F_K + S_K (U*_K - U_K) for side K (state q, wave speed sK, normal velocity uK, pressure pK,
  // mK = rho_K (S_K - u_K)).
  template <EulerLike PDE>
  TESSERA_INLINE static typename PDE::State
  starSideFlux(const PDE& pde, const typename PDE::State& q, int axis, double sK, double sStar,
               double uK, double pK, double mK) {
    constexpr int kRho = PDE::kDensity, kE = PDE::kEnergy;
    const double scale = mK / (sK - sStar); // rho*_K
    typename PDE::State star;
    star[kRho] = scale;
    for (int v = PDE::kMomentum; v < PDE::kMomentum + PDE::kDim; ++v)
      star[v] = scale * (q[v] / q[kRho]);
    star[PDE::kMomentum + axis] = scale * sStar;
    star[kE] = scale * (q[kE] / q[kRho] + (sStar - uK) * (sStar + pK / mK));
    typename PDE::State F = pde.flux(q, axis);
    for (int v = 0; v < PDE::kNumVars; ++v)
      F[v] += sK * (star[v] - q[v]);
    return F;
  }
};

} // namespace tessera
