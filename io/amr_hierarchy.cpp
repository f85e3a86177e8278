#include "io/amr_hierarchy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace tessera::io::detail {

namespace {

// Every rank's leaf patches, in the global patch order.
struct Leaves {
  std::vector<int> level, owner, patchId;
  std::vector<double> origin, dx; // 3 per patch
  int firstOfThisRank = 0;
};

Leaves gatherLeaves(const PatchMesh& mesh, MPI_Comm comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const int local = mesh.numPatches();
  std::vector<int> counts(static_cast<std::size_t>(ranks));
  std::vector<int> offsets(static_cast<std::size_t>(ranks) + 1, 0);
  MPI_Allgather(&local, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  for (int r = 0; r < ranks; ++r)
    offsets[std::size_t(r) + 1] = offsets[std::size_t(r)] + counts[std::size_t(r)];
  const std::size_t total = std::size_t(offsets.back());
  Leaves all;
  all.firstOfThisRank = offsets[std::size_t(rank)];
  all.level.resize(total);
  all.patchId.resize(total);
  all.origin.resize(3 * total);
  all.dx.resize(3 * total);
  MPI_Allgatherv(mesh.level.data(), local, MPI_INT, all.level.data(), counts.data(), offsets.data(),
                 MPI_INT, comm);
  MPI_Allgatherv(mesh.patchId.data(), local, MPI_INT, all.patchId.data(), counts.data(),
                 offsets.data(), MPI_INT, comm);
  std::vector<int> counts3(counts), offsets3(offsets);
  for (auto* v : {&counts3, &offsets3})
    for (int& n : *v)
      n *= 3;
  MPI_Allgatherv(mesh.origin.data(), 3 * local, MPI_DOUBLE, all.origin.data(), counts3.data(),
                 offsets3.data(), MPI_DOUBLE, comm);
  MPI_Allgatherv(mesh.dx.data(), 3 * local, MPI_DOUBLE, all.dx.data(), counts3.data(),
                 offsets3.data(), MPI_DOUBLE, comm);
  for (int r = 0; r < ranks; ++r)
    all.owner.insert(all.owner.end(), std::size_t(counts[std::size_t(r)]), r);
  return all;
}

// A patch of some level by its place in that level's grid of patches.
struct PatchKey {
  int level;
  long long at[3];
  bool operator==(const PatchKey& o) const {
    return level == o.level && at[0] == o.at[0] && at[1] == o.at[1] && at[2] == o.at[2];
  }
};
struct PatchKeyHash {
  std::size_t operator()(const PatchKey& k) const {
    std::uint64_t h = std::uint64_t(k.level) * 0x9E3779B97F4A7C15ull;
    for (long long a : k.at)
      h = (h ^ std::uint64_t(a)) * 0xC2B2AE3D27D4EB4Full;
    return std::size_t(h ^ (h >> 31));
  }
};

// Domain origin, level 0's cell size, and each leaf's place on its level's patch grid.
std::vector<PatchKey> placeLeaves(const Leaves& all, int dim, int n, AmrHierarchy& h) {
  const std::size_t leaves = all.level.size();
  for (std::size_t p = 0; p < leaves; ++p) {
    h.levels = std::max(h.levels, all.level[p] + 1);
    for (int a = 0; a < dim; ++a) {
      const double origin = all.origin[3 * p + std::size_t(a)];
      h.origin[a] = p == 0 ? origin : std::min(h.origin[a], origin);
    }
  }
  for (int a = 0; a < dim && leaves > 0; ++a)
    h.coarseDx[a] = all.dx[std::size_t(a)] * std::ldexp(1.0, all.level[0]);
  for (int a = dim; a < 3; ++a)
    h.coarseDx[a] = h.coarseDx[0];
  if (h.levels > 1 && n % 2 != 0)
    throw std::invalid_argument("AmrSeriesWriter: patches of " + std::to_string(n) +
                                " cells per axis cannot be averaged onto a coarser level");
  std::vector<PatchKey> keys(leaves);
  for (std::size_t p = 0; p < leaves; ++p) {
    keys[p].level = all.level[p];
    for (int a = 0; a < 3; ++a) {
      keys[p].at[a] = 0;
      if (a >= dim)
        continue;
      const double dx = all.dx[3 * p + std::size_t(a)];
      const double expected = std::ldexp(h.coarseDx[a], -all.level[p]);
      const double corner = (all.origin[3 * p + std::size_t(a)] - h.origin[a]) / dx;
      const long long lower = std::llround(corner);
      if (all.level[p] < 0 || std::fabs(dx - expected) > 1e-9 * expected ||
          std::fabs(corner - double(lower)) > 1e-6 || lower % n != 0)
        throw std::invalid_argument("AmrSeriesWriter: patch " + std::to_string(all.patchId[p]) +
                                    " (level " + std::to_string(all.level[p]) +
                                    ") is not on its level's grid of patches");
      keys[p].at[a] = lower / n;
    }
  }
  return keys;
}

// The values of one block averaged onto the orthant of its parent it covers: (n/2)^dim cells,
// each the mean of the 2^dim cells below it, in the block's layout.
void coarsen(const std::vector<double>& values, const std::vector<int>& components, int dim, int n,
             std::vector<double>& out) {
  const int half = n / 2;
  const long long cells = dim == 2 ? (long long)n * n : (long long)n * n * n;
  const long long halfCells = dim == 2 ? (long long)half * half : (long long)half * half * half;
  const double weight = 1.0 / (dim == 2 ? 4.0 : 8.0);
  std::size_t fieldStart = 0;
  for (const int c : components) {
    for (long long m = 0; m < halfCells; ++m) {
      const long long i = m % half, j = m / half % half, k = dim == 2 ? 0 : m / half / half;
      for (int comp = 0; comp < c; ++comp) {
        double sum = 0.0;
        for (int d = 0; d < (dim == 2 ? 4 : 8); ++d) {
          const long long fine =
              (2 * i + (d & 1)) + n * ((2 * j + (d >> 1 & 1)) + n * (2 * k + (d >> 2 & 1)));
          sum += values[fieldStart + std::size_t(fine * c + comp)];
        }
        out.push_back(sum * weight);
      }
    }
    fieldStart += std::size_t(cells * c);
  }
}

} // namespace

AmrHierarchy buildAmrHierarchy(const PatchMesh& mesh, const std::vector<CellField>& fields,
                               MPI_Comm comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const int dim = mesh.dim, n = mesh.cellsPerAxis;
  AmrHierarchy h;
  h.dim = dim;
  h.cellsPerAxis = n;
  const Leaves all = gatherLeaves(mesh, comm);
  const std::vector<PatchKey> keys = placeLeaves(all, dim, n, h); // the same verdict everywhere

  // The blocks: every leaf, and each ancestor once, written by the rank of its first leaf.
  std::unordered_map<PatchKey, std::size_t, PatchKeyHash> blockAt;
  std::vector<std::size_t> leafBlock(keys.size());
  std::vector<PatchKey> keyOf;
  const auto addBlock = [&](const PatchKey& key, int owner, int patchId) {
    AmrBlock block;
    block.level = key.level;
    for (int a = 0; a < 3; ++a)
      block.lower[a] = key.at[a] * n;
    block.owner = owner;
    block.patchId = patchId;
    blockAt.emplace(key, h.blocks.size());
    h.blocks.push_back(block);
    keyOf.push_back(key);
    return h.blocks.size() - 1;
  };
  for (std::size_t p = 0; p < keys.size(); ++p) {
    leafBlock[p] = addBlock(keys[p], all.owner[p], all.patchId[p]);
    for (int level = keys[p].level - 1; level >= 0; --level) {
      PatchKey parent{level, {0, 0, 0}};
      for (int a = 0; a < dim; ++a)
        parent.at[a] = keys[p].at[a] >> (keys[p].level - level);
      if (blockAt.count(parent))
        break; // and so are its own ancestors
      addBlock(parent, all.owner[p], -1);
    }
  }
  h.blocksPerLevel.assign(std::size_t(h.levels), 0);
  for (AmrBlock& block : h.blocks)
    block.indexInLevel = unsigned(h.blocksPerLevel[std::size_t(block.level)]++);

  // This rank's blocks, its leaves' values copied in.
  std::vector<int> components;
  std::size_t perCell = 0;
  for (const CellField& field : fields) {
    components.push_back(field.components);
    perCell += std::size_t(field.components);
  }
  const std::size_t cells = std::size_t(dim == 2 ? n * n : n * n * n);
  std::unordered_map<std::size_t, std::size_t> slotOf;
  for (std::size_t b = 0; b < h.blocks.size(); ++b)
    if (h.blocks[b].owner == rank) {
      slotOf.emplace(b, h.local.size());
      h.local.push_back(b);
      h.values.emplace_back(cells * perCell);
    }
  for (int p = 0; p < mesh.numPatches(); ++p) {
    std::vector<double>& to = h.values[slotOf.at(leafBlock[std::size_t(all.firstOfThisRank + p)])];
    std::size_t start = 0;
    for (const CellField& field : fields) {
      const std::size_t count = cells * std::size_t(field.components);
      std::copy_n(field.values.begin() + std::ptrdiff_t(std::size_t(p) * count), count,
                  to.begin() + std::ptrdiff_t(start));
      start += count;
    }
  }

  // Finest level first: each block sends its averaged values to its parent's rank, which then
  // has its parent blocks whole before they in turn send to theirs.
  const int half = n / 2;
  const std::size_t halfCells = std::size_t(dim == 2 ? half * half : half * half * half);
  const std::size_t chunk = 2 + halfCells * perCell; // parent block, orthant, values
  const std::size_t numRanks = static_cast<std::size_t>(ranks);
  for (int level = h.levels - 1; level >= 1; --level) {
    std::vector<std::vector<double>> outgoing(numRanks);
    for (std::size_t s = 0; s < h.local.size(); ++s) {
      const std::size_t b = h.local[s];
      if (h.blocks[b].level != level)
        continue;
      PatchKey parentKey{level - 1, {0, 0, 0}};
      int orthant = 0;
      for (int a = 0; a < dim; ++a) {
        parentKey.at[a] = keyOf[b].at[a] >> 1;
        orthant |= int(keyOf[b].at[a] & 1) << a;
      }
      const std::size_t parent = blockAt.at(parentKey);
      std::vector<double>& message = outgoing[std::size_t(h.blocks[parent].owner)];
      message.push_back(double(parent));
      message.push_back(double(orthant));
      coarsen(h.values[s], components, dim, n, message);
    }
    std::vector<int> sendCounts(numRanks), receiveCounts(numRanks);
    std::vector<int> sendOffsets(numRanks, 0), receiveOffsets(numRanks, 0);
    std::vector<double> send;
    for (int r = 0; r < ranks; ++r) {
      sendOffsets[std::size_t(r)] = int(send.size());
      sendCounts[std::size_t(r)] = int(outgoing[std::size_t(r)].size());
      send.insert(send.end(), outgoing[std::size_t(r)].begin(), outgoing[std::size_t(r)].end());
    }
    MPI_Alltoall(sendCounts.data(), 1, MPI_INT, receiveCounts.data(), 1, MPI_INT, comm);
    int received = 0;
    for (int r = 0; r < ranks; ++r) {
      receiveOffsets[std::size_t(r)] = received;
      received += receiveCounts[std::size_t(r)];
    }
    std::vector<double> incoming(static_cast<std::size_t>(received));
    MPI_Alltoallv(send.data(), sendCounts.data(), sendOffsets.data(), MPI_DOUBLE, incoming.data(),
                  receiveCounts.data(), receiveOffsets.data(), MPI_DOUBLE, comm);
    for (std::size_t at = 0; at + chunk <= incoming.size(); at += chunk) {
      std::vector<double>& parent = h.values[slotOf.at(std::size_t(incoming[at]))];
      const int orthant = int(incoming[at + 1]);
      const double* from = incoming.data() + at + 2;
      std::size_t fieldStart = 0;
      for (const int c : components) {
        for (std::size_t m = 0; m < halfCells; ++m) {
          const std::size_t i = m % std::size_t(half),
                            j = m / std::size_t(half) % std::size_t(half);
          const std::size_t k = dim == 2 ? 0 : m / std::size_t(half) / std::size_t(half);
          const std::size_t x = i + std::size_t((orthant & 1) * half);
          const std::size_t y = j + std::size_t((orthant >> 1 & 1) * half);
          const std::size_t z = k + std::size_t((orthant >> 2 & 1) * half);
          const std::size_t cell = x + std::size_t(n) * (y + std::size_t(n) * z);
          for (int comp = 0; comp < c; ++comp)
            parent[fieldStart + cell * std::size_t(c) + std::size_t(comp)] = *from++;
        }
        fieldStart += cells * std::size_t(c);
      }
    }
  }
  return h;
}

} // namespace tessera::io::detail
