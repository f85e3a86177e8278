// The limiter-freezing stall detector (solvers/unstructured/residual_stall.hpp) on residual
// histories written out here, each with the step at which it must report a stall:
// - a plateau at a hundredth of the first residual: a stall `window` steps after the plateau began;
// - a residual that halves every 10 steps: never;
// - a transient that dips below a tenth of the first and rises back above it, as the transonic
//   NACA 0012 512 mesh's start did (its limiter was frozen inside the transient): no stall until
//   the residual has stayed below the bound for a whole window;
// - no window (0): never.
#include <cmath>
#include <gtest/gtest.h>
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

TEST(ResidualStall, NoWindowNeverStalls) {
  EXPECT_EQ(firstStall(std::vector<double>(50, 1.0), 0), -1);
  EXPECT_EQ(firstStall({1.0, 1e-3, 1e-3, 1e-3}, 0), -1);
}

} // namespace
} // namespace tessera
