#include "engine/unstructured/partition.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <metis.h>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/unstructured/cell_graph.hpp"
#include "engine/unstructured/renumbering.hpp"

namespace tessera::unstructured {
namespace {

// Fixed so that every rank, partitioning the same mesh, gets the same parts.
constexpr idx_t kMetisSeed = 2026;

std::string metisStatusName(int status) {
  switch (status) {
  case METIS_ERROR_INPUT:
    return "METIS_ERROR_INPUT";
  case METIS_ERROR_MEMORY:
    return "METIS_ERROR_MEMORY";
  default:
    return "METIS_ERROR";
  }
}

std::vector<int> metisKway(const Csr& graph, int parts) {
  std::vector<idx_t> xadj(graph.offsets.begin(), graph.offsets.end());
  std::vector<idx_t> adjncy(graph.indices.begin(), graph.indices.end());
  idx_t vertices = graph.rows(), constraints = 1, nparts = parts, edgeCut = 0;
  std::vector<idx_t> part(static_cast<std::size_t>(vertices));
  std::array<idx_t, METIS_NOPTIONS> options{};
  METIS_SetDefaultOptions(options.data());
  options[METIS_OPTION_SEED] = kMetisSeed;
  options[METIS_OPTION_NUMBERING] = 0;
  const int status = METIS_PartGraphKway(&vertices, &constraints, xadj.data(), adjncy.data(),
                                         nullptr, nullptr, nullptr, &nparts, nullptr, nullptr,
                                         options.data(), &edgeCut, part.data());
  if (status != METIS_OK) {
    std::string message = "partitionCells: METIS_PartGraphKway failed with ";
    message += metisStatusName(status);
    throw std::runtime_error(message);
  }
  return {part.begin(), part.end()};
}

// The cell across face f from cell c, -1 on the boundary.
int otherCell(const Mesh& m, int f, int c) {
  const int owner = m.owner[std::size_t(f)];
  return owner == c ? m.neighbour[std::size_t(f)] : owner;
}

void checkPartition(const Mesh& global, std::span<const int> partOfCell, int rank) {
  if (int(partOfCell.size()) != global.numCells())
    throw std::invalid_argument("localMesh: partOfCell has " + std::to_string(partOfCell.size()) +
                                " entries for " + std::to_string(global.numCells()) + " cells");
  if (std::find(partOfCell.begin(), partOfCell.end(), rank) == partOfCell.end())
    throw std::invalid_argument("localMesh: rank " + std::to_string(rank) + " owns no cell");
}

// f(other) for every cell adjacent to c in the halo's sense (a face, or a node, shared), c itself
// and repeats included for node neighbours.
template <class F>
void forEachAdjacent(const Mesh& global, int c, HaloCells reach, F&& f) {
  if (reach == HaloCells::FaceNeighbours) {
    for (int face : global.cellFaces.row(c))
      if (const int other = otherCell(global, face, c); other >= 0)
        f(other);
    return;
  }
  for (int n : global.cellNodes.row(c))
    for (int other : global.nodeCells.row(n))
      f(other);
}

// The owned cells, then the halo cells, each ascending by global index.
std::vector<int> localCells(const Mesh& global, std::span<const int> partOfCell, int rank,
                            HaloCells reach) {
  std::vector<int> owned, halo;
  std::vector<char> inHalo(std::size_t(global.numCells()), 0);
  for (int c = 0; c < global.numCells(); ++c) {
    if (partOfCell[std::size_t(c)] != rank)
      continue;
    owned.push_back(c);
    forEachAdjacent(global, c, reach, [&](int other) {
      if (partOfCell[std::size_t(other)] != rank)
        inHalo[std::size_t(other)] = 1;
    });
  }
  for (int c = 0; c < global.numCells(); ++c)
    if (inHalo[std::size_t(c)])
      halo.push_back(c);
  owned.insert(owned.end(), halo.begin(), halo.end());
  return owned;
}

// Global index -> local index, -1 for the cells or nodes this rank does not hold.
std::vector<int> inverse(std::span<const int> localToGlobal, int globalCount) {
  std::vector<int> local(std::size_t(globalCount), -1);
  for (std::size_t i = 0; i < localToGlobal.size(); ++i)
    local[std::size_t(localToGlobal[i])] = int(i);
  return local;
}

// The nodes of the given cells, ascending, so that local nodes keep the global order.
std::vector<int> usedNodes(const Mesh& global, std::span<const int> cells) {
  std::vector<char> used(std::size_t(global.numNodes()), 0);
  for (int c : cells)
    for (int n : global.cellNodes.row(c))
      used[std::size_t(n)] = 1;
  std::vector<int> nodes;
  for (int n = 0; n < global.numNodes(); ++n)
    if (used[std::size_t(n)])
      nodes.push_back(n);
  return nodes;
}

// One past the largest tag that names or marks a face, so that partition faces stand apart.
int freeTag(const Mesh& global) {
  int largest = -1;
  for (const auto& [tag, name] : global.tagNames)
    largest = std::max(largest, tag);
  for (int tag : global.faceTag)
    largest = std::max(largest, tag);
  return largest + 1;
}

// table[i] for each i of indices (nodes or cells into another numbering).
std::vector<int> remapped(std::span<const int> indices, const std::vector<int>& table) {
  std::vector<int> mapped;
  mapped.reserve(indices.size());
  for (int i : indices)
    mapped.push_back(table[std::size_t(i)]);
  return mapped;
}

struct LocalNumbering {
  std::vector<int> globalCell, localCell; // local -> global, global -> local (-1: not held)
  std::vector<int> globalNode, localNode;
  int numOwned = 0;
};

MeshDescription localDescription(const Mesh& global, const LocalNumbering& ln, int partitionTag) {
  MeshDescription d;
  for (int n : ln.globalNode)
    d.nodes.push_back(global.nodes[std::size_t(n)]);
  for (int c : ln.globalCell) {
    d.cellShapes.push_back(global.cellShapes[std::size_t(c)]);
    d.cellNodes.appendRow(remapped(global.cellNodes.row(c), ln.localNode));
  }
  // Tagged boundary faces of local cells keep their tags, as describe() would give them.
  for (int f = 0; f < global.numFaces(); ++f) {
    const int tag = global.faceTag[std::size_t(f)];
    if (global.neighbour[std::size_t(f)] >= 0 || tag < 0 ||
        ln.localCell[std::size_t(global.owner[std::size_t(f)])] < 0)
      continue;
    d.boundaryFaceNodes.appendRow(remapped(global.faceNodes.row(f), ln.localNode));
    d.boundaryTags.push_back(tag);
  }
  // A halo cell's faces towards cells this rank does not hold become partition boundary faces.
  for (std::size_t i = std::size_t(ln.numOwned); i < ln.globalCell.size(); ++i) {
    const int c = ln.globalCell[i];
    for (int f : global.cellFaces.row(c)) {
      const int other = otherCell(global, f, c);
      if (other < 0 || ln.localCell[std::size_t(other)] >= 0)
        continue;
      d.boundaryFaceNodes.appendRow(remapped(global.faceNodes.row(f), ln.localNode));
      d.boundaryTags.push_back(partitionTag);
    }
  }
  d.tagNames = global.tagNames;
  d.tagNames[partitionTag] = "partition";
  return d;
}

mpi::HaloPlan haloPlan(const Mesh& global, std::span<const int> partOfCell,
                       const LocalNumbering& ln, HaloCells reach) {
  // Both maps are keyed by the neighbour rank; cells go in ascending local order, which is
  // ascending global order within the owned and within the halo cells.
  std::map<int, std::vector<int>> send, receive;
  std::vector<int> ranks;
  for (int local = 0; local < ln.numOwned; ++local) {
    const int c = ln.globalCell[std::size_t(local)];
    ranks.clear();
    forEachAdjacent(global, c, reach, [&](int other) {
      if (ln.localCell[std::size_t(other)] >= ln.numOwned)
        ranks.push_back(partOfCell[std::size_t(other)]);
    });
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    for (int r : ranks)
      send[r].push_back(local);
  }
  for (int local = ln.numOwned; local < int(ln.globalCell.size()); ++local)
    receive[partOfCell[std::size_t(ln.globalCell[std::size_t(local)])]].push_back(local);

  // Adjacency is symmetric: a rank that owns one of our halo cells has our owned cells in its halo.
  mpi::HaloPlan plan;
  for (const auto& [rank, cells] : receive) {
    plan.neighbourRanks.push_back(rank);
    plan.receiveItems.appendRow(cells);
    plan.sendItems.appendRow(send.at(rank));
  }
  return plan;
}

} // namespace

std::vector<int> partitionCells(const Mesh& mesh, int parts) {
  if (parts < 1 || parts > mesh.numCells())
    throw std::invalid_argument("partitionCells: " + std::to_string(parts) + " parts for " +
                                std::to_string(mesh.numCells()) + " cells");
  if (parts == 1)
    return std::vector<int>(std::size_t(mesh.numCells()), 0);
  return metisKway(cellGraph(mesh), parts);
}

LocalMesh localMesh(const Mesh& global, std::span<const int> partOfCell, int rank,
                    HaloCells reach) {
  checkPartition(global, partOfCell, rank);
  LocalNumbering ln;
  ln.globalCell = localCells(global, partOfCell, rank, reach);
  ln.numOwned = int(std::count(partOfCell.begin(), partOfCell.end(), rank));
  ln.localCell = inverse(ln.globalCell, global.numCells());
  ln.globalNode = usedNodes(global, ln.globalCell);
  ln.localNode = inverse(ln.globalNode, global.numNodes());

  LocalMesh local;
  local.partitionTag = freeTag(global);
  local.mesh = buildMesh(localDescription(global, ln, local.partitionTag));
  local.numOwned = ln.numOwned;
  local.halo = haloPlan(global, partOfCell, ln, reach);
  local.globalCell = std::move(ln.globalCell);
  return local;
}

LocalMesh renumbered(const LocalMesh& local, std::span<const int> newToOld) {
  const int cells = local.mesh.numCells();
  if (newToOld.size() != std::size_t(cells))
    throw std::invalid_argument("renumbered: " + std::to_string(newToOld.size()) +
                                " new numbers for " + std::to_string(cells) + " cells");
  for (int n = 0; n < cells; ++n) {
    const int old = newToOld[std::size_t(n)];
    if (old < 0 || old >= cells || (old < local.numOwned) != (n < local.numOwned))
      throw std::invalid_argument("renumbered: new cell " + std::to_string(n) + " from old cell " +
                                  std::to_string(old) +
                                  " is no permutation keeping the owned cells first");
  }
  LocalMesh result;
  result.mesh = renumbered(local.mesh, newToOld); // throws where newToOld repeats a cell
  result.numOwned = local.numOwned;
  result.partitionTag = local.partitionTag;
  result.globalCell = remapped(newToOld, local.globalCell);
  const std::vector<int> oldToNew = inverse(newToOld, cells);
  result.halo.neighbourRanks = local.halo.neighbourRanks;
  for (int r = 0; r < local.halo.sendItems.rows(); ++r) {
    result.halo.sendItems.appendRow(remapped(local.halo.sendItems.row(r), oldToNew));
    result.halo.receiveItems.appendRow(remapped(local.halo.receiveItems.row(r), oldToNew));
  }
  return result;
}

} // namespace tessera::unstructured
