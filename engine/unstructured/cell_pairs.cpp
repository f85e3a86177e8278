#include "engine/unstructured/cell_pairs.hpp"

#include <algorithm>
#include <cstddef>

namespace tessera::unstructured {

CellPairs nodeNeighbourPairs(const Mesh& mesh) {
  CellPairs pairs;
  pairs.numCells = mesh.numCells();
  // Each cell's higher-numbered node neighbours, gathered over its nodes' cells; a stamp per
  // cell drops the repeats (two cells sharing a face meet at three or four of its nodes).
  std::vector<int> seen(std::size_t(mesh.numCells()), -1), row;
  for (int c = 0; c < mesh.numCells(); ++c) {
    row.clear();
    for (int n : mesh.cellNodes.row(c))
      for (int other : mesh.nodeCells.row(n))
        if (other > c && seen[std::size_t(other)] != c) {
          seen[std::size_t(other)] = c;
          row.push_back(other);
        }
    std::sort(row.begin(), row.end());
    pairs.first.insert(pairs.first.end(), row.size(), c);
    pairs.second.insert(pairs.second.end(), row.begin(), row.end());
  }
  Csr pairCells;
  for (int p = 0; p < pairs.numPairs(); ++p) {
    const int cells[2] = {pairs.first[std::size_t(p)], pairs.second[std::size_t(p)]};
    pairCells.appendRow(cells);
  }
  pairs.cellPairs = transposed(pairCells, mesh.numCells());
  return pairs;
}

} // namespace tessera::unstructured
