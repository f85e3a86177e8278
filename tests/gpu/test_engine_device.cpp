// Device twins of the engine's host loops and reductions, compared with the host versions.
// Skipped where no device is visible. Plain C++: the kernels are in engine_device_twins.cu.
#include <chrono>
#include <cmath>
#include <gtest/gtest.h>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/device_reached.hpp"
#include "engine/gpu_runtime.hpp"
#include "engine/phase_clock.hpp"
#include "engine/reduce.hpp"
#include "engine/timer.hpp"
#include "tests/gpu/engine_device_twins.hpp"

namespace tessera {
namespace {

class EngineDevice : public ::testing::Test {
protected:
  void SetUp() override {
    if (!deviceAvailable())
      GTEST_SKIP() << "no GPU visible";
  }
};

TEST_F(EngineDevice, ForEachPatchCellMatchesTheHostTwin) {
  const int patches = 333, cells = 18 * 18 * 18;
  DeviceArray<double> device(std::size_t(patches) * cells, MemorySpace::Device);
  std::vector<double> poison(device.size(), std::nan(""));
  device.copyFromHost(poison); // every element must be written by the kernel
  test::fillWithDeviceLoop(device.data(), patches, cells);

  DeviceArray<double> host(device.size(), MemorySpace::Host);
  test::fillWithHostLoop(host.data(), patches, cells);

  std::vector<double> fromDevice(device.size());
  device.copyToHost(fromDevice);
  for (std::size_t i = 0; i < fromDevice.size(); ++i)
    ASSERT_NEAR(fromDevice[i], host.hostSpan()[i], 1e-12 * (1.0 + std::fabs(host.hostSpan()[i])))
        << "element " << i;
}

// Device phases are timed by events on the device's stream: a phase's seconds are its kernels'
// time (near the host's synchronised measurement of the same launches), in its own slot, read at
// settle(), also after the clock has moved with its phases pending.
TEST_F(EngineDevice, PhaseClockTimesDevicePhasesByEvents) {
  const int patches = 4000, cells = 18 * 18 * 18; // 187 MB a fill
  DeviceArray<double> data(std::size_t(patches) * cells, MemorySpace::Device);
  test::fillWithDeviceLoop(data.data(), patches, cells); // loads the module
  synchronizeDevice();

  // Bounds that hold on a GPU other processes share (ctest -j, whose kernels take turns with
  // these): a phase lasts at least as long as its bytes take at 10 TB/s (no GPU writes faster;
  // an H200 peaks at 4.8), and the phases lie within the host's clock around them.
  const double fillFloor = double(data.bytes()) / 10e12;
  Stopwatch around;
  PhaseClock clock(MemorySpace::Device, 3);
  {
    auto t = clock.phase(0);
    for (int i = 0; i < 10; ++i)
      test::fillWithDeviceLoop(data.data(), patches, cells);
  }
  {
    auto t = clock.phase(2);
    test::fillWithDeviceLoop(data.data(), patches, cells);
  }
  EXPECT_EQ(clock.seconds(0), 0.0) << "read before the clock settles";
  PhaseClock moved = std::move(clock);
  moved.settle();
  const double wall = around.seconds();
  EXPECT_GT(moved.seconds(0), 10 * fillFloor);
  EXPECT_GT(moved.seconds(2), fillFloor);
  EXPECT_LT(moved.seconds(0) + moved.seconds(2), wall + 1e-4);
  EXPECT_EQ(moved.seconds(1), 0.0);

  // Settled phases' events are used again; the slots keep adding.
  const double before = moved.seconds(0);
  {
    auto t = moved.phase(0);
    test::fillWithDeviceLoop(data.data(), patches, cells);
  }
  moved.settle();
  EXPECT_GT(moved.seconds(0), before);

  // settle(mark) reads the phases ended before the mark only: one ended after it stays pending
  // (the device may still run it) until a later settle.
  const double zero = moved.seconds(0), two = moved.seconds(2);
  {
    auto t = moved.phase(0);
    test::fillWithDeviceLoop(data.data(), patches, cells);
  }
  const std::size_t mark = moved.mark();
  {
    auto t = moved.phase(2);
    for (int i = 0; i < 10; ++i)
      test::fillWithDeviceLoop(data.data(), patches, cells);
  }
  moved.settle(mark);
  EXPECT_GT(moved.seconds(0), zero);
  EXPECT_EQ(moved.seconds(2), two);
  moved.settle();
  EXPECT_GT(moved.seconds(2), two);
}

// A gate that holds the device's work queue (test::holdDeviceUntilOpened) until the host opens
// it: the timing tests hold their points behind it, not behind an amount of queued work, so that
// tests sharing the device (ctest -j) cannot move them. openAfter opens it from a thread of its
// own, so that a call that (wrongly or rightly) waits for the queue cannot hang the test.
class DeviceGate {
public:
  using Clock = DeviceReached::Clock;
  DeviceGate() : flag_(1) {
    state() = 0;
    test::holdDeviceUntilOpened(flag_.data());
  }
  ~DeviceGate() {
    open();
    if (opener_.joinable())
      opener_.join();
    synchronizeDevice();
  }
  DeviceGate(const DeviceGate&) = delete;
  DeviceGate& operator=(const DeviceGate&) = delete;

