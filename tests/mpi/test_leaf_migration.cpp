// The leaves' data after a repartition (engine/mpi/leaf_migration.hpp), on the host and on the
// device: every value is a function of its leaf's global number and its component, so after the
// migration each rank's new leaves must hold exactly the values of the global leaves its new range
// names, whichever rank held them before. The splits cover a rank that gives all its leaves away,
// one that receives from both sides (on 4 ranks), and one that keeps only some of its own.
#include <cstddef>
#include <gtest/gtest.h>
#include <mpi.h>
#include <stdexcept>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "engine/mpi/leaf_migration.hpp"

namespace tessera::mpi {
namespace {

constexpr int kWidth = 3;

double valueOf(long long leaf, int component) {
  return 1000.0 * double(leaf) + component + 0.25;
}

// This rank's leaves [first, last) of the global order, with their values.
std::vector<double> valuesOfLeaves(long long first, long long last) {
  std::vector<double> values;
  for (long long g = first; g < last; ++g)
    for (int k = 0; k < kWidth; ++k)
      values.push_back(valueOf(g, k));
  return values;
}

// Splits of 40 leaves a rank: evenly before; after, rank 0 with none (it gives all away) and the
// other ranks' first leaves moved by a rank-dependent amount.
struct Splits {
  std::vector<long long> before, after;
};

Splits splits(int ranks) {
  Splits s;
  const long long total = 40LL * ranks;
  for (int r = 0; r <= ranks; ++r)
    s.before.push_back(40LL * r);
  s.after = s.before;
  for (int r = 1; r < ranks; ++r)
    s.after[std::size_t(r)] = std::min(total, s.before[std::size_t(r)] + 40 - 7 * r);
  if (ranks > 1)
    s.after[1] = 0; // rank 0 ends with no leaves
  for (std::size_t r = 1; r < s.after.size(); ++r)
    s.after[r] = std::max(s.after[r], s.after[r - 1]);
  return s;
}

void expectMigrated(MemorySpace space) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const Splits s = splits(ranks);
  const std::size_t r = std::size_t(rank);
  const DeviceArray<double> source = toSpace(valuesOfLeaves(s.before[r], s.before[r + 1]), space);
  DeviceArray<double> target(std::size_t(s.after[r + 1] - s.after[r]) * kWidth, space);
  migrateLeaves(MPI_COMM_WORLD, {s.before, s.after}, source.data(), target.data(), kWidth, space);
  EXPECT_EQ(toHost(target), valuesOfLeaves(s.after[r], s.after[r + 1])) << "rank " << rank;
}

TEST(LeafMigration, LeavesArriveWithTheirValuesOnTheHost) {
  expectMigrated(MemorySpace::Host);
}

TEST(LeafMigration, LeavesArriveWithTheirValuesOnTheDevice) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  expectMigrated(MemorySpace::Device);
}

TEST(LeafMigration, RefusesSplitsThatDoNotFitTheRanks) {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const Splits s = splits(ranks);
  std::vector<long long> fewer(s.after.begin(), s.after.end() - 1);
  std::vector<long long> more = s.after;
  more.back() += 1;
  double none = 0.0;
  EXPECT_THROW(
      migrateLeaves(MPI_COMM_WORLD, {s.before, fewer}, &none, &none, kWidth, MemorySpace::Host),
      std::invalid_argument);
  EXPECT_THROW(
      migrateLeaves(MPI_COMM_WORLD, {s.before, more}, &none, &none, kWidth, MemorySpace::Host),
      std::invalid_argument);
}

} // namespace
} // namespace tessera::mpi
