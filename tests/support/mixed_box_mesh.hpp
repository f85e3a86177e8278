#pragma once
// The unstructured tests' mesh: a box of all four cell shapes (BoxCells::Mixed), randomly
// numbered, and on request renumbered by reverse Cuthill-McKee.
#include <cstdint>
#include <ostream>

#include "engine/unstructured/box_mesh.hpp"
#include "engine/unstructured/mesh.hpp"
#include "engine/unstructured/renumbering.hpp"

namespace tessera::test {

enum class MeshOrdering { Shuffled, Rcm };

inline void PrintTo(MeshOrdering o, std::ostream* os) {
  *os << (o == MeshOrdering::Shuffled ? "shuffled" : "RCM");
}

struct MixedBox {
  int nx = 6, ny = 5, nz = 8; // nz >= 4: one layer of each shape
  unstructured::Point lo{-1.0, 0.5, 2.0}, hi{2.0, 1.5, 4.5};
  std::uint64_t seed = 7;
  MeshOrdering ordering = MeshOrdering::Shuffled;
};

inline unstructured::Mesh mixedBoxMesh(const MixedBox& box) {
  unstructured::BoxMeshSpec spec;
  spec.lo = box.lo;
  spec.hi = box.hi;
  spec.nx = box.nx;
  spec.ny = box.ny;
  spec.nz = box.nz;
  spec.cells = unstructured::BoxCells::Mixed;
  spec.shuffle = true;
  spec.seed = box.seed;
  const unstructured::Mesh shuffled = unstructured::buildMesh(unstructured::boxMesh(spec));
  return box.ordering == MeshOrdering::Shuffled
             ? shuffled
             : unstructured::renumbered(shuffled, unstructured::reverseCuthillMcKee(shuffled));
}

} // namespace tessera::test
