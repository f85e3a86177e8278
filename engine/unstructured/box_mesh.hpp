#pragma once
// Box meshes for tests and benchmarks: [lo, hi] cut into nx x ny x nz cubes, each kept as a
// hexahedron or split into prisms, tetrahedra or pyramids, all faces conforming.
#include <cstdint>

#include "engine/unstructured/mesh.hpp"

namespace tessera::unstructured {

enum class BoxCells : std::uint8_t {
  Hexahedra,
  // Two prisms per cube, cut along the x-y diagonal from (i, j) to (i+1, j+1) and extruded in z.
  Prisms,
  // Six tetrahedra per cube around its diagonal from the low to the high corner (Kuhn's split):
  // every cube face is cut along its own low-to-high diagonal, the same line for both cubes.
  Tetrahedra,
  // Layers in z, all four shapes: hexahedra; one layer of cubes each split into a pyramid over its
  // bottom quad (apex at the high corner) and four tetrahedra, whose other faces are cut as in
  // Kuhn's split; tetrahedra; prisms, whose triangles share Kuhn's x-y diagonal. Needs nz >= 4.
  // Each interface conforms: quads between hexahedra and pyramids, triangles elsewhere.
  Mixed,
  // Six pyramids per cube, one on each face with its apex at the cube's centre (a node of its
  // own): pyramids only, quads between neighbouring cubes.
  Pyramids,
};

struct BoxMeshSpec {
  Point lo{0.0, 0.0, 0.0}, hi{1.0, 1.0, 1.0};
  int nx = 1, ny = 1, nz = 1;
  BoxCells cells = BoxCells::Hexahedra;
  // Random order of cells and nodes (seeded), for renumbering and atomics tests.
  bool shuffle = false;
  std::uint64_t seed = 0;
  // Each grid node moved off the lattice by up to jitter spacings along each axis in which it is
  // not on the box's side (seeded by seed): an irregular mesh whose sides stay planar. Up to 0.15
  // keeps every cell of every shape positive.
  double jitter = 0.0;
};

// Boundary faces tagged by side: xlo 1, xhi 2, ylo 3, yhi 4, zlo 5, zhi 6 (named in tagNames).
// Throws std::invalid_argument for non-positive counts, an empty box, Mixed with nz < 4, or a
// jitter outside [0, 0.15].
MeshDescription boxMesh(const BoxMeshSpec& spec);

} // namespace tessera::unstructured
