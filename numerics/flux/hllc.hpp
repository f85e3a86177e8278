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
// gas's pressure and ratio of specific heats; its primitive variables (toPrimitive) are density,
// velocity and pressure in the places of density, momentum and energy.
template <class PDE>
concept EulerLike = ConservationLaw<PDE> &&
    requires(const PDE& pde, const typename PDE::State& q, double invRho) {
  PDE::kDensity;
  PDE::kMomentum;
  PDE::kEnergy;
  { pde.pressure(q, invRho) } -> std::convertible_to<double>;
  { pde.gamma } -> std::convertible_to<double>;
};

// Two entry points on one solver: flux(pde, qL, qR, axis) on conserved states, and
// fluxOfPrimitive(pde, wL, wR, axis) on primitive ones (kTakesPrimitive), which a reconstruction
// in primitive variables hands its face states to as they are (cellFaces, faceFlux in
// numerics/reconstruct/cell_faces.hpp): no conversion to conserved variables and back per face
// state, 8% of the second-order stage on the device (benchmarks/RESULTS.md).
struct Hllc {
  static constexpr const char* kName = "hllc";
  static constexpr bool kTakesPrimitive = true;
  template <ConservationLaw PDE>
  static constexpr bool kAppliesTo = EulerLike<PDE>;

  template <EulerLike PDE>
  TESSERA_INLINE static typename PDE::State flux(const PDE& pde, const typename PDE::State& qL,
                                                 const typename PDE::State& qR, int axis) {
    return fluxOfSides<true>(pde, sideOfConserved(pde, qL), sideOfConserved(pde, qR), axis);
  }

  template <EulerLike PDE>
  TESSERA_INLINE static typename PDE::State
  fluxOfPrimitive(const PDE& pde, const typename PDE::State& wL, const typename PDE::State& wR,
                  int axis) {
    return fluxOfSides<false>(pde, sideOfPrimitive(pde, wL), sideOfPrimitive(pde, wR), axis);
  }

private:
  // A side's primitive state, its conserved state where the caller gave it (kept, so that a
  // supersonic face's flux is the PDE's physical flux of that state exactly; from primitive states
  // it is built for the side chosen only), 1 / rho and sound speed. One division and one square
  // root a side: on a GPU, divisions cost more than the rest of the flux together (they were two
  // thirds of the stage kernel's floating-point instructions); engine/arithmetic's, branch-free on
  // the device.
  template <EulerLike PDE>
  struct Side {
    typename PDE::State w, q;
    double invRho, c;
  };

  template <EulerLike PDE>
  TESSERA_INLINE static Side<PDE> sideOfPrimitive(const PDE& pde, const typename PDE::State& w) {
    Side<PDE> s;
    s.w = w;
    s.invRho = reciprocal(w[PDE::kDensity]);
    s.c = squareRoot(pde.gamma * w[PDE::kEnergy] * s.invRho);
    return s;
  }

  template <EulerLike PDE>
  TESSERA_INLINE static Side<PDE> sideOfConserved(const PDE& pde, const typename PDE::State& q) {
    Side<PDE> s;
    s.q = q;
    s.invRho = reciprocal(q[PDE::kDensity]);
    s.w[PDE::kDensity] = q[PDE::kDensity];
    for (int a = 0; a < PDE::kDim; ++a)
      s.w[PDE::kMomentum + a] = q[PDE::kMomentum + a] * s.invRho;
    s.w[PDE::kEnergy] = pde.pressure(q, s.invRho);
    s.c = squareRoot(pde.gamma * s.w[PDE::kEnergy] * s.invRho);
    return s;
  }

