#pragma once
// One coarse face cell of one refluxing operation: the pointwise step of refluxing, shared by the
// host reflux and the device DeviceRefluxPlan, so the two compute bitwise equal corrections.
#include "engine/backend.hpp"
#include "patches/flux_register.hpp"
#include "patches/patch_layout.hpp"
#include "patches/prolong_restrict.hpp"

namespace tessera {

// Covered face cell f of a RefluxOp: the coarse cell it corrects, that cell's face in the coarse
// patch's register, and the 2^(Dim-1) fine face cells over it in the fine patch's register.
template <int Dim>
struct RefluxFaceCell {
  CellIndex<Dim> cell;
  int coarseT;
  int fineT[1 << (Dim - 1)]; // k = the bits of the offsets along the face's axes, x first
};

// The face cells a fine patch covers of its coarse neighbour's face: (N/2)^(Dim-1).
template <int Dim>
TESSERA_INLINE int refluxCoveredCells(int cellsPerAxis) {
  int c = 1;
  for (int a = 1; a < Dim; ++a)
    c *= cellsPerAxis / 2;
  return c;
}

// Face cell f in [0, refluxCoveredCells) of op, on patches of cellsPerAxis cells per axis.
template <int Dim>
TESSERA_INLINE RefluxFaceCell<Dim> refluxFaceCell(const RefluxOp<Dim>& op, int cellsPerAxis,
                                                  int f) {
  const int n = cellsPerAxis, half = n / 2;
  // The other axes of the face, in register order (x fastest).
  int other[Dim - 1];
  for (int a = 0, m = 0; a < Dim; ++a)
    if (a != op.axis)
      other[m++] = a;
  RefluxFaceCell<Dim> face{};
  face.cell[op.axis] = op.side == 1 ? n - 1 : 0;
  int fineBase[Dim - 1];
  for (int m = 0, r = f, stride = 1; m < Dim - 1; ++m, r /= half, stride *= n) {
    const int tc = op.child[other[m]] * half + r % half; // along other[m], coarse cells
    face.coarseT += tc * stride;
    face.cell[other[m]] = tc;
    fineBase[m] = 2 * (r % half);
  }
  for (int k = 0; k < (1 << (Dim - 1)); ++k) {
    face.fineT[k] = 0;
    for (int m = 0, s = 1; m < Dim - 1; ++m, s *= n)
      face.fineT[k] += (fineBase[m] + ((k >> m) & 1)) * s;
  }
  return face;
}

// Which part of a coarse patch's face along `axis` holds cell c: bit m is the half it lies in
// along the face's m-th other axis (x first), as RefluxOp::child names the part a fine patch
// covers.
template <int Dim>
TESSERA_INLINE int refluxFacePart(CellIndex<Dim> c, int axis, int cellsPerAxis) {
  int part = 0;
  for (int a = 0, m = 0; a < Dim; ++a)
    if (a != axis)
      part |= int(c[a] >= cellsPerAxis / 2) << m++;
  return part;
}

// The face cell f of op (refluxFaceCell's argument) that is coarse cell c, a cell of the part of
// the face op covers.
template <int Dim>
TESSERA_INLINE int refluxFaceCellOf(const RefluxOp<Dim>& op, CellIndex<Dim> c, int cellsPerAxis) {
  const int half = cellsPerAxis / 2;
  int f = 0;
  for (int a = 0, stride = 1; a < Dim; ++a)
    if (a != op.axis) {
      f += (c[a] - op.child[a] * half) * stride;
      stride *= half;
    }
  return f;
}

// A patch's part in refluxing, one int a patch (RefluxPlanView::refluxFaces): bit 2 a + s where
// refluxing corrects its face (a, s) (the face's side s, 0 lower and 1 upper), and bit
// kRegisteredFaceBit + 2 a + s where the flux register must hold that face's fluxes, which a
// correction reads (the corrected face's own, and a finer patch's across it). An update writes
// only those faces' fluxes: a patch's whole boundary is a sixth of what its update moves, and most
// faces have no coarser or finer neighbour.
inline constexpr int kRegisteredFaceBit = 8;
// Every face registered, none corrected: where no plan says which (ranks exchange every face).
template <int Dim>
inline constexpr int kEveryFaceRegistered = ((1 << 2 * Dim) - 1) << kRegisteredFaceBit;

TESSERA_INLINE int correctedFaces(int refluxFaces) {
  return refluxFaces & ((1 << kRegisteredFaceBit) - 1);
}
TESSERA_INLINE bool registersFace(int refluxFaces, int face) {
  return (refluxFaces >> (kRegisteredFaceBit + face)) & 1;
}

// The faces whose layer interior cell c lies in: bit 2 a + s for the lower (s = 0) and upper
// (s = 1) face along axis a, the bits a patch's corrected faces are named by.
template <int Dim>
TESSERA_INLINE int faceLayersOf(CellIndex<Dim> c, int cellsPerAxis) {
  int layers = 0;
  for (int a = 0; a < Dim; ++a)
    layers |= int(c[a] == 0) << (2 * a) | int(c[a] == cellsPerAxis - 1) << (2 * a + 1);
  return layers;
}

// What refluxing adds to variable `var` of face.cell: ratio (= dt / dx along op.axis) times the
// coarse face flux minus the mean of the fine ones, signed by the face's side.
template <int Dim>
TESSERA_INLINE double refluxCorrection(const RefluxOp<Dim>& op, const RefluxFaceCell<Dim>& face,
                                       const FluxRegisterLayout<Dim>& registers,
                                       const double* fluxRegister, double ratio, int var) {
  double fluxes[1 << (Dim - 1)];
  for (int k = 0; k < (1 << (Dim - 1)); ++k)
    fluxes[k] =
        fluxRegister[registers.index(op.finePatch, op.axis, 1 - op.side, var, face.fineT[k])];
  const double fine = symmetricMean<Dim - 1>(fluxes);
  const double coarse =
      fluxRegister[registers.index(op.coarsePatch, op.axis, op.side, var, face.coarseT)];
  const double sign = op.side == 1 ? 1.0 : -1.0;
  return sign * ratio * (coarse - fine);
}

} // namespace tessera
