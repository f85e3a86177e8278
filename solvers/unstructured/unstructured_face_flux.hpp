#pragma once
// The pointwise pieces of the unstructured Euler solver, written once for the host and the device:
// the contributions that the atomics library's face scatter adds to the cells (the Rusanov flux,
// 5 values per face, and the face's wave speed times its area, 1 value) and each cell's stable
// time step. Each contribution is a small value type holding raw pointers into the memory space
// the scatter runs in.
#include "engine/backend.hpp"
#include "numerics/flux/rusanov.hpp"
#include "numerics/time/runge_kutta.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/unstructured/unstructured_boundary.hpp"

namespace tessera {

// The faces as the contributions read them, in one memory space.
struct UnstructuredFaces {
  const int* owner = nullptr;
  const int* neighbour = nullptr; // -1 on the boundary
  const double* area = nullptr;   // area vector per face (3 values): owner to neighbour, outward
  const FaceKind* kind = nullptr;
};

// A face seen from its owner: the area vector S, its length and the unit normal.
struct FaceGeometry {
  Vec<double, 3> area, normal;
  double length;
};

TESSERA_INLINE FaceGeometry faceGeometry(const UnstructuredFaces& faces, int face) {
  FaceGeometry g;
  for (int a = 0; a < 3; ++a)
    g.area[a] = faces.area[3 * face + a];
  g.length = std::sqrt(g.area[0] * g.area[0] + g.area[1] * g.area[1] + g.area[2] * g.area[2]);
  for (int a = 0; a < 3; ++a)
    g.normal[a] = g.area[a] / g.length;
  return g;
}

// A face seen from its owner: its geometry and the states on both sides (the outer one from the
// boundary condition on the boundary).
struct FaceSides : FaceGeometry {
  Euler<3>::State inner, outer;
};

// q: conserved states, [cell][5]; farfield: the conserved freestream state.
TESSERA_INLINE FaceSides faceSides(const UnstructuredFaces& faces, const double* q,
                                   const Euler<3>::State& farfield, int face) {
  FaceSides s;
  static_cast<FaceGeometry&>(s) = faceGeometry(faces, face);
  const int owner = faces.owner[face], neighbour = faces.neighbour[face];
  for (int v = 0; v < 5; ++v)
    s.inner[v] = q[5 * owner + v];
  if (neighbour >= 0) {
    for (int v = 0; v < 5; ++v)
      s.outer[v] = q[5 * neighbour + v];
  } else {
    s.outer = outerState(faces.kind[face], s.inner, s.normal, farfield);
  }
  return s;
}

// The Rusanov coefficient of a face, s = |S| times the larger of the two sides' |u.n| + c.
TESSERA_INLINE double rusanovCoefficient(const Euler<3>& pde, const FaceSides& s) {
  const double inner = pde.maxEigenvalueAlong(s.inner, s.normal);
  const double outer = pde.maxEigenvalueAlong(s.outer, s.normal);
  return s.length * (inner > outer ? inner : outer);
}

// The first-order Rusanov flux in conserved variables, the flux the implicit solver's Jacobian
// linearises (solvers/unstructured/unstructured_face_jacobian.hpp); the residual itself is
// MusclFaceFlux (muscl_bodies.hpp), which gives this flux up to round-off at first order with
// Rusanov. The Rusanov flux through a face, F.S = (f(qL) + f(qR)).S / 2 - s (qR - qL) / 2 with
// f.S = sum_a S_a f_a (the patches' physical flux along each axis) and s = |S| times the larger
// of the two sides' |u.n| + c. The owner loses it and the neighbour gains it: the scatter sums
// V dq/dt = -(the fluxes leaving the cell). Where both sides hold the same state the flux is
// exactly f.S, so a uniform state changes only by the round-off of the faces' closure.
struct EulerFaceFlux {
  Euler<3> pde;
  UnstructuredFaces faces;
  const double* q = nullptr;
  Euler<3>::State farfield = Euler<3>::State::filled(0.0);

  TESSERA_INLINE void operator()(int face, double* toOwner, double* toNeighbour) const {
    const FaceSides s = faceSides(faces, q, farfield, face);
    Euler<3>::State fL = Euler<3>::State::filled(0.0), fR = fL;
    for (int a = 0; a < 3; ++a) {
      const Euler<3>::State gL = pde.flux(s.inner, a), gR = pde.flux(s.outer, a);
      for (int v = 0; v < 5; ++v) {
        fL[v] += s.area[a] * gL[v];
        fR[v] += s.area[a] * gR[v];
      }
    }
    const Euler<3>::State F = rusanovFaceFlux(s.inner, s.outer, fL, fR,
                                              s.length * pde.maxEigenvalueAlong(s.inner, s.normal),
                                              s.length * pde.maxEigenvalueAlong(s.outer, s.normal));
    for (int v = 0; v < 5; ++v) {
      toOwner[v] = -F[v];
      toNeighbour[v] = F[v];
    }
  }
};

// The Rusanov coefficient of a face, s = |S| max(|u.n| + c) over its two sides, to both cells:
// their sums bound the time step (cellStableStep).
struct EulerFaceSpeed {
  Euler<3> pde;
  UnstructuredFaces faces;
  const double* q = nullptr;
  Euler<3>::State farfield = Euler<3>::State::filled(0.0);

  TESSERA_INLINE void operator()(int face, double* toOwner, double* toNeighbour) const {
    toOwner[0] = toNeighbour[0] = rusanovCoefficient(pde, faceSides(faces, q, farfield, face));
  }
};

// The largest stable forward Euler step of one cell, V / sum over its faces of s_f: the update is
// then a convex combination of one-dimensional Lax-Friedrichs steps across the faces, weighted by
// s_f / sum s, each of which has the CFL number cfl itself, so a CFL number up to 1 keeps density
// and pressure positive. -1 marks a cell with no positive density or pressure or no finite step
// (NaN fails every comparison), so that a min-reduction finds it.
TESSERA_INLINE double cellStableStep(const Euler<3>& pde, const double* q, double volume,
                                     double speedSum) {
  Euler<3>::State s;
  for (int v = 0; v < 5; ++v)
    s[v] = q[v];
  const double step = volume / speedSum;
  const bool physical = s[Euler<3>::kDensity] > 0.0 && pde.pressure(s) > 0.0 && step < INFINITY;
  return physical ? step : -1.0;
}

// One Runge-Kutta stage of one cell (numerics/time/runge_kutta.hpp):
//   q = keep q0 + advance (q + factor r),  factor = dt / V,
// q0 the step's first state (q itself for a one-stage method, where keep = 0).
TESSERA_INLINE void rungeKuttaStage(const RungeKuttaStage& stage, double factor, const double* q0,
                                    const double* r, double* q) {
  for (int v = 0; v < 5; ++v)
    q[v] = stage.keep * q0[v] + stage.advance * (q[v] + factor * r[v]);
}

} // namespace tessera