  // kConserved: the sides hold their conserved states.
  template <bool kConserved, EulerLike PDE>
  TESSERA_INLINE static typename PDE::State fluxOfSides(const PDE& pde, const Side<PDE>& l,
                                                        const Side<PDE>& r, int axis) {
    using State = typename PDE::State;
    constexpr int kRho = PDE::kDensity, kP = PDE::kEnergy;
    const int kUn = PDE::kMomentum + axis;
    const double uL = l.w[kUn], uR = r.w[kUn];
    const double sL = uL - l.c < uR - r.c ? uL - l.c : uR - r.c; // Davis's estimates
    const double sR = uL + l.c > uR + r.c ? uL + l.c : uR + r.c;
    const double mL = l.w[kRho] * (sL - uL), mR = r.w[kRho] * (sR - uR);
    // The normal momenta: the conserved states' own where given.
    const double jL = kConserved ? l.q[kUn] : l.w[kRho] * uL;
    const double jR = kConserved ? r.q[kUn] : r.w[kRho] * uR;
    // Grouped so that mirror-image data (sides swapped, normal velocity negated) give exactly the
    // negated S*; at S* = 0 both sides' star fluxes are averaged, which is mirror-symmetric too.
    const double sStar = divide((r.w[kP] - l.w[kP]) + (jL * (sL - uL) - jR * (sR - uR)), mL - mR);
    // F_L where S_L >= 0 or S* > 0 (S_R > 0), F_R where S_R <= 0 or S* < 0, else the mean. The
    // side is chosen first and one star flux computed, the supersonic cases included as the star
    // formula with weight 0 (F_K + 0 (U*_K - U_K) = F_K): on a GPU the threads of a warp then
    // take one path whichever case each face is in (2% of the second-order stage kernel).
    const bool left = sL >= 0.0 || (sR > 0.0 && sStar > 0.0);
    const bool right = !left && (sR <= 0.0 || sStar < 0.0);
    if (!left && !right) {
      const State FL = starSideFlux<kConserved>(pde, l, axis, sL, sL, sStar, mL);
      const State FR = starSideFlux<kConserved>(pde, r, axis, sR, sR, sStar, mR);
      State F;
      for (int v = 0; v < PDE::kNumVars; ++v)
        F[v] = 0.5 * (FL[v] + FR[v]);
      return F;
    }
    Side<PDE> side;
    for (int v = 0; v < PDE::kNumVars; ++v) {
      side.w[v] = left ? l.w[v] : r.w[v];
      if constexpr (kConserved)
        side.q[v] = left ? l.q[v] : r.q[v];
    }
    side.invRho = left ? l.invRho : r.invRho;
    side.c = left ? l.c : r.c;
    const double weight = left ? (sL >= 0.0 ? 0.0 : sL) : (sR <= 0.0 ? 0.0 : sR);
    return starSideFlux<kConserved>(pde, side, axis, left ? sL : sR, weight, sStar, left ? mL : mR);
  }

  // F_K + weight (U*_K - U_K) for side K (wave speed sK, mK = rho_K (S_K - u_K)); weight S_K, or
  // 0 for a supersonic side, whose star state may not exist (S_K = S*): F_K exactly then.
  template <bool kConserved, EulerLike PDE>
  TESSERA_INLINE static typename PDE::State starSideFlux(const PDE& pde, const Side<PDE>& s,
                                                         int axis, double sK, double weight,
                                                         double sStar, double mK) {
    constexpr int kRho = PDE::kDensity, kE = PDE::kEnergy;
    const int kUn = PDE::kMomentum + axis;
    const double u = s.w[kUn], p = s.w[kE];
    const typename PDE::State q = kConserved ? s.q : pde.toConserved(s.w);
    typename PDE::State F; // the physical flux along the axis
    F[kRho] = q[kUn];
    for (int a = 0; a < PDE::kDim; ++a)
      F[PDE::kMomentum + a] = q[PDE::kMomentum + a] * u;
    F[kUn] += p;
    F[kE] = (q[kE] + p) * u;
    const double scale = divide(mK, sK - sStar); // rho*_K
    typename PDE::State star;
    star[kRho] = scale;
    for (int a = 0; a < PDE::kDim; ++a)
      star[PDE::kMomentum + a] = scale * s.w[PDE::kMomentum + a];
    star[kUn] = scale * sStar;
    star[kE] = scale * (q[kE] * s.invRho + (sStar - u) * (sStar + divide(p, mK)));
    for (int v = 0; v < PDE::kNumVars; ++v)
      F[v] = weight == 0.0 ? F[v] : F[v] + weight * (star[v] - q[v]);
    return F;
  }
};

} // namespace tessera
