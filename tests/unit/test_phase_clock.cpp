// PhaseClock on the host: each phase adds its wall time to its own slot. DeviceReached with no
// device work queued: reached at once, so host work after it ran beside none.
#include <chrono>
#include <gtest/gtest.h>
#include <thread>
#include <utility>

#include "engine/device_reached.hpp"
#include "engine/memory.hpp"
#include "engine/phase_clock.hpp"

namespace tessera {
namespace {

TEST(PhaseClock, HostPhasesAddTheirWallTimeToTheirSlot) {
  PhaseClock clock(MemorySpace::Host, 3);
  for (int i = 0; i < 2; ++i) {
    auto t = clock.phase(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  {
    auto t = clock.phase(2);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  clock.settle(); // nothing pending on the host
  EXPECT_EQ(clock.seconds(0), 0.0);
  EXPECT_GE(clock.seconds(1), 0.040);
  EXPECT_LT(clock.seconds(1), 0.040 + 1.0); // a loaded machine may oversleep, not by a second
  EXPECT_GE(clock.seconds(2), 0.005);
  EXPECT_LT(clock.seconds(2), clock.seconds(1));

  PhaseClock moved = std::move(clock); // the slots go with it
  EXPECT_GE(moved.seconds(1), 0.040);
}

TEST(DeviceReached, NothingQueuedIsReachedAtOnce) {
  const DeviceReached point;
  const auto start = DeviceReached::Clock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const auto end = DeviceReached::Clock::now();
  synchronizeDevice(); // a device's runtime reads its clock on its own thread
  EXPECT_LT(secondsBeside(point, start, end), 0.005);
  EXPECT_LE(point.at(), end);
}

} // namespace
} // namespace tessera