  void open() { state() = 1; }
  void openAfter(std::chrono::milliseconds delay) {
    opener_ = std::thread([this, delay] {
      std::this_thread::sleep_for(delay);
      openedAt_ = Clock::now();
      open();
    });
  }
  // When openAfter's thread opened the gate (waits for it).
  Clock::time_point openedAt() {
    opener_.join();
    return openedAt_;
  }

private:
  volatile int& state() { return flag_.data()[0]; }
  PinnedArray<int> flag_;
  std::thread opener_;
  Clock::time_point openedAt_{};
};

// The host clock's reading when the device reaches a point of its work, held behind a gate: opened
// after the host's work, the device was busy all along; opened during it, the device got there
// after the opening and before the host's work ended. The margins allow for the device's clock
// read a little late on a shared device.
TEST_F(EngineDevice, DeviceReachedReadsWhenTheDeviceGotThere) {
  using Clock = DeviceReached::Clock;
  const auto busyHost = [](double seconds) {
    const auto start = Clock::now();
    while (std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
    }
  };
  const auto seconds = [](Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
  };
  constexpr double kMargin = 20e-3;
  {
    DeviceGate gate;
    const DeviceReached done;
    const auto start = Clock::now();
    busyHost(10e-3);
    const auto end = Clock::now();
    busyHost(kMargin);
    gate.open();
    synchronizeDevice();
    EXPECT_EQ(secondsBeside(done, start, end), seconds(start, end))
        << "the device got there before the gate opened";
  }
  {
    DeviceGate gate;
    const DeviceReached done;
    const auto start = Clock::now();
    busyHost(2 * kMargin);
    const auto opening = Clock::now();
    gate.open();
    busyHost(10 * kMargin);
    const auto end = Clock::now();
    synchronizeDevice();
    const double beside = secondsBeside(done, start, end);
    EXPECT_GT(beside, seconds(start, opening) - kMargin) << "before the gate opened";
    EXPECT_LT(beside, seconds(start, end)) << "not within the host's work";
  }
}

// A new array uploads beside the kernels queued on the device (toDevice, DeviceArray::uploaded:
// a regrid's plans while the remap kernel runs): it returns before the gate in front of it opens.
// A copy into an existing array waits for them: it returns after.
TEST_F(EngineDevice, NewArraysUploadWithoutWaitingForQueuedKernels) {
  using std::chrono::milliseconds;
  std::vector<int> values(100000);
  std::iota(values.begin(), values.end(), -7);
  {
    DeviceGate gate;
    gate.openAfter(milliseconds(500));
    const DeviceArray<int> uploaded = toDevice(values);
    const auto uploadReturned = DeviceGate::Clock::now();
    EXPECT_LT(uploadReturned, gate.openedAt()) << "the upload waited for the queued kernels";
    synchronizeDevice();
    EXPECT_EQ(toHost(uploaded), values);
  }
  DeviceArray<int> existing(values.size(), MemorySpace::Device);
  {
    DeviceGate gate;
    gate.openAfter(milliseconds(50));
    existing.copyFromHost(values);
    const auto copyReturned = DeviceGate::Clock::now();
    EXPECT_GT(copyReturned, gate.openedAt())
        << "a copy into an existing array did not wait for the kernels queued before it";
  }
  EXPECT_EQ(toHost(existing), values);
}

TEST_F(EngineDevice, ReductionsMatchTheHostTwin) {
  for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(1) << 22}) {
    std::vector<double> values(n);
    for (std::size_t i = 0; i < n; ++i)
      values[i] = std::cos(1e-3 * double(i)) + 1e-6 * double(i % 101);
    DeviceArray<double> device(n, MemorySpace::Device);
    device.copyFromHost(values);
    // Min and Max are exact in any order; a sum in another order differs by round-off relative
    // to the sum of magnitudes (the values cancel: the sum is far smaller than that).
    double magnitude = 0.0;
    for (double v : values)
      magnitude += std::fabs(v);
    EXPECT_EQ(reduce(device, ReduceKind::Min), reduceHost(values, ReduceKind::Min)) << n;
    EXPECT_EQ(reduce(device, ReduceKind::Max), reduceHost(values, ReduceKind::Max)) << n;
    EXPECT_NEAR(reduce(device, ReduceKind::Sum), reduceHost(values, ReduceKind::Sum),
                1e-12 * magnitude)
        << n;
  }
}

