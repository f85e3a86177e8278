#include "engine/linalg/block_pattern.hpp"

#include <algorithm>
#include <numeric>

#include "engine/unstructured/coloring.hpp"

namespace tessera::linalg {

int BlockPattern::blockIndex(int row, int column) const {
  const auto begin = columns.begin() + rowOffsets[std::size_t(row)];
  const auto end = columns.begin() + rowOffsets[std::size_t(row) + 1];
  const auto it = std::lower_bound(begin, end, column);
  return it != end && *it == column ? int(it - columns.begin()) : -1;
}

ColoredCells colorContiguousCells(const unstructured::Mesh& mesh) {
  const unstructured::Coloring coloring = unstructured::colorCells(mesh);
  const int numCells = mesh.numCells();
  ColoredCells result;
  BlockPattern& pattern = result.pattern;

  // Counting sort by color: stable, so the mesh's order (e.g. RCM's locality) survives inside a
  // color.
  pattern.colorOffsets.assign(std::size_t(coloring.numColors) + 1, 0);
  for (int c : coloring.color)
    ++pattern.colorOffsets[std::size_t(c) + 1];
  std::partial_sum(pattern.colorOffsets.begin(), pattern.colorOffsets.end(),
                   pattern.colorOffsets.begin());
  pattern.boundaryRowsPerColor.assign(std::size_t(coloring.numColors), 0);
  result.newToOld.resize(std::size_t(numCells));
  result.oldToNew.resize(std::size_t(numCells));
  std::vector<int> next(pattern.colorOffsets.begin(), pattern.colorOffsets.end() - 1);
  for (int cell = 0; cell < numCells; ++cell) {
    const int row = next[std::size_t(coloring.color[std::size_t(cell)])]++;
    result.newToOld[std::size_t(row)] = cell;
    result.oldToNew[std::size_t(cell)] = row;
  }

  std::vector<int> neighbours;
  for (int row = 0; row < numCells; ++row) {
    const int cell = result.newToOld[std::size_t(row)];
    neighbours.clear();
    for (int f : mesh.cellFaces.row(cell)) {
      const int owner = mesh.owner[std::size_t(f)], neighbour = mesh.neighbour[std::size_t(f)];
      const int other = owner == cell ? neighbour : owner;
      if (other >= 0)
        neighbours.push_back(result.oldToNew[std::size_t(other)]);
    }
    // Two cells may share more than one face (e.g. across a non-planar interface): one block.
    std::sort(neighbours.begin(), neighbours.end());
    neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());
    pattern.columns.insert(pattern.columns.end(), neighbours.begin(), neighbours.end());
    pattern.rowOffsets.push_back(int(pattern.columns.size()));
  }
  return result;
}

} // namespace tessera::linalg
