// The strategy tuner on ranks of unequal speed. A distributed solver's residual exchanges halos,
// so every rank must time each candidate equally often, or one waits for a message that never
// comes (two ranks oversubscribed on a loaded machine: one rank's untimed residual took more than
// a seventh of the tuner's 0.1 s, the other's less). Here the odd ranks' runs take 40 ms and the
// even ranks' return at once; the runs themselves make no collective call, so that a rank's count
// that differs fails the test rather than hanging it.
#include <chrono>
#include <gtest/gtest.h>
#include <mpi.h>
#include <thread>
#include <vector>

#include "engine/atomics/tuner.hpp"
#include "engine/mpi/longest_over_ranks.hpp"

namespace tessera::atomics {
namespace {

TEST(CollectiveTuning, RanksOfUnequalSpeedTimeEachCandidateEquallyOften) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::vector<Strategy> candidates{Strategy::GlobalAtomic, Strategy::Gather};
  int runs = 0;
  tuneStrategy(
      candidates,
      [&](Strategy) {
        ++runs;
        if (rank % 2 == 1)
          std::this_thread::sleep_for(std::chrono::milliseconds(40));
      },
      5, 0.1, [](double seconds) { return mpi::longestOverRanks(MPI_COMM_WORLD, seconds); });
  int fewest = runs, most = runs;
  MPI_Allreduce(MPI_IN_PLACE, &fewest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(fewest, most) << "rank " << rank << " ran " << runs << " times";
  // One untimed run and five timed ones per candidate where no rank is slow; where one is, as many
  // as 0.1 s holds of its 40 ms runs (two, or one where a sleep overran).
  if (ranks == 1)
    EXPECT_EQ(runs, 2 * 6);
  else
    EXPECT_TRUE(runs == 2 * 3 || runs == 2 * 2) << runs;
}

} // namespace
} // namespace tessera::atomics
