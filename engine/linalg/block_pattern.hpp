#pragma once
// The sparsity of the off-diagonal part O of a block matrix, in block CSR with the rows already in
// color order, and the coloring of a mesh's cells that produces it.
#include <vector>

#include "engine/unstructured/mesh.hpp"

namespace tessera::linalg {

struct BlockPattern {
  std::vector<int> rowOffsets{0}; // numRows + 1 ("ia")
  std::vector<int> columns; // block column of each off-diagonal block ("ja"), ascending in a row
  std::vector<int> colorOffsets{0}; // rows of color c: [colorOffsets[c], colorOffsets[c + 1])
  // Per color, how many of its leading rows are partition-boundary rows (all 0 until the matrix
  // is distributed): those rows go first so their halo exchange can overlap the interior rows.
  std::vector<int> boundaryRowsPerColor;

  int numRows() const { return int(rowOffsets.size()) - 1; }
  int numBlocks() const { return int(columns.size()); }
  int numColors() const { return int(colorOffsets.size()) - 1; }
  // Index into O's blocks of block (row, column), -1 if absent (binary search in the row).
  int blockIndex(int row, int column) const;
};

struct ColoredCells {
  BlockPattern pattern;
  std::vector<int> newToOld; // new row -> mesh cell
  std::vector<int> oldToNew; // mesh cell -> new row
};

// Greedy cell coloring (unstructured::colorCells), cells renumbered so that each color is
// contiguous (keeping the mesh's order inside a color), and the pattern of face neighbours in the
// new numbering.
ColoredCells colorContiguousCells(const unstructured::Mesh& mesh);

} // namespace tessera::linalg
