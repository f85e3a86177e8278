// Device twins of the engine's host loops and reductions, compared with the host versions.
// Skipped where no device is visible. Plain C++: the kernels are in engine_device_twins.cu.
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/gpu_runtime.hpp"
#include "engine/reduce.hpp"
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
