#pragma once
// The implicit solver's steady test case: a subsonic channel (Mach 0.5 along x) over a bump,
// [0, 3] x [0, 1] x [0, 0.2] with h(x) = 0.1 sin^2(pi (x - 1)) on [1, 2] (engine/unstructured/
// bump.hpp), one cell thick in z unless asked: farfield in and out (the freestream rho = 1.4,
// p = 1, so c = 1), slip walls below and above, symmetry planes on the z sides.
#include "engine/unstructured/box_mesh.hpp"
#include "engine/unstructured/bump.hpp"
#include "solvers/unstructured/unstructured_boundary.hpp"

namespace tessera::test {

struct BumpChannel {
  int nx = 24, ny = 8, nz = 1;
  unstructured::BoxCells cells = unstructured::BoxCells::Hexahedra;
  double thickness = 0.2; // along z
};

inline unstructured::Mesh bumpChannelMesh(const BumpChannel& channel) {
  unstructured::BoxMeshSpec spec;
  spec.lo = {0.0, 0.0, 0.0};
  spec.hi = {3.0, 1.0, channel.thickness};
  spec.nx = channel.nx;
  spec.ny = channel.ny;
  spec.nz = channel.nz;
  spec.cells = channel.cells;
  unstructured::MeshDescription description = unstructured::boxMesh(spec);
  unstructured::applyBump(description, {.height = 0.1, .from = 1.0, .to = 2.0}, 0.0, 1.0);
  return unstructured::buildMesh(description);
}

inline Euler<3>::State bumpFreestream(const Euler<3>& pde) {
  return pde.toConserved({{1.4, 0.5, 0.0, 0.0, 1.0}});
}

// Box tags: xlo 1, xhi 2, ylo 3, yhi 4, zlo 5, zhi 6.
inline UnstructuredBoundary bumpChannelBoundary(const Euler<3>& pde) {
  UnstructuredBoundary boundary;
  boundary.kindOfTag = {{1, FaceKind::Farfield}, {2, FaceKind::Farfield}, {3, FaceKind::SlipWall},
                        {4, FaceKind::SlipWall}, {5, FaceKind::Symmetry}, {6, FaceKind::Symmetry}};
  boundary.farfield = bumpFreestream(pde);
  return boundary;
}

} // namespace tessera::test
