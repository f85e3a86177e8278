// The limiter-freezing stall detector (solvers/unstructured/residual_stall.hpp) on residual
// histories written out here, each with the step at which it must report a stall:
// - a plateau at a hundredth of the first residual: a stall `window` steps after the plateau began;
// - a residual that halves every 10 steps: never;
// - a transient that dips below a tenth of the first and rises back above it, as the transonic
//   NACA 0012 512 mesh's start did (its limiter was frozen inside the transient): no stall until
//   the residual has stayed below the bound for a whole window;
// - no window (0): never;
// - a residual alternating between two values, as the transonic wing's did at CFL 1e5, or cycling
//   through three, as the NACA 0012 1024 mesh's did: a stall once three periods have repeated, long
//   before the window; a plateau is no cycle (the window judges it), nor a residual falling by 2%
//   a step; a wide 2-cycle drifting 0.5% a period, as the wing's 8 mm mesh's did, is a cycle, but a
//   slow swing's smooth turning point, as the sweeps' on the subsonic NACA 0012 512 mesh, is not;
// - a residual that keeps jumping above the bound and back, as Barth and Jespersen's limiter with
//   Newton-Krylov did on the tetrahedral bump: a stall three windows after its lowest value last
//   halved, though each jump above the bound starts the window again;
// - a drop by 8 in one step: three halvings of that pace;
// - a residual swinging between halvings that come ever more slowly, 60 steps apart at first and
//   then 120, as the multicolor sweeps' did on the NACA 0012 512 mesh (100 to 120 there): no stall
//   with a window of 100, which alone would have stalled 100 steps into the first 120-step gap;
//   the same run come to a plateau stalls twice its pace after its last halving.
#include <cmath>
#include <gtest/gtest.h>
#include <numbers>
#include <vector>

#include "solvers/unstructured/residual_stall.hpp"

