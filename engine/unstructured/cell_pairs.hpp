#pragma once
// The pairs of cells that share at least one node: the stencil of the node-neighbour
// least-squares gradient (engine/unstructured/reconstruction_geometry.hpp). Each unordered pair is
// listed once, as (first, second) with first < second, sorted by first and then second, so that
// to the atomics library's face scatter a pair is a face between two cells with its owner first:
// every strategy serves it, the sorted ones included.
#include <vector>

#include "engine/unstructured/csr.hpp"
#include "engine/unstructured/mesh.hpp"

namespace tessera::unstructured {

struct CellPairs {
  int numCells = 0;
  std::vector<int> first, second;
  Csr cellPairs; // row c: the pairs that hold c, in increasing order

  int numPairs() const { return int(first.size()); }
};

// Host work proportional to the sum over nodes of (cells around the node)^2.
CellPairs nodeNeighbourPairs(const Mesh& mesh);

} // namespace tessera::unstructured
