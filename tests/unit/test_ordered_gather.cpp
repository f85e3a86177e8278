// gatherInOrder (engine/ordered_gather.hpp): whatever the thread count, the items come in the
// order of a serial loop, and the exception a serial loop would meet first is the one thrown; a
// thread takes no fewer iterations than kMinIterationsPerThread.
#include <gtest/gtest.h>
#include <omp.h>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/ordered_gather.hpp"

namespace tessera {
namespace {

// Restores the thread count a test changes.
class Threads {
public:
  explicit Threads(int n) : saved_(omp_get_max_threads()) { omp_set_num_threads(n); }
  ~Threads() { omp_set_num_threads(saved_); }

private:
  int saved_;
};

// Iteration i appends i % 4 items (none for a multiple of four), each 1000 i + item.
std::vector<int> serialItems(int count) {
  std::vector<int> items;
  for (int i = 0; i < count; ++i)
    for (int k = 0; k < i % 4; ++k)
      items.push_back(1000 * i + k);
  return items;
}

TEST(OrderedGather, ItemsComeInTheSerialLoopsOrderOnAnyThreadCount) {
  for (int threads : {1, 2, 3, 7})
    for (int count : {0, 1, 2, 5, 1001, 3 * kMinIterationsPerThread + 5}) {
      const Threads set(threads);
      const std::vector<int> items =
          gatherInOrder<int>(count, [](int begin, int end, std::vector<int>& out) {
            for (int i = begin; i < end; ++i)
              for (int k = 0; k < i % 4; ++k)
                out.push_back(1000 * i + k);
          });
      EXPECT_EQ(items, serialItems(count)) << threads << " threads, " << count << " iterations";
    }
}

TEST(OrderedGather, ThreadsTakeNoFewerIterationsThanTheLeast) {
  const Threads set(7);
  EXPECT_EQ(gatherThreads(0), 1);
  EXPECT_EQ(gatherThreads(2 * kMinIterationsPerThread - 1), 1);
  EXPECT_EQ(gatherThreads(2 * kMinIterationsPerThread), 2);
  EXPECT_EQ(gatherThreads(5 * kMinIterationsPerThread + 7), 5);
  EXPECT_EQ(gatherThreads(100 * kMinIterationsPerThread), 7);
  // The ranges gatherInOrder hands out: three of 3 * kMinIterationsPerThread + 5 iterations.
  std::vector<int> begins =
      gatherInOrder<int>(3 * kMinIterationsPerThread + 5,
                         [](int begin, int, std::vector<int>& out) { out.push_back(begin); });
  EXPECT_EQ(begins,
            (std::vector<int>{0, kMinIterationsPerThread + 1, 2 * kMinIterationsPerThread + 3}));
}

TEST(OrderedGather, TheFirstIterationsExceptionIsThrown) {
  for (int threads : {1, 2, 5}) {
    const Threads set(threads);
    try {
      // Every range of the five threads meets an iteration that throws.
      gatherInOrder<int>(5 * kMinIterationsPerThread, [](int begin, int end, std::vector<int>&) {
        for (int i = begin; i < end; ++i)
          if (i % 30 == 29)
            throw std::invalid_argument("iteration " + std::to_string(i));
      });
      ADD_FAILURE() << "nothing thrown on " << threads << " threads";
    } catch (const std::invalid_argument& e) {
      EXPECT_STREQ(e.what(), "iteration 29") << threads << " threads";
    }
  }
}

} // namespace
} // namespace tessera
