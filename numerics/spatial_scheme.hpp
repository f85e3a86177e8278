#pragma once
// The spatial scheme of a run as data (reconstruction, limiter, Riemann solver), chosen at run
// time, and its one dispatch to compile-time policies: withSpatialScheme hands a visitor the
// policy types, so that each kernel is instantiated once per combination and nothing inside it
// tests the choice. Every kernel that a scheme drives is dispatched here, so a new policy is
// added in this file and its own header.
#include <stdexcept>
#include <string>
#include <string_view>

#include "numerics/flux/hllc.hpp"
#include "numerics/flux/hlle.hpp"
#include "numerics/flux/rusanov.hpp"
#include "numerics/reconstruct/donor_cell.hpp"
#include "numerics/reconstruct/limiters.hpp"
#include "numerics/reconstruct/plm.hpp"
#include "physics/conservation_law.hpp"

namespace tessera {

enum class ReconstructionKind { DonorCell, Plm };
enum class LimiterKind { Minmod, VanLeer, MonotonizedCentral, None };
enum class RiemannSolverKind { Rusanov, Hlle, Hllc };

struct SpatialScheme {
  ReconstructionKind reconstruction = ReconstructionKind::DonorCell;
  LimiterKind limiter = LimiterKind::VanLeer; // PLM only
  RiemannSolverKind riemannSolver = RiemannSolverKind::Rusanov;

  // Halo cells the scheme reads on each side of a patch.
  constexpr int halo() const { return reconstruction == ReconstructionKind::DonorCell ? 1 : 2; }
  constexpr bool firstOrderRusanov() const {
    return reconstruction == ReconstructionKind::DonorCell &&
           riemannSolver == RiemannSolverKind::Rusanov;
  }
  friend constexpr bool operator==(const SpatialScheme&, const SpatialScheme&) = default;
};

// Names as the case file spells them.
inline constexpr std::string_view kReconstructionNames[] = {"donor_cell", "plm"};
inline constexpr std::string_view kLimiterNames[] = {"minmod", "van_leer", "mc", "none"};
inline constexpr std::string_view kRiemannSolverNames[] = {"rusanov", "hlle", "hllc"};

inline std::string describe(const SpatialScheme& s) {
  std::string d(kReconstructionNames[int(s.reconstruction)]);
  if (s.reconstruction == ReconstructionKind::Plm)
    d += " (" + std::string(kLimiterNames[int(s.limiter)]) + ")";
  return d + " + " + std::string(kRiemannSolverNames[int(s.riemannSolver)]);
}

// Whether the Riemann solver applies to the PDE (HLLC needs the Euler equations' variables).
template <ConservationLaw PDE>
constexpr bool riemannSolverApplies(RiemannSolverKind kind) {
  switch (kind) {
  case RiemannSolverKind::Rusanov:
    return Rusanov::kAppliesTo<PDE>;
  case RiemannSolverKind::Hlle:
    return Hlle::kAppliesTo<PDE>;
  case RiemannSolverKind::Hllc:
    return Hllc::kAppliesTo<PDE>;
  }
  return false;
}

namespace detail {

template <ConservationLaw PDE, class Recon, class Visitor>
decltype(auto) withRiemannSolver(RiemannSolverKind kind, Visitor&& visit) {
  switch (kind) {
  case RiemannSolverKind::Hlle:
    return visit.template operator()<Recon, Hlle>();
  case RiemannSolverKind::Hllc:
    if constexpr (Hllc::kAppliesTo<PDE>)
      return visit.template operator()<Recon, Hllc>();
    else
      throw std::invalid_argument("the HLLC Riemann solver needs the Euler equations");
  case RiemannSolverKind::Rusanov:
    break;
  }
  return visit.template operator()<Recon, Rusanov>();
}

} // namespace detail

// visit.template operator()<Reconstruction, RiemannSolver>() for the scheme's policies.
template <ConservationLaw PDE, class Visitor>
decltype(auto) withSpatialScheme(const SpatialScheme& scheme, Visitor&& visit) {
  if (scheme.reconstruction == ReconstructionKind::DonorCell)
    return detail::withRiemannSolver<PDE, DonorCell>(scheme.riemannSolver, visit);
  switch (scheme.limiter) {
  case LimiterKind::Minmod:
    return detail::withRiemannSolver<PDE, Plm<Minmod>>(scheme.riemannSolver, visit);
  case LimiterKind::MonotonizedCentral:
    return detail::withRiemannSolver<PDE, Plm<MonotonizedCentral>>(scheme.riemannSolver, visit);
  case LimiterKind::None:
    return detail::withRiemannSolver<PDE, Plm<Unlimited>>(scheme.riemannSolver, visit);
  case LimiterKind::VanLeer:
    break;
  }
  return detail::withRiemannSolver<PDE, Plm<VanLeer>>(scheme.riemannSolver, visit);
}

} // namespace tessera
