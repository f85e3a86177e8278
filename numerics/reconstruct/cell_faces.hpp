#pragma once
// A cell's states at its lower and upper face along one axis, from itself and its neighbours
// along that axis, ready for the Riemann solver: the one place where a reconstruction policy
// (donor_cell.hpp, plm.hpp) meets the PDE and the Riemann solver. The face states are conserved
// variables, or primitive ones where the reconstruction works on primitive variables and the
// Riemann solver takes them (Flux::kTakesPrimitive, Flux::fluxOfPrimitive: HLLC), which saves a
// conversion to conserved variables and back per face state; faceFlux calls whichever fits.
//
// Positivity: a PDE may say which primitive states it admits (admissible(w); Euler: density and
// pressure above zero). Where either reconstructed face state of a cell is not admissible, the
// cell falls back to first order (its own state at both faces) and says so, so that strong
// rarefactions and blasts into near vacuum run on at second order elsewhere.
#include "engine/backend.hpp"
#include "physics/conservation_law.hpp"
#include "physics/optional_members.hpp"

namespace tessera {

template <ConservationLaw PDE>
struct CellFaces {
  typename PDE::State lower, upper; // conserved, or primitive (kPrimitiveFaces)
  bool firstOrder;                  // the positivity fallback was taken
};

// The variables Recon works on, of a conserved state: primitive or conserved.
template <class Recon, ConservationLaw PDE>
TESSERA_INLINE typename PDE::State reconstructedVariables(const PDE& pde,
                                                          const typename PDE::State& q) {
  if constexpr (Recon::kPrimitive)
    return pde.toPrimitive(q);
  else
    return q;
}

template <ConservationLaw PDE>
TESSERA_INLINE bool admissiblePrimitive(const PDE& pde, const typename PDE::State& w) {
  if constexpr (ProvidesAdmissible<PDE>)
    return pde.admissible(w);
  else
    return true;
}

// Whether a Riemann solver takes primitive face states (Flux::kTakesPrimitive).
template <class Flux>
constexpr bool takesPrimitive() {
  if constexpr (requires { Flux::kTakesPrimitive; })
    return Flux::kTakesPrimitive;
  else
    return false;
}

// Whether cellFaces<Recon, Flux> hands Flux primitive face states.
template <class Recon, class Flux>
constexpr bool kPrimitiveFaces = takesPrimitive<Flux>() && Recon::kPrimitive;

// below, v, above: the reconstructed variables of the cells i - 1, i, i + 1; q: cell i's
// conserved state. Flux: the Riemann solver the faces go to (none: conserved face states).
template <class Recon, class Flux = void, ConservationLaw PDE>
TESSERA_INLINE CellFaces<PDE>
cellFaces(const PDE& pde, const typename PDE::State& below, const typename PDE::State& v,
          const typename PDE::State& above, const typename PDE::State& q) {
  CellFaces<PDE> f;
  Recon::faces(below, v, above, f.lower, f.upper);
  f.firstOrder = false;
  if constexpr (Recon::kPrimitive) {
    constexpr bool kPrimitive = kPrimitiveFaces<Recon, Flux>;
    if (!admissiblePrimitive(pde, f.lower) || !admissiblePrimitive(pde, f.upper)) {
      f.lower = kPrimitive ? v : q;
      f.upper = f.lower;
      f.firstOrder = true;
    } else if constexpr (!kPrimitive) {
      f.lower = pde.toConserved(f.lower);
      f.upper = pde.toConserved(f.upper);
    }
  }
  return f;
}

// Flux's flux between the face states that cellFaces<Recon, Flux> made on either side of a face.
template <class Recon, class Flux, ConservationLaw PDE>
TESSERA_INLINE typename PDE::State faceFlux(const PDE& pde, const typename PDE::State& left,
                                            const typename PDE::State& right, int axis) {
  if constexpr (kPrimitiveFaces<Recon, Flux>)
    return Flux::fluxOfPrimitive(pde, left, right, axis);
  else
    return Flux::flux(pde, left, right, axis);
}

} // namespace tessera
