#include "engine/unstructured/coloring.hpp"

#include <algorithm>

namespace tessera::unstructured {
namespace {

// Smallest color not stamped with `item` in `taken`, which grows as colors are opened.
int smallestFree(std::vector<int>& taken, int item) {
  const auto it = std::find_if(taken.begin(), taken.end(), [&](int s) { return s != item; });
  if (it != taken.end())
    return int(it - taken.begin());
  taken.push_back(-1);
  return int(taken.size()) - 1;
}

// Items (faces or pairs) between two cells, second < 0 for none, listed per cell in cellItems.
Coloring colorItems(std::span<const int> first, std::span<const int> second, const Csr& cellItems) {
  Coloring result;
  result.color.assign(first.size(), -1);
  // taken[c] == f marks color c as used next to item f; stamps avoid clearing per item.
  std::vector<int> taken;
  for (int f = 0; f < int(first.size()); ++f) {
    for (int cell : {first[std::size_t(f)], second[std::size_t(f)]}) {
      if (cell < 0)
        continue;
      for (int other : cellItems.row(cell))
        if (const int c = result.color[std::size_t(other)]; c >= 0)
          taken[std::size_t(c)] = f;
    }
    result.color[std::size_t(f)] = smallestFree(taken, f);
  }
  result.numColors = int(taken.size());
  return result;
}

} // namespace

Coloring colorFaces(const Mesh& m) {
  return colorItems(m.owner, m.neighbour, m.cellFaces);
}

Coloring colorPairs(const CellPairs& pairs) {
  return colorItems(pairs.first, pairs.second, pairs.cellPairs);
}

Coloring colorCells(const Mesh& m) {
  Coloring result;
  result.color.assign(std::size_t(m.numCells()), -1);
  std::vector<int> taken;
  for (int cell = 0; cell < m.numCells(); ++cell) {
    for (int f : m.cellFaces.row(cell)) {
      const int other =
          m.owner[std::size_t(f)] == cell ? m.neighbour[std::size_t(f)] : m.owner[std::size_t(f)];
      if (other < 0)
        continue;
      if (const int c = result.color[std::size_t(other)]; c >= 0)
        taken[std::size_t(c)] = cell;
    }
    result.color[std::size_t(cell)] = smallestFree(taken, cell);
  }
  result.numColors = int(taken.size());
  return result;
}

} // namespace tessera::unstructured
