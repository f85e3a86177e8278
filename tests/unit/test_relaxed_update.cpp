// The under-relaxed update of an implicit step (solvers/unstructured/relaxed_update.hpp) against
// its definition: the largest of 1, 1/2, ..., 2^-10 that keeps the density and pressure changes
// within 20%, else 0. A state scaled by (1 - alpha / 2) changes both by alpha / 2, so 1/4 is the
// factor for dq = -q / 2 (1/2 would change them by 25%); a non-finite update and one a thousand
// times too large are dropped.
#include <cmath>
#include <gtest/gtest.h>
#include <iterator>
#include <limits>
#include <vector>

#include "solvers/unstructured/relaxed_update.hpp"

namespace tessera {
namespace {

const Euler<3> kPde{};
const Euler<3>::State kState = kPde.toConserved({{1.3, 0.4, -0.2, 0.1, 0.9}});

struct Updated {
  std::vector<double> q;
  double alpha;
};

Updated updated(const std::vector<double>& dq) {
  std::vector<double> q(std::begin(kState.v), std::end(kState.v));
  double alpha = -1.0;
  RelaxedCellUpdate<double>{kPde, dq.data(), q.data(), &alpha, 1}(0);
  return {q, alpha};
}

TEST(RelaxedUpdate, ASmallUpdateIsTakenWhole) {
  std::vector<double> dq(5);
  for (std::size_t v = 0; v < 5; ++v)
    dq[v] = 0.05 * kState[int(v)];
  const Updated u = updated(dq);
  EXPECT_EQ(u.alpha, 1.0);
  for (std::size_t v = 0; v < 5; ++v)
    EXPECT_EQ(u.q[v], kState[int(v)] + dq[v]);
}

TEST(RelaxedUpdate, AHalvingUpdateIsCutToAQuarter) {
  std::vector<double> dq(5);
  for (std::size_t v = 0; v < 5; ++v)
    dq[v] = -0.5 * kState[int(v)];
  const Updated u = updated(dq);
  EXPECT_EQ(u.alpha, 0.25);
  for (std::size_t v = 0; v < 5; ++v)
    EXPECT_DOUBLE_EQ(u.q[v], 0.875 * kState[int(v)]);
}

TEST(RelaxedUpdate, AnUpdateThatEmptiesTheEnergyIsCutToKeepThePressure) {
  std::vector<double> dq(5, 0.0);
  dq[4] = -kState[4]; // all the energy: the pressure would be negative
  const Updated u = updated(dq);
  ASSERT_GT(u.alpha, 0.0);
  Euler<3>::State next;
  for (int v = 0; v < 5; ++v)
    next[v] = u.q[std::size_t(v)];
  const double p = kPde.pressure(kState);
  EXPECT_LE(std::fabs(kPde.pressure(next) - p), 0.2 * p);
  EXPECT_GT(std::fabs(kPde.pressure(next) - p), 0.1 * p); // twice the factor would be too much
}

TEST(RelaxedUpdate, NonFiniteAndHugeUpdatesAreDropped) {
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), double(INFINITY), 1e3}) {
    std::vector<double> dq(5);
    for (std::size_t v = 0; v < 5; ++v)
      dq[v] = bad * kState[int(v)];
    const Updated u = updated(dq);
    EXPECT_EQ(u.alpha, 0.0) << bad;
    for (std::size_t v = 0; v < 5; ++v)
      EXPECT_EQ(u.q[v], kState[int(v)]) << bad;
  }
}

} // namespace
} // namespace tessera