namespace tessera {
namespace {

constexpr int kWindow = 20;

// The first step at which the detector reports a stall (-1: none) over the history.
int firstStall(const std::vector<double>& history, int window) {
  StallWindow stall;
  for (int i = 0; i < int(history.size()); ++i) {
    stall.observe(history[std::size_t(i)], history[0], i);
    if (stall.stalled(i, window))
      return i;
  }
  return -1;
}

TEST(ResidualStall, APlateauStallsAWindowAfterItBegins) {
  std::vector<double> history{1.0, 0.5, 0.2};
  while (history.size() < 100)
    history.push_back(1e-2); // from step 3: the first residual a tenth of the first or less
  EXPECT_EQ(firstStall(history, kWindow), 3 + kWindow);
}

TEST(ResidualStall, AResidualThatKeepsHalvingNeverStalls) {
  std::vector<double> history;
  for (int i = 0; i < 300; ++i)
    history.push_back(std::pow(0.5, i / 10.0));
  EXPECT_EQ(firstStall(history, kWindow), -1);
}

TEST(ResidualStall, ATransientBackAboveATenthStartsTheWindowAgain) {
  std::vector<double> history{1.0};
  for (int i = 0; i < 30; ++i) // the start: a dip below a tenth, every other step above it
    history.push_back(i % 2 == 0 ? 0.09 : 0.15);
  const int settled = int(history.size());
  while (history.size() < 120)
    history.push_back(0.05); // settled below the bound, and stalled there
  EXPECT_EQ(firstStall(history, kWindow), settled + kWindow);
}

TEST(ResidualStall, AResidualThatNeverSettlesStallsThreeWindowsAfterItsLastHalving) {
  std::vector<double> history{1.0, 0.5, 0.2};
  // From step 3: the jumps of the bump's run (relative 4e-3 to 1.5e-1), ten steps a round.
  const double round[] = {5e-3, 4e-2, 1.5e-1, 3.7e-2, 2e-2, 5e-2, 6e-3, 7e-2, 4.7e-3, 1.2e-1};
  while (history.size() < 400)
    for (double r : round)
      history.push_back(r);
  // The lowest, step 3's 5e-3, is never halved (4.7e-3 is not half of it).
  EXPECT_EQ(firstStall(history, kWindow), 3 + 3 * kWindow);
}

// The transient (steps 0-2), then from step 3 a residual that halves after each of the gaps and
// swings up to 1.8 times its last halved value in between (never above a tenth of the first).
std::vector<double> pacedHistory(const std::vector<int>& gaps) {
  std::vector<double> history{1.0, 0.5, 0.2};
  double halved = 0.05;
  for (int gap : gaps) {
    for (int j = 0; j < gap; ++j)
      history.push_back(halved * (1.0 + 0.8 * std::sin(std::numbers::pi * j / gap)));
    halved *= 0.5;
  }
  history.push_back(halved);
  return history;
}

TEST(ResidualStall, AResidualKeepingItsOwnPaceNeverStalls) {
  std::vector<int> gaps{60, 60, 90};
  gaps.resize(20, 120);
  EXPECT_EQ(firstStall(pacedHistory(gaps), 100), -1);
}

TEST(ResidualStall, APacedResidualComeToAPlateauStallsTwiceItsPaceAfterItsLastHalving) {
  std::vector<double> history = pacedHistory({60, 60, 90, 120, 120, 120});
  const int lastHalving = int(history.size()) - 1; // step 573
  history.resize(1500, history.back());
  // Six halvings in the 570 steps since the first drop (step 3): 95 steps each.
  EXPECT_EQ(firstStall(history, 100), lastHalving + 2 * 95);
}

// A drop by 8 in one step is three halvings of the pace: from step 3 (the first drop) to step 12,
// three steps a halving, so a plateau after it stalls a window of 10 steps on (counted as one
// halving, the pace would be 9 steps, and the stall 18 steps on).
TEST(ResidualStall, ADropByEightInOneStepCountsThreeHalvings) {
  std::vector<double> history{1.0, 0.5, 0.2};
  history.resize(12, 0.05);
  history.resize(100, 0.05 / 8.0);
  EXPECT_EQ(firstStall(history, 10), 12 + 10);
}

TEST(ResidualStall, NoWindowNeverStalls) {
  EXPECT_EQ(firstStall(std::vector<double>(50, 1.0), 0), -1);
  EXPECT_EQ(firstStall({1.0, 1e-3, 1e-3, 1e-3}, 0), -1);
}

// The transient down to a twentieth of the first residual (steps 0-3), then `cycle` repeated.
std::vector<double> cyclingHistory(const std::vector<double>& cycle, int periods) {
  std::vector<double> history{1.0, 0.5, 0.2, 0.05};
  for (int p = 0; p < periods; ++p)
    for (double r : cycle)
      history.push_back(r * (1.0 + 1e-5 * p)); // a drift far below the tolerance
  return history;
}

TEST(ResidualStall, AResidualCyclingBetweenTwoValuesStallsAfterThreePeriods) {
  // Step 4 starts the window at 2.60e-3; steps 4-9 are three periods.
  EXPECT_EQ(firstStall(cyclingHistory({2.60e-3, 2.51e-3}, 30), 100), 9);
}

TEST(ResidualStall, AResidualCyclingThroughThreeValuesStallsAfterThreePeriods) {
  // The window starts at step 4 (6.8e-3), again at 5 (3.3e-3, below half of it); steps 5-13 are
  // three periods of (3.3e-3, 2.6e-3, 6.8e-3).
  EXPECT_EQ(firstStall(cyclingHistory({6.8e-3, 3.3e-3, 2.6e-3}, 30), 100), 13);
}

// The wing's 8 mm mesh: between 4.4e-4 and 2.1e-3, each value 0.5% above the one a period before.
TEST(ResidualStall, AWideCycleDriftingByHalfAPercentAPeriodStallsAfterThreePeriods) {
  std::vector<double> history{1.0, 0.5, 0.2, 0.05};
  for (int p = 0; p < 30; ++p)
    for (double r : {2.1e-3, 4.4e-4})
      history.push_back(r * std::pow(1.005, p));
  // Step 4 starts the window at 2.1e-3, step 5 again (4.4e-4, below half); steps 5-10 are three
  // periods. With the narrow tolerance alone (0.1% of the value) it would be no cycle.
  EXPECT_EQ(firstStall(history, 100), 10);
}

// The subsonic NACA 0012 512 mesh's residual by the sweeps at its turning point, steps 330-349 (a
// relative residual, log.jsonl), which then fell on to 1e-8 without a freeze.
TEST(ResidualStall, ASlowSwingsTurningPointIsNoCycle) {
  std::vector<double> history{1.0, 0.5, 0.2, 0.05};
  for (double r : {2.088145e-02, 2.068597e-02, 2.078011e-02, 2.110827e-02, 2.157427e-02,
                   2.207491e-02, 2.252688e-02, 2.288054e-02, 2.312160e-02, 2.326436e-02,
                   2.334003e-02, 2.338351e-02, 2.342173e-02, 2.346654e-02, 2.351389e-02,
                   2.354863e-02, 2.355278e-02, 2.351428e-02, 2.343339e-02, 2.332550e-02})
    history.push_back(r);
  EXPECT_EQ(firstStall(history, 100), -1);
}

TEST(ResidualStall, NeitherAPlateauNorASlowDescentIsACycle) {
  std::vector<double> plateau{1.0, 0.5, 0.2, 0.05}, descent = plateau;
  for (int i = 0; i < 60; ++i) {
    plateau.push_back(0.01);
    descent.push_back(0.01 * std::pow(0.98, i));
  }
  EXPECT_EQ(firstStall(plateau, 100), -1);
  EXPECT_EQ(firstStall(descent, 100), -1);
}

} // namespace
} // namespace tessera
