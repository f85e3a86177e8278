#pragma once
// The pointwise pieces of the unstructured solver's residual, first or second order, the same
// code on the host and on the device (solvers/unstructured/unstructured_residual.hpp runs them):
//
//   PrimitiveCells        w_c = (rho, u, v, w, p) of each cell's conserved state;
//   LimitGradients        each cell's gradient of w scaled per variable by the smallest limiter
//                         value over its faces (numerics/reconstruct/cell_limiters.hpp), from the
//                         min/max of w over the cell and its face neighbours;
//   MusclFaceFlux         MUSCL: the face states w_c + grad_c.(x_f - x_c) of both cells (the outer
//                         state of a boundary face from its condition applied to the inner one),
//                         each face's Riemann-solver flux through it
//                         (numerics/flux/normal_flux.hpp) times its area; first order without the
//                         gradient terms;
//   FirstOrderFaces       1 per face where a reconstructed state is no gas (rho <= 0 or p <= 0)
//                         and the face fell back to the cells' own states, 0 elsewhere.
#include "engine/backend.hpp"
#include "numerics/flux/normal_flux.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/unstructured/mesh_loop_plan.hpp"
#include "solvers/unstructured/unstructured_boundary.hpp"
#include "solvers/unstructured/unstructured_face_flux.hpp"

namespace tessera {

struct PrimitiveCells {
  Euler<3> pde;
  const double* q;
  double* w;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    Euler<3>::State s;
    for (int v = 0; v < 5; ++v)
      s[v] = q[5 * c + v];
    const Euler<3>::State p = pde.toPrimitive(s);
    for (int v = 0; v < 5; ++v)
      w[5 * c + v] = p[v];
  }
};

// minMax as the mesh loops' MinMax kernel writes it ([cell][5 minima, 5 maxima]); eps2 =
// (K h / L)^3 with h the cell's size and L the scheme's reference length (Venkatakrishnan's
// threshold, free of the mesh's unit; the others ignore it). grad is limited in place; phi
// ([cell][5]) keeps the factors.
template <class Limiter>
struct LimitGradients {
  unstructured::MeshLoopView m;
  const double* w;
  const double* minMax;
  double kPerLength; // K / L
  double* grad;
  double* phi;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    const double h = kPerLength * m.cellSize[c];
    const double eps2 = h * h * h;
    double limit[5] = {1.0, 1.0, 1.0, 1.0, 1.0};
    for (int s = m.cellFaceOffsets[c]; s < m.cellFaceOffsets[c + 1]; ++s) {
      const int f = m.cellFaces[s];
      const double* r = m.faceOffset + 6 * f + (m.owner[f] == c ? 0 : 3);
      for (int k = 0; k < 5; ++k) {
        const double* g = grad + 15 * c + 3 * k;
        const double d = g[0] * r[0] + g[1] * r[1] + g[2] * r[2];
        const double wc = w[5 * c + k];
        const double l =
            Limiter::faceLimit(d, minMax[10 * c + 5 + k] - wc, minMax[10 * c + k] - wc, eps2);
        limit[k] = l < limit[k] ? l : limit[k];
      }
    }
    for (int k = 0; k < 5; ++k) {
      for (int a = 0; a < 3; ++a)
        grad[15 * c + 3 * k + a] *= limit[k];
      phi[5 * c + k] = limit[k];
    }
  }
};

// The primitive face states of a face: reconstructed where grad is given (second order), the
// cells' own otherwise or where a reconstructed one is no gas; the outer state of a boundary face
// from its condition.
struct FaceStates {
  Euler<3>::State inner, outer; // conserved
  bool firstOrder;
};

TESSERA_INLINE Euler<3>::State reconstructed(const double* w, const double* grad, const double* r,
                                             int c) {
  Euler<3>::State s;
  for (int k = 0; k < 5; ++k) {
    s[k] = w[5 * c + k];
    if (grad != nullptr) {
      const double* g = grad + 15 * c + 3 * k;
      s[k] += g[0] * r[0] + g[1] * r[1] + g[2] * r[2];
    }
  }
  return s;
}

