// The atomic-strategy library on the host: the shuffle-transposition permutations proven for
// every tile width, every host strategy (the device kernels' twins) against the serial reference
// on ordered and shuffled mixed meshes, strategy names, and the tuner.
#include <chrono>
#include <cmath>
#include <gtest/gtest.h>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/atomics/scatter_host.hpp"
#include "engine/atomics/shuffle_transpose.hpp"
#include "engine/atomics/strategy.hpp"
#include "engine/atomics/tuner.hpp"
#include "tests/support/mixed_box_mesh.hpp"
#include "tests/support/scatter_reference.hpp"
#include "tests/support/synthetic_contribution.hpp"

namespace tessera::atomics {
namespace {

// Entry e of the virtual L x K array (row-major) is the number e, so a lane's final slot names
// the entry it holds.
std::vector<std::vector<int>> initialRows(int lanes, int k) {
  std::vector<std::vector<int>> rows(static_cast<std::size_t>(lanes),
                                     std::vector<int>(static_cast<std::size_t>(k)));
  for (int p = 0; p < lanes; ++p)
    for (int i = 0; i < k; ++i)
      rows[std::size_t(p)][std::size_t(i)] = p * k + i;
  return rows;
}

// Listing 4 on L lanes with stride S: every lane ends with entries p, p + L, p + 2L, ...
void expectOddTransposition(int lanes, int k, int stride) {
  const auto rows = initialRows(lanes, k);
  std::vector<std::vector<int>> held(static_cast<std::size_t>(lanes),
                                     std::vector<int>(static_cast<std::size_t>(k), -1));
  for (int i = 0; i < k; ++i)
    for (int p = 0; p < lanes; ++p) {
      const int q = oddSourceLane(p, i, stride, lanes);
      ASSERT_GE(q, 0);
      ASSERT_LT(q, lanes);
      const int slot = oddSlot(q, i, k, lanes);
      ASSERT_GE(slot, 0);
      ASSERT_LT(slot, k);
      ASSERT_EQ(held[std::size_t(p)][std::size_t(slot)], -1)
          << "L " << lanes << " K " << k << ": slot " << slot << " of lane " << p << " twice";
      held[std::size_t(p)][std::size_t(slot)] = rows[std::size_t(q)][std::size_t(i)];
    }
  for (int p = 0; p < lanes; ++p)
    for (int j = 0; j < k; ++j)
      ASSERT_EQ(held[std::size_t(p)][std::size_t(j)], p + j * lanes)
          << "L " << lanes << " K " << k << " lane " << p << " slot " << j;
}

// Listing 3 on L lanes: each step is a pairwise exchange (the partner's partner is the lane
// itself, and the slot the sender reads is the one the receiver names), and afterwards lane p
// holds entry ((p / K) K + i, p % K) in slot i.
void expectPowerOfTwoTransposition(int lanes, int k) {
  auto v = initialRows(lanes, k);
  for (int s = 1; s < k; ++s) {
    const auto before = v;
    for (int p = 0; p < lanes; ++p) {
      const int q = powerOfTwoPartner(p, s);
      ASSERT_EQ(q / k, p / k) << "the exchange leaves the group of K lanes";
      ASSERT_EQ(powerOfTwoPartner(q, s), p);
      const int senderSlot = powerOfTwoSlot(powerOfTwoPartner(q, s), k);
      v[std::size_t(p)][std::size_t(powerOfTwoSlot(q, k))] =
          before[std::size_t(q)][std::size_t(senderSlot)];
    }
  }
  for (int p = 0; p < lanes; ++p)
    for (int i = 0; i < k; ++i)
      ASSERT_EQ(v[std::size_t(p)][std::size_t(i)], ((p / k) * k + i) * k + p % k)
          << "L " << lanes << " K " << k << " lane " << p << " slot " << i;
}

TEST(ShuffleTransposition, OddLengthsEveryLaneCountWithTheInverseStride) {
  for (int lanes = 8; lanes <= 64; ++lanes)
    for (int k = 1; k <= 33; k += 2) {
      const int stride = inverseModulo(k, lanes);
      if (std::gcd(k, lanes) != 1) {
        EXPECT_EQ(stride, 0) << "L " << lanes << " K " << k;
        continue;
      }
      ASSERT_EQ(stride * k % lanes, 1);
      expectOddTransposition(lanes, k, stride);
    }
}

TEST(ShuffleTransposition, OneStrideServesEveryPowerOfTwoTile) {
  // seed 000: S(L,3) = 43 and S(L,5) = 13 for every power-of-two L <= 64; the same holds for
  // the library's other odd lengths (15 gradient, 25 Jacobian block).
  EXPECT_EQ(oddStride(3), 43);
  EXPECT_EQ(oddStride(5), 13);
  for (int lanes = 8; lanes <= kMaxTileLanes; lanes *= 2)
    for (int k : {3, 5, 7, 11, 13, 15, 17, 25, 31})
      expectOddTransposition(lanes, k, oddStride(k));
}

TEST(ShuffleTransposition, PowerOfTwoLengthsEveryLaneCount) {
  for (int lanes = 8; lanes <= 64; ++lanes)
    for (int k = 1; k <= lanes; k *= 2)
      if (lanes % k == 0)
        expectPowerOfTwoTransposition(lanes, k);
}

TEST(ShuffleTransposition, SupportedLengths) {
  EXPECT_TRUE(shuffleTransposable(5, 32));
  EXPECT_TRUE(shuffleTransposable(15, 32));
  EXPECT_TRUE(shuffleTransposable(25, 64));
  EXPECT_TRUE(shuffleTransposable(16, 32));
  EXPECT_FALSE(shuffleTransposable(64, 32));
  EXPECT_FALSE(shuffleTransposable(6, 32));
}

TEST(StrategyNames, RoundTripAndUnknown) {
  for (Strategy s : kAllStrategies) {
    EXPECT_EQ(parseStrategy(strategyName(s)), s);
    EXPECT_NE(strategyNameList().find(strategyName(s)), std::string_view::npos);
  }
  EXPECT_FALSE(parseStrategy("fastest").has_value());
}

// --- host strategies against the serial reference -------------------------------------------

template <int K>
void expectEveryStrategyMatchesReference(const unstructured::Mesh& mesh) {
  const test::ScatterReference<K> reference(mesh);
  const FaceScatterPlan plan(mesh, MemorySpace::Host);
  for (Strategy s : kAllStrategies) {
    if (s == Strategy::ShuffleTranspose && !shuffleTransposable(K, kHostLanes))
      continue;
    std::vector<double> result(reference.sums.size(), 0.0);
    scatterFacesHost<K>(plan, s, test::SyntheticContribution<K>{}, result.data());
    reference.expectMatches(result, s);
  }
}

TEST(HostStrategies, MatchReferenceOnRcmOrderedMesh) {
  const auto mesh = test::mixedBoxMesh(
      {.nx = 7, .ny = 6, .nz = 5, .seed = 7, .ordering = test::MeshOrdering::Rcm});
  expectEveryStrategyMatchesReference<5>(mesh);
  expectEveryStrategyMatchesReference<15>(mesh);
  expectEveryStrategyMatchesReference<25>(mesh);
  expectEveryStrategyMatchesReference<4>(mesh);
  expectEveryStrategyMatchesReference<16>(mesh);
}

TEST(HostStrategies, MatchReferenceOnShuffledMesh) {
  const auto mesh = test::mixedBoxMesh({.nx = 7, .ny = 6, .nz = 5, .seed = 7});
  expectEveryStrategyMatchesReference<5>(mesh);
  expectEveryStrategyMatchesReference<15>(mesh);
  expectEveryStrategyMatchesReference<3>(mesh);
}

TEST(HostStrategies, RefuseShuffleForUnsupportedLength) {
  const FaceScatterPlan plan(
      test::mixedBoxMesh(
          {.nx = 7, .ny = 6, .nz = 5, .seed = 7, .ordering = test::MeshOrdering::Rcm}),
      MemorySpace::Host);
  std::vector<double> target(std::size_t(plan.numCells()) * 6);
  EXPECT_THROW(scatterFacesHost<6>(plan, Strategy::ShuffleTranspose,
                                   test::SyntheticContribution<6>{}, target.data()),
               std::invalid_argument);
}

TEST(FaceScatterPlan, ColorsPartitionTheFacesWithoutSharedCells) {
  const auto mesh = test::mixedBoxMesh({.nx = 7, .ny = 6, .nz = 5, .seed = 7});
  const FaceScatterPlan plan(mesh, MemorySpace::Host);
  const FaceTopology t = plan.topology();
  ASSERT_EQ(plan.colorOffsets().back(), mesh.numFaces());
  std::vector<int> seen(std::size_t(mesh.numFaces()), 0);
  for (int c = 0; c < plan.numColors(); ++c) {
    std::vector<int> cellColor(std::size_t(mesh.numCells()), 0);
    for (int i = plan.colorOffsets()[c]; i < plan.colorOffsets()[c + 1]; ++i) {
      const int f = t.facesByColor[i];
      ++seen[std::size_t(f)];
      EXPECT_EQ(cellColor[std::size_t(t.owner[f])]++, 0);
      if (t.neighbour[f] >= 0) {
        EXPECT_EQ(cellColor[std::size_t(t.neighbour[f])]++, 0);
      }
    }
  }
  for (int count : seen)
    EXPECT_EQ(count, 1);
}

// --- tuner ----------------------------------------------------------------------------------

TEST(Tuner, PicksTheFastestCandidate) {
  const std::vector<Strategy> candidates{Strategy::GlobalAtomic, Strategy::Hybrid,
                                         Strategy::Gather};
  int runs = 0;
  const TunerChoice choice = tuneStrategy(
      candidates,
      [&](Strategy s) {
        ++runs;
        if (s != Strategy::Hybrid)
          std::this_thread::sleep_for(std::chrono::milliseconds(3));
      },
      5, 10.0); // time enough for five timed runs of each, however slow the machine
  EXPECT_EQ(choice.strategy, Strategy::Hybrid);
  EXPECT_FALSE(choice.forced);
  EXPECT_EQ(runs, 3 * 6); // one untimed run and five timed ones per candidate
  ASSERT_EQ(choice.medianSeconds.size(), 3u);
  EXPECT_GE(choice.medianSeconds[0].second, 3e-3);
  const std::string text = describe(choice);
  EXPECT_NE(text.find("picked hybrid"), std::string::npos) << text;
  EXPECT_NE(text.find("global_atomic"), std::string::npos) << text;
}

// With 0.1 s for the timed runs, a candidate whose untimed run took 60 ms is timed once, one that
// returns at once five times.
TEST(Tuner, TimesALongRunOnce) {
  const std::vector<Strategy> candidates{Strategy::GlobalAtomic, Strategy::Gather};
  int longRuns = 0, shortRuns = 0;
  const TunerChoice choice = tuneStrategy(
      candidates,
      [&](Strategy s) {
        const bool isLong = s == Strategy::GlobalAtomic;
        ++(isLong ? longRuns : shortRuns);
        if (isLong)
          std::this_thread::sleep_for(std::chrono::milliseconds(60));
      },
      5, 0.1);
  EXPECT_EQ(longRuns, 2);
  EXPECT_EQ(shortRuns, 6);
  EXPECT_EQ(choice.strategy, Strategy::Gather);
  EXPECT_GE(choice.medianSeconds[0].second, 60e-3);
}

// Where the ranks tune together, the slowest rank's untimed run sets the count: a run that
// returns at once here, but took 60 ms on another rank, is timed once.
TEST(Tuner, TimesAsOftenAsTheSlowestRankAllows) {
  const std::vector<Strategy> candidates{Strategy::GlobalAtomic, Strategy::Gather};
  int runs = 0, asked = 0;
  tuneStrategy(
      candidates, [&](Strategy) { ++runs; }, 5, 0.1,
      [&](double seconds) {
        ++asked;
        return std::max(seconds, 60e-3);
      });
  EXPECT_EQ(asked, 2); // once per candidate: a collective call the ranks make together
  EXPECT_EQ(runs, 2 * 2);
}

TEST(Tuner, RefusesNoCandidatesAndNoRepetitions) {
  EXPECT_THROW(tuneStrategy({}, [](Strategy) {}), std::invalid_argument);
  const std::vector<Strategy> one{Strategy::Gather};
  EXPECT_THROW(tuneStrategy(
                   one, [](Strategy) {}, 0),
               std::invalid_argument);
}

} // namespace
} // namespace tessera::atomics
