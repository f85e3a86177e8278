#include "engine/unstructured/renumbering.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "engine/unstructured/cell_graph.hpp"

namespace tessera::unstructured {
namespace {

// Breadth-first levels from start; returns the cells in visiting order and, in lastLevelBegin,
// where the deepest level starts in that list. `mark` holds `stamp` for cells already reached.
std::vector<int> levels(const Csr& g, int start, std::vector<int>& mark, int stamp,
                        std::size_t& lastLevelBegin, int& depth) {
  std::vector<int> visit{start};
  mark[std::size_t(start)] = stamp;
  std::size_t begin = 0;
  depth = 0;
  while (true) {
    const std::size_t end = visit.size();
    for (std::size_t i = begin; i < end; ++i)
      for (int nb : g.row(visit[i]))
        if (mark[std::size_t(nb)] != stamp) {
          mark[std::size_t(nb)] = stamp;
          visit.push_back(nb);
        }
    if (visit.size() == end)
      break;
    begin = end;
    ++depth;
  }
  lastLevelBegin = begin;
  return visit;
}

} // namespace

std::vector<int> reverseCuthillMcKee(const Mesh& m) {
  const Csr g = cellGraph(m);
  const int n = m.numCells();
  const auto degree = [&](int c) {
    return g.offsets[std::size_t(c) + 1] - g.offsets[std::size_t(c)];
  };
  std::vector<int> byDegree(static_cast<std::size_t>(n));
  for (int c = 0; c < n; ++c)
    byDegree[std::size_t(c)] = c;
  std::stable_sort(byDegree.begin(), byDegree.end(),
                   [&](int a, int b) { return degree(a) < degree(b); });

  std::vector<int> order;
  order.reserve(std::size_t(n));
  std::vector<char> placed(std::size_t(n), 0);
  std::vector<int> mark(std::size_t(n), -1);
  int stamp = 0;
  std::vector<int> queueNeighbours;
  for (int seed : byDegree) {
    if (placed[std::size_t(seed)])
      continue;
    // George-Liu: move to a minimum-degree cell of the deepest level while the depth grows.
    int start = seed, depth = 0;
    std::size_t lastBegin = 0;
    auto visit = levels(g, start, mark, stamp++, lastBegin, depth);
    while (true) {
      const int candidate =
          *std::min_element(visit.begin() + std::ptrdiff_t(lastBegin), visit.end(),
                            [&](int a, int b) { return degree(a) < degree(b); });
      int candidateDepth = 0;
      std::size_t candidateBegin = 0;
      auto candidateVisit = levels(g, candidate, mark, stamp++, candidateBegin, candidateDepth);
      if (candidateDepth <= depth)
        break;
      start = candidate;
      depth = candidateDepth;
      lastBegin = candidateBegin;
      visit = std::move(candidateVisit);
    }
    const std::size_t first = order.size();
    order.push_back(start);
    placed[std::size_t(start)] = 1;
    for (std::size_t i = first; i < order.size(); ++i) {
      queueNeighbours.clear();
      for (int nb : g.row(order[i]))
        if (!placed[std::size_t(nb)]) {
          placed[std::size_t(nb)] = 1;
          queueNeighbours.push_back(nb);
        }
      std::stable_sort(queueNeighbours.begin(), queueNeighbours.end(),
                       [&](int a, int b) { return degree(a) < degree(b); });
      order.insert(order.end(), queueNeighbours.begin(), queueNeighbours.end());
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

MeshDescription renumberCells(const MeshDescription& d, std::span<const int> newToOld) {
  const int n = int(d.cellShapes.size());
  if (int(newToOld.size()) != n)
    throw std::invalid_argument("renumberCells: " + std::to_string(newToOld.size()) +
                                " entries for " + std::to_string(n) + " cells");
  std::vector<char> seen(std::size_t(n), 0);
  for (int old : newToOld) {
    if (old < 0 || old >= n || seen[std::size_t(old)])
      throw std::invalid_argument("renumberCells: cell " + std::to_string(old) +
                                  " is out of range or repeated");
    seen[std::size_t(old)] = 1;
  }
  MeshDescription r;
  r.nodes = d.nodes;
  r.boundaryFaceNodes = d.boundaryFaceNodes;
  r.boundaryTags = d.boundaryTags;
  r.tagNames = d.tagNames;
  for (int old : newToOld) {
    r.cellShapes.push_back(d.cellShapes[std::size_t(old)]);
    r.cellNodes.appendRow(d.cellNodes.row(old));
  }
  return r;
}

Mesh renumbered(const Mesh& m, std::span<const int> newToOld) {
  return buildMesh(renumberCells(describe(m), newToOld));
}

int bandwidth(const Mesh& m) {
  int b = 0;
  for (int f = 0; f < m.numFaces(); ++f)
    if (m.neighbour[std::size_t(f)] >= 0)
      b = std::max(b, std::abs(m.owner[std::size_t(f)] - m.neighbour[std::size_t(f)]));
  return b;
}

} // namespace tessera::unstructured
