#pragma once
// Greedy colorings for race-free scatters and multicolor sweeps: faces of one color touch
// distinct cells, cells of one color share no face.
#include <span>
#include <vector>

#include "engine/unstructured/cell_pairs.hpp"
#include "engine/unstructured/mesh.hpp"

namespace tessera::unstructured {

struct Coloring {
  std::vector<int> color; // per face or per cell
  int numColors = 0;
};

// Faces in index order, each taking the smallest color unused by the faces of its cells.
Coloring colorFaces(const Mesh& mesh);
// The same for the pairs of a stencil: pairs of one color hold distinct cells.
Coloring colorPairs(const CellPairs& pairs);

// Cells in index order, each taking the smallest color unused by its face neighbours.
Coloring colorCells(const Mesh& mesh);

} // namespace tessera::unstructured