TESSERA_INLINE FaceStates faceStates(const Euler<3>& pde, const UnstructuredFaces& faces,
                                     const double* faceOffset, const double* w, const double* grad,
                                     const Euler<3>::State& farfield, const Vec<double, 3>& normal,
                                     int f) {
  const int o = faces.owner[f], n = faces.neighbour[f];
  Euler<3>::State wL = reconstructed(w, grad, faceOffset + 6 * f, o), wR{};
  if (n >= 0)
    wR = reconstructed(w, grad, faceOffset + 6 * f + 3, n);
  FaceStates s;
  s.firstOrder = grad != nullptr && !(pde.admissible(wL) && (n < 0 || pde.admissible(wR)));
  if (s.firstOrder) {
    wL = reconstructed(w, nullptr, nullptr, o);
    if (n >= 0)
      wR = reconstructed(w, nullptr, nullptr, n);
  }
  s.inner = pde.toConserved(wL);
  s.outer = n >= 0 ? pde.toConserved(wR) : outerState(faces.kind[f], s.inner, normal, farfield);
  return s;
}

// The flux F.S through each face, from the owner to the neighbour: the owner loses it, the
// neighbour gains it (the scatter sums V dq/dt = -(the fluxes leaving the cell)). grad == nullptr:
// first order. Where both sides hold the same state the flux is f(q).S up to round-off, so a
// uniform state changes only by the round-off of the faces' closure.
template <class RiemannSolver>
struct MusclFaceFlux {
  Euler<3> pde;
  UnstructuredFaces faces;
  const double* faceOffset = nullptr;
  const double* w = nullptr;    // primitive, [cell][5]
  const double* grad = nullptr; // limited gradients of w, [cell][5][3], or nullptr
  Euler<3>::State farfield = Euler<3>::State::filled(0.0);

  TESSERA_INLINE void operator()(int face, double* toOwner, double* toNeighbour) const {
    const FaceGeometry g = faceGeometry(faces, face);
    const FaceStates s = faceStates(pde, faces, faceOffset, w, grad, farfield, g.normal, face);
    const Euler<3>::State F =
        normalFlux<RiemannSolver>(pde, s.inner, s.outer, FaceFrame::along(g.normal));
    for (int v = 0; v < 5; ++v) {
      toOwner[v] = -g.length * F[v];
      toNeighbour[v] = g.length * F[v];
    }
  }
};

// What a MusclFaceFlux holds, without its Riemann solver: what a caller hands to the device code,
// which instantiates the flux for the scheme's solver.
struct MusclFluxParts {
  Euler<3> pde;
  UnstructuredFaces faces;
  const double* faceOffset = nullptr;
  const double* w = nullptr;
  const double* grad = nullptr;
  Euler<3>::State farfield = Euler<3>::State::filled(0.0);
};

// The reconstructed inner state (conserved) of each listed face: what a surface output shows.
struct InnerFaceStates {
  MusclFluxParts parts;
  const int* faces = nullptr;
  double* out = nullptr; // [5 per listed face]
  TESSERA_HOST_DEVICE void operator()(int i) const {
    const int f = faces[i];
    const FaceGeometry g = faceGeometry(parts.faces, f);
    const FaceStates s = faceStates(parts.pde, parts.faces, parts.faceOffset, parts.w, parts.grad,
                                    parts.farfield, g.normal, f);
    for (int v = 0; v < 5; ++v)
      out[5 * i + v] = s.inner[v];
  }
};

// The flag looks at the reconstructed states only: the parts' far field plays no part in it.
struct FirstOrderFaces {
  MusclFluxParts parts;
  double* flag = nullptr; // per face
  TESSERA_HOST_DEVICE void operator()(int f) const {
    const FaceGeometry g = faceGeometry(parts.faces, f);
    flag[f] = faceStates(parts.pde, parts.faces, parts.faceOffset, parts.w, parts.grad,
                         parts.farfield, g.normal, f)
                      .firstOrder
                  ? 1.0
                  : 0.0;
  }
};

} // namespace tessera
