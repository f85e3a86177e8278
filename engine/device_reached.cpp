#include "engine/device_reached.hpp"

#include <algorithm>

#include "engine/device_runtime.hpp"

namespace tessera {

#if TESSERA_HAS_DEVICE
namespace {
// A stream that waits for nothing (not even the default stream's work): an event recorded there
// completes at once, reading the device's clock as the host records it.
gpuStream_t idleStream() {
  static const gpuStream_t stream = [] {
    gpuStream_t s;
    TESSERA_GPU_CHECK(gpuStreamCreateWithFlags(&s, gpuStreamNonBlocking));
    return s;
  }();
  return stream;
}
} // namespace

DeviceReached::DeviceReached() {
  gpuEvent_t reached, setOnDevice;
  TESSERA_GPU_CHECK(gpuEventCreate(&reached));
  reached_ = static_cast<void*>(reached);
  TESSERA_GPU_CHECK(gpuEventCreate(&setOnDevice));
  setOnDevice_ = static_cast<void*>(setOnDevice);
  set_ = Clock::now();
  TESSERA_GPU_CHECK(gpuEventRecord(setOnDevice, idleStream()));
  TESSERA_GPU_CHECK(gpuEventRecord(reached, 0));
}

DeviceReached::~DeviceReached() {
  (void)gpuEventDestroy(static_cast<gpuEvent_t>(reached_)); // nothing to do about a failure
  (void)gpuEventDestroy(static_cast<gpuEvent_t>(setOnDevice_));
}

DeviceReached::Clock::time_point DeviceReached::at() const {
  // Both: with nothing queued before it the point may be reached before the idle stream's event.
  TESSERA_GPU_CHECK(gpuEventSynchronize(static_cast<gpuEvent_t>(setOnDevice_)));
  TESSERA_GPU_CHECK(gpuEventSynchronize(static_cast<gpuEvent_t>(reached_)));
  float ms = 0.0f;
  TESSERA_GPU_CHECK(gpuEventElapsedTime(&ms, static_cast<gpuEvent_t>(setOnDevice_),
                                        static_cast<gpuEvent_t>(reached_)));
  const auto after = std::chrono::duration<double, std::milli>(std::max(0.0f, ms));
  return set_ + std::chrono::duration_cast<Clock::duration>(after);
}

#else

DeviceReached::DeviceReached() : set_(Clock::now()) {}
DeviceReached::~DeviceReached() = default;
DeviceReached::Clock::time_point DeviceReached::at() const {
  return set_;
}

#endif

double secondsBeside(const DeviceReached& point, DeviceReached::Clock::time_point start,
                     DeviceReached::Clock::time_point end) {
  const auto until = std::clamp(point.at(), start, end);
  return std::chrono::duration<double>(until - start).count();
}

} // namespace tessera
