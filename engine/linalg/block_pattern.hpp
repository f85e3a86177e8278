#pragma once
// The sparsity of the off-diagonal part O of a block matrix, in block CSR with the rows already in
// color order, and the coloring of a mesh's cells that produces it.
#include <cstddef>
#include <vector>

#include "engine/unstructured/coloring.hpp"
#include "engine/unstructured/mesh.hpp"

namespace tessera::linalg {

// Rows [begin, end) of a block matrix.
struct RowRange {
  int begin = 0, end = 0;
};

struct BlockPattern {
  std::vector<int> rowOffsets{0}; // numRows + 1 ("ia")
  std::vector<int> columns; // block column of each off-diagonal block ("ja"), ascending in a row
  std::vector<int> colorOffsets{0}; // rows of color c: [colorOffsets[c], colorOffsets[c + 1])
  // Per color, how many of its leading rows are partition-boundary rows (rows with a neighbour
  // owned by another rank; 0 on one rank). They come first so that a distributed sweep can send
  // their new dQ while it updates the color's interior rows (seed 002, section 2).
  std::vector<int> boundaryRowsPerColor;

  int numRows() const { return int(rowOffsets.size()) - 1; }
  int numBlocks() const { return int(columns.size()); }
  int numColors() const { return int(colorOffsets.size()) - 1; }
  RowRange boundaryRows(int color) const {
    const int begin = colorOffsets[std::size_t(color)];
    return {begin, begin + boundaryRowsPerColor[std::size_t(color)]};
  }
  RowRange interiorRows(int color) const {
    return {boundaryRows(color).end, colorOffsets[std::size_t(color) + 1]};
  }
  // Index into O's blocks of block (row, column), -1 if absent (binary search in the row).
  int blockIndex(int row, int column) const;
};

struct ColoredCells {
  BlockPattern pattern;
  std::vector<int> newToOld; // new row -> mesh cell
  std::vector<int> oldToNew; // mesh cell -> new row
};

// Greedy cell coloring (unstructured::colorCells), cells renumbered so that each color is
// contiguous, and the pattern of face neighbours in the new numbering. partitionBoundary is empty
// (no rank boundary) or holds, per mesh cell, whether it has a neighbour on another rank: those
// cells lead their color. Otherwise the mesh's order survives inside a color.
ColoredCells colorContiguousCells(const unstructured::Mesh& mesh,
                                  const std::vector<bool>& partitionBoundary = {});

// The same with the colors given (coloring.color has one entry per mesh cell) and only the first
// sweptCells cells colored: the cells after them keep their order behind every color's rows, in
// no color range, and no sweep visits them. On MPI ranks the swept cells are a rank's owned
// cells, colored by a coloring of the global mesh so that each halo cell has its owner's color,
// and the rest are its halo cells.
ColoredCells colorContiguousCells(const unstructured::Mesh& mesh,
                                  const std::vector<bool>& partitionBoundary,
                                  const unstructured::Coloring& coloring, int sweptCells);

} // namespace tessera::linalg
