#pragma once
// The cell graph of a mesh: cells joined by interior faces. Renumbering walks it, partitioning
// hands it to METIS.
#include <cstddef>
#include <vector>

#include "engine/unstructured/csr.hpp"
#include "engine/unstructured/mesh.hpp"

namespace tessera::unstructured {

// Row c lists the cells that share an interior face with c, in face order.
inline Csr cellGraph(const Mesh& m) {
  Csr g;
  g.offsets.assign(std::size_t(m.numCells()) + 1, 0);
  for (int f = 0; f < m.numFaces(); ++f) {
    if (m.neighbour[std::size_t(f)] < 0)
      continue;
    ++g.offsets[std::size_t(m.owner[std::size_t(f)]) + 1];
    ++g.offsets[std::size_t(m.neighbour[std::size_t(f)]) + 1];
  }
  for (std::size_t c = 1; c < g.offsets.size(); ++c)
    g.offsets[c] += g.offsets[c - 1];
  g.indices.resize(std::size_t(g.offsets.back()));
  std::vector<int> fill(g.offsets.begin(), g.offsets.end() - 1);
  for (int f = 0; f < m.numFaces(); ++f) {
    const int a = m.owner[std::size_t(f)], b = m.neighbour[std::size_t(f)];
    if (b < 0)
      continue;
    g.indices[std::size_t(fill[std::size_t(a)]++)] = b;
    g.indices[std::size_t(fill[std::size_t(b)]++)] = a;
  }
  return g;
}

} // namespace tessera::unstructured
