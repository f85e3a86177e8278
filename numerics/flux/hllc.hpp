#pragma once
// The HLLC flux for the Euler equations (Toro, Spruce & Speares 1994; Toro 2009, section 10.4):
// HLL's single intermediate state split by the contact wave S*, so that contacts and shear layers
// stay sharp. Wave speeds S_L, S_R by Davis's estimate (as numerics/flux/wave_speeds.hpp),
//   S* = (p_R - p_L + rho_L u_L (S_L - u_L) - rho_R u_R (S_R - u_R))
//        / (rho_L (S_L - u_L) - rho_R (S_R - u_R)),
// and on the side K of the contact that the face lies in, F = F_K + S_K (U*_K - U_K) with
//   U*_K = rho_K (S_K - u_K) / (S_K - S*) (1, S* along the axis, the tangential velocities,
//          E_K / rho_K + (S* - u_K) (S* + p_K / (rho_K (S_K - u_K)))).
// It needs the gas's density, momentum and energy by name: systems of the Euler kind only.

#include "engine/arithmetic.hpp"
#include "engine/backend.hpp"
#include "physics/conservation_law.hpp"

namespace tessera {

// A system with the Euler equations' variables: density, Dim momenta, total energy, and an ideal
// gas's pressure and ratio of specific heats.
template <class PDE>
concept EulerLike = ConservationLaw<PDE> &&
    requires(const PDE& pde, const typename PDE::State& q, double invRho) {
  PDE::kDensity;
  PDE::kMomentum;
  PDE::kEnergy;
  { pde.pressure(q, invRho) } -> std::convertible_to<double>;
  { pde.gamma } -> std::convertible_to<double>;
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
    // One division and one square root a side: on a GPU, divisions cost more than the rest of the
    // flux together (they were two thirds of the stage kernel's floating-point instructions);
    // engine/arithmetic's, branch-free on the device.
    const Side l = sideOf(pde, qL, axis), r = sideOf(pde, qR, axis);
    const double sL = l.u - l.c < r.u - r.c ? l.u - l.c : r.u - r.c; // Davis's estimates
    const double sR = l.u + l.c > r.u + r.c ? l.u + l.c : r.u + r.c;
    const double mL = qL[kRho] * (sL - l.u), mR = qR[kRho] * (sR - r.u);
    // Grouped so that mirror-image data (sides swapped, normal velocity negated) give exactly the
    // negated S*; at S* = 0 both sides' star fluxes are averaged, which is mirror-symmetric too.
    const double sStar =
        divide((r.p - l.p) + (qL[kUn] * (sL - l.u) - qR[kUn] * (sR - r.u)), mL - mR);
    // F_L where S_L >= 0 or S* > 0 (S_R > 0), F_R where S_R <= 0 or S* < 0, else the mean. The
    // side is chosen first and one star flux computed, the supersonic cases included as the star
    // formula with weight 0 (F_K + 0 (U*_K - U_K) = F_K): on a GPU the threads of a warp then
    // take one path whichever case each face is in (2% of the second-order stage kernel).
    const bool left = sL >= 0.0 || (sR > 0.0 && sStar > 0.0);
    const bool right = !left && (sR <= 0.0 || sStar < 0.0);
    if (!left && !right) {
      const State FL = starSideFlux<PDE>(qL, l, axis, sL, sL, sStar, mL);
      const State FR = starSideFlux<PDE>(qR, r, axis, sR, sR, sStar, mR);
      State F;
      for (int v = 0; v < PDE::kNumVars; ++v)
        F[v] = 0.5 * (FL[v] + FR[v]);
      return F;
    }
    State q;
    for (int v = 0; v < PDE::kNumVars; ++v)
      q[v] = left ? qL[v] : qR[v];
    const Side side = left ? l : r;
    const double weight = left ? (sL >= 0.0 ? 0.0 : sL) : (sR <= 0.0 ? 0.0 : sR);
    return starSideFlux<PDE>(q, side, axis, left ? sL : sR, weight, sStar, left ? mL : mR);
  }

private:
  // A side's 1 / rho, normal velocity, pressure and sound speed.
  struct Side {
    double invRho, u, p, c;
  };

  template <EulerLike PDE>
  TESSERA_INLINE static Side sideOf(const PDE& pde, const typename PDE::State& q, int axis) {
    Side s;
    s.invRho = reciprocal(q[PDE::kDensity]);
    s.u = q[PDE::kMomentum + axis] * s.invRho;
    s.p = pde.pressure(q, s.invRho);
    s.c = squareRoot(pde.gamma * s.p * s.invRho);
    return s;
  }

  // The physical flux along the axis from the side's velocity and pressure: the same operations,
  // and so the same values, as the PDE's flux(q, axis).
  template <EulerLike PDE>
  TESSERA_INLINE static typename PDE::State physicalFlux(const typename PDE::State& q,
                                                         const Side& s, int axis) {
    typename PDE::State f;
    f[PDE::kDensity] = q[PDE::kMomentum + axis];
    for (int a = 0; a < PDE::kDim; ++a)
      f[PDE::kMomentum + a] = q[PDE::kMomentum + a] * s.u;
    f[PDE::kMomentum + axis] += s.p;
    f[PDE::kEnergy] = (q[PDE::kEnergy] + s.p) * s.u;
    return f;
  }

  // F_K + weight (U*_K - U_K) for side K (wave speed sK, mK = rho_K (S_K - u_K)); weight S_K, or
  // 0 for a supersonic side, whose star state may not exist (S_K = S*): F_K exactly then.
  template <EulerLike PDE>
  TESSERA_INLINE static typename PDE::State starSideFlux(const typename PDE::State& q,
                                                         const Side& s, int axis, double sK,
                                                         double weight, double sStar, double mK) {
    constexpr int kRho = PDE::kDensity, kE = PDE::kEnergy;
    const double scale = divide(mK, sK - sStar); // rho*_K
    typename PDE::State star;
    star[kRho] = scale;
    for (int v = PDE::kMomentum; v < PDE::kMomentum + PDE::kDim; ++v)
      star[v] = scale * (q[v] * s.invRho);
    star[PDE::kMomentum + axis] = scale * sStar;
    star[kE] = scale * (q[kE] * s.invRho + (sStar - s.u) * (sStar + divide(s.p, mK)));
    typename PDE::State F = physicalFlux<PDE>(q, s, axis);
    for (int v = 0; v < PDE::kNumVars; ++v)
      F[v] = weight == 0.0 ? F[v] : F[v] + weight * (star[v] - q[v]);
    return F;
  }
};

} // namespace tessera
