#pragma once
// The pointwise pieces of the unstructured Euler solver's implicit matrix, host and device: each
// face's Rusanov or Roe Jacobians (solvers/unstructured/euler_jacobian.hpp) seen from its owner,
// the contribution that the atomics library's face scatter adds to the diagonal blocks, and the
// face's own two off-diagonal blocks.
//
// The matrix is that of backward Euler in pseudo-time with R = V dq/dt = -(the fluxes leaving a
// cell): (V / dtau I - dR/dq) dQ = R. A face's flux F leaves its owner and enters its neighbour,
// so it adds +dF/dqL to the owner's diagonal and +dF/dqR at (owner, neighbour), -dF/dqR to the
// neighbour's diagonal and -dF/dqL at (neighbour, owner).
#include "solvers/unstructured/euler_jacobian.hpp"
#include "solvers/unstructured/unstructured_face_flux.hpp"

namespace tessera {

// dF/d(owner's state) and dF/d(neighbour's state) of a face. On the boundary the outer state
// follows the inner one, G = d(outer)/d(inner), so the owner's block is dF/dqL + dF/dqR G and the
// neighbour's is unused.
TESSERA_INLINE FaceFluxJacobians faceJacobians(const Euler<3>& pde, const UnstructuredFaces& faces,
                                               const double* q, const Euler<3>::State& farfield,
                                               int face, JacobianFlux flux) {
  const FaceSides s = faceSides(faces, q, farfield, face);
  FaceFluxJacobians J =
      flux == JacobianFlux::Roe
          ? roeJacobians(pde, s.inner, s.outer, s.area, s.length, s.normal)
          : rusanovJacobians(pde, s.inner, s.outer, s.area, rusanovCoefficient(pde, s));
  if (faces.neighbour[face] < 0) {
    const JacobianBlock chain =
        blockProduct(J.right, outerStateJacobian(faces.kind[face], s.normal));
    for (int k = 0; k < 25; ++k)
      J.left[k] += chain[k];
  }
  return J;
}

// The pseudo-time part of a diagonal block, V / dtau I, which the face scatter then adds to.
TESSERA_INLINE void pseudoTimeDiagonal(double volume, double dtau, double* block) {
  for (int k = 0; k < 25; ++k)
    block[k] = 0.0;
  for (int i = 0; i < 5; ++i)
    block[6 * i] = volume / dtau;
}

// What a face adds to the diagonal blocks: +dF/dqL to the owner's, -dF/dqR to the neighbour's.
TESSERA_INLINE void diagonalContributions(const FaceFluxJacobians& J, double* toOwner,
                                          double* toNeighbour) {
  for (int k = 0; k < 25; ++k) {
    toOwner[k] = J.left[k];
    toNeighbour[k] = -J.right[k];
  }
}

// The face scatter's contribution (K = 25) to the diagonal blocks.
struct EulerFaceJacobianDiagonal {
  Euler<3> pde;
  UnstructuredFaces faces;
  const double* q = nullptr;
  Euler<3>::State farfield = Euler<3>::State::filled(0.0);
  JacobianFlux flux = JacobianFlux::Rusanov;

  TESSERA_INLINE void operator()(int face, double* toOwner, double* toNeighbour) const {
    diagonalContributions(faceJacobians(pde, faces, q, farfield, face, flux), toOwner, toNeighbour);
  }
};

// The two off-diagonal blocks of an interior face, (owner, neighbour) = +dF/dqR and
// (neighbour, owner) = -dF/dqL, stored at offdiagonal[slots[2 face]] and [slots[2 face + 1]]
// (block indices in the matrix's pattern). No other face touches them, so faces write them in
// parallel without atomics; T is the precision policy's off-diagonal type.
template <class T>
struct EulerFaceJacobianOffdiagonal {
  Euler<3> pde;
  UnstructuredFaces faces;
  const double* q = nullptr;
  Euler<3>::State farfield = Euler<3>::State::filled(0.0);
  const int* slots = nullptr;
  T* offdiagonal = nullptr;
  JacobianFlux flux = JacobianFlux::Rusanov;

  TESSERA_INLINE void operator()(int face) const {
    if (faces.neighbour[face] >= 0)
      write(face, faceJacobians(pde, faces, q, farfield, face, flux));
  }

  // The blocks of interior face `face` from its Jacobians J.
  TESSERA_INLINE void write(int face, const FaceFluxJacobians& J) const {
    T* ownerRow = offdiagonal + 25 * slots[2 * face];
    T* neighbourRow = offdiagonal + 25 * slots[2 * face + 1];
    for (int k = 0; k < 25; ++k) {
      ownerRow[k] = T(J.right[k]);
      neighbourRow[k] = T(-J.left[k]);
    }
  }
};

// Both from one evaluation of a face's Jacobians: the diagonal contributions for the face scatter
// and, on the side, the face's off-diagonal blocks. Only for the scatter strategies that evaluate
// each face once (atomics::evaluatesEachFaceOnce), so that each block has one writer.
template <class T>
struct EulerFaceJacobianBlocks {
  EulerFaceJacobianOffdiagonal<T> offdiagonal;

  TESSERA_INLINE void operator()(int face, double* toOwner, double* toNeighbour) const {
    const EulerFaceJacobianOffdiagonal<T>& o = offdiagonal;
    const FaceFluxJacobians J = faceJacobians(o.pde, o.faces, o.q, o.farfield, face, o.flux);
    diagonalContributions(J, toOwner, toNeighbour);
    if (o.faces.neighbour[face] >= 0)
      o.write(face, J);
  }
};

} // namespace tessera
