// Host reductions against sequential loops.
#include <cmath>
#include <gtest/gtest.h>
#include <omp.h>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/reduce.hpp"

namespace tessera {
namespace {

TEST(Reduce, HostMinMaxSumMatchSequentialLoops) {
  DeviceArray<double> a(10007, MemorySpace::Host);
  double mn = INFINITY, mx = -INFINITY, sum = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double v = std::sin(0.37 * double(i)) * 10.0 + double(i % 17);
    a.hostSpan()[i] = v;
    mn = std::min(mn, v);
    mx = std::max(mx, v);
    sum += v;
  }
  EXPECT_EQ(reduce(a, ReduceKind::Min), mn);
  EXPECT_EQ(reduce(a, ReduceKind::Max), mx);
  EXPECT_NEAR(reduce(a, ReduceKind::Sum), sum, 1e-12 * std::fabs(sum) + 1e-9);
}

// With more than two threads the order in which their partial sums arrive differs from call to
// call; the sum must not (a Newton-Krylov run on a 16-core host repeated its dot products only
// to the last bit, and a bitwise restart needs them exact).
TEST(Reduce, HostSumsAreTheSameFromCallToCall) {
  const int threads = omp_get_max_threads();
  omp_set_num_threads(7);
  DeviceArray<double> a(100003, MemorySpace::Host);
  std::vector<double> b(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    a.hostSpan()[i] = std::sin(0.37 * double(i)) * 1e3 + 1e-3 * double(i % 97);
    b[i] = std::cos(0.11 * double(i));
  }
  const double sum = reduce(a, ReduceKind::Sum);
  const double dot = dotProduct(MemorySpace::Host, a.data(), b.data(), a.size());
  for (int call = 0; call < 200; ++call) {
    ASSERT_EQ(reduce(a, ReduceKind::Sum), sum) << "call " << call;
    ASSERT_EQ(dotProduct(MemorySpace::Host, a.data(), b.data(), a.size()), dot) << "call " << call;
  }
  omp_set_num_threads(threads);
}

TEST(Reduce, EmptyArrayGivesTheIdentity) {
  DeviceArray<double> empty(0, MemorySpace::Host);
  EXPECT_EQ(reduce(empty, ReduceKind::Min), INFINITY);
  EXPECT_EQ(reduce(empty, ReduceKind::Sum), 0.0);
}

TEST(DeviceArray, HostCopiesAndMoves) {
  DeviceArray<double> a(5, MemorySpace::Host);
  const std::vector<double> src = {1, 2, 3, 4, 5};
  a.copyFromHost(src);
  DeviceArray<double> b(5, MemorySpace::Host);
  b.copyFrom(a);
  DeviceArray<double> c = std::move(b);
  EXPECT_EQ(b.data(), nullptr);
  std::vector<double> out(5);
  c.copyToHost(out);
  EXPECT_EQ(out, src);
  EXPECT_THROW(c.copyFromHost(std::vector<double>(4)), std::length_error);
  if (!deviceAvailable()) {
    EXPECT_THROW(DeviceArray<double>(4, MemorySpace::Device), std::exception);
  }
}

} // namespace
} // namespace tessera
