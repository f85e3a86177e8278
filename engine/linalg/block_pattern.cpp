#include "engine/linalg/block_pattern.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "engine/unstructured/coloring.hpp"

namespace tessera::linalg {

int BlockPattern::blockIndex(int row, int column) const {
  const auto begin = columns.begin() + rowOffsets[std::size_t(row)];
  const auto end = columns.begin() + rowOffsets[std::size_t(row) + 1];
  const auto it = std::lower_bound(begin, end, column);
  return it != end && *it == column ? int(it - columns.begin()) : -1;
}

ColoredCells colorContiguousCells(const unstructured::Mesh& mesh,
                                  const std::vector<bool>& partitionBoundary) {
  return colorContiguousCells(mesh, partitionBoundary, unstructured::colorCells(mesh),
                              mesh.numCells());
}

ColoredCells colorContiguousCells(const unstructured::Mesh& mesh,
                                  const std::vector<bool>& partitionBoundary,
                                  const unstructured::Coloring& coloring, int sweptCells) {
  const int numCells = mesh.numCells();
  if (!partitionBoundary.empty() && partitionBoundary.size() != std::size_t(numCells))
    throw std::invalid_argument("colorContiguousCells: partitionBoundary has " +
                                std::to_string(partitionBoundary.size()) + " flags for " +
                                std::to_string(numCells) + " cells");
  if (coloring.color.size() != std::size_t(numCells) || sweptCells < 0 || sweptCells > numCells)
    throw std::invalid_argument("colorContiguousCells: " + std::to_string(coloring.color.size()) +
                                " colors and " + std::to_string(sweptCells) + " swept cells for " +
                                std::to_string(numCells) + " cells");
  ColoredCells result;
  BlockPattern& pattern = result.pattern;

  // Counting sort into buckets (color, boundary cells first; the unswept cells last): stable, so
  // the mesh's order (e.g. RCM's locality) survives inside a bucket.
  const int unswept = 2 * coloring.numColors;
  auto bucketOf = [&](int cell) {
    if (cell >= sweptCells)
      return unswept;
    const bool boundary = !partitionBoundary.empty() && partitionBoundary[std::size_t(cell)];
    return 2 * coloring.color[std::size_t(cell)] + (boundary ? 0 : 1);
  };
  std::vector<int> bucketOffsets(2 * std::size_t(coloring.numColors) + 2, 0);
  for (int cell = 0; cell < numCells; ++cell)
    ++bucketOffsets[std::size_t(bucketOf(cell)) + 1];
  std::partial_sum(bucketOffsets.begin(), bucketOffsets.end(), bucketOffsets.begin());
  pattern.colorOffsets.resize(std::size_t(coloring.numColors) + 1);
  pattern.boundaryRowsPerColor.resize(std::size_t(coloring.numColors));
  for (std::size_t c = 0; c <= std::size_t(coloring.numColors); ++c)
    pattern.colorOffsets[c] = bucketOffsets[2 * c];
  for (std::size_t c = 0; c < std::size_t(coloring.numColors); ++c)
    pattern.boundaryRowsPerColor[c] = bucketOffsets[2 * c + 1] - bucketOffsets[2 * c];
  result.newToOld.resize(std::size_t(numCells));
  result.oldToNew.resize(std::size_t(numCells));
  std::vector<int> next(bucketOffsets.begin(), bucketOffsets.end() - 1);
  for (int cell = 0; cell < numCells; ++cell) {
    const int row = next[std::size_t(bucketOf(cell))]++;
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
