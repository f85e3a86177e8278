#include "engine/unstructured/coloring.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>

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

// Items (faces or pairs) between two cells, second < 0 for none, over `cells` cells, each taking
// the smallest color that no earlier item sharing one of its cells has. Each cell keeps the colors
// of its items as a bitset (words of 64 colors, widened as colors open), so an item costs its two
// cells' words, where walking the items of both cells cost their count: with the node-neighbour
// pairs of tetrahedra, about 68 to a cell, that walk was a quarter of a 219k-cell run's setup.
Coloring colorItems(std::span<const int> first, std::span<const int> second, int cells) {
  Coloring result;
  result.color.assign(first.size(), -1);
  std::size_t words = 1;
  std::vector<std::uint64_t> used(std::size_t(cells) * words, 0);
  const auto widen = [&] { // one more word for every cell
    std::vector<std::uint64_t> wider(std::size_t(cells) * (words + 1), 0);
    for (std::size_t c = 0; c < std::size_t(cells); ++c)
      std::copy_n(used.begin() + std::ptrdiff_t(c * words), words,
                  wider.begin() + std::ptrdiff_t(c * (words + 1)));
    used = std::move(wider);
    ++words;
  };
  for (std::size_t f = 0; f < first.size(); ++f) {
    const std::size_t a = std::size_t(first[f]);
    const int b = second[f];
    int color = -1;
    for (std::size_t w = 0; color < 0; ++w) {
      if (w == words)
        widen();
      std::uint64_t taken = used[a * words + w];
      if (b >= 0)
        taken |= used[std::size_t(b) * words + w];
      if (~taken != 0)
        color = int(64 * w) + std::countr_one(taken);
    }
    const std::size_t w = std::size_t(color) / 64;
    const std::uint64_t bit = std::uint64_t(1) << (color % 64);
    used[a * words + w] |= bit;
    if (b >= 0)
      used[std::size_t(b) * words + w] |= bit;
    result.color[f] = color;
    result.numColors = std::max(result.numColors, color + 1);
  }
  return result;
}

} // namespace

Coloring colorFaces(const Mesh& m) {
  return colorItems(m.owner, m.neighbour, m.numCells());
}

Coloring colorPairs(const CellPairs& pairs) {
  return colorItems(pairs.first, pairs.second, pairs.numCells);
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