// The device's branch-free division, reciprocal and square root: within one unit in the last
// place of the correctly rounded result (the host's), over operands of every magnitude a
// simulation meets and of both signs; and the root of zero is zero, of a negative number NaN.
TEST_F(EngineDevice, ArithmeticIsWithinOneUnitInTheLastPlace) {
  std::mt19937_64 random(2026);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-1000, 1000);
  const int n = 1 << 20;
  std::vector<double> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = std::ldexp(mantissa(random), exponent(random) / 2); // a / b stays a normal number
    b[i] = std::ldexp(mantissa(random), exponent(random) / 2) * (i % 2 ? -1.0 : 1.0);
  }
  a[0] = 0.0;
  a[1] = -4.0;
  DeviceArray<double> dA(n, MemorySpace::Device), dB(n, MemorySpace::Device),
      quotient(n, MemorySpace::Device), inverse(n, MemorySpace::Device),
      root(n, MemorySpace::Device);
  dA.copyFromHost(a);
  dB.copyFromHost(b);
  test::arithmeticOnDevice(dA.data(), dB.data(), quotient.data(), inverse.data(), root.data(), n);
  std::vector<double> q(n), r(n), s(n);
  quotient.copyToHost(q);
  inverse.copyToHost(r);
  root.copyToHost(s);
  // Within one unit in the last place of x: between its two neighbours.
  const auto faithful = [](double device, double x) {
    return device >= std::nextafter(x, -INFINITY) && device <= std::nextafter(x, INFINITY);
  };
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(faithful(q[i], a[i] / b[i])) << a[i] << " / " << b[i] << ": " << q[i];
    ASSERT_TRUE(faithful(r[i], 1.0 / b[i])) << "1 / " << b[i] << ": " << r[i];
    if (i > 1) {
      ASSERT_TRUE(faithful(s[i], std::sqrt(a[i]))) << "sqrt " << a[i] << ": " << s[i];
    }
  }
  EXPECT_EQ(s[0], 0.0);
  EXPECT_TRUE(std::isnan(s[1]));
}

TEST_F(EngineDevice, CheckedCallsReportFileLineAndMessage) {
  try {
    TESSERA_GPU_CHECK(gpuMemcpy(nullptr, reinterpret_cast<void*>(0x1), 8, gpuMemcpyDefault));
    FAIL() << "an invalid copy did not fail";
  } catch (const GpuError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("test_engine_device.cpp"), std::string::npos) << what;
    EXPECT_NE(what.find("gpuMemcpy"), std::string::npos) << what;
  }
  (void)gpuGetLastError();
}

} // namespace
} // namespace tessera
