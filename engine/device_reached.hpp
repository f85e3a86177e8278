#pragma once
// The host clock's reading when the device reaches a point of its work: host work done after
// launching device work (a regrid's plans while the device steps) ran beside it until then, and
// kept the device waiting after. Without a device back end the point is reached when it is set.
#include <chrono>

namespace tessera {

class DeviceReached {
public:
  using Clock = std::chrono::steady_clock;

  // The point: after the device work of the default stream queued so far.
  DeviceReached();
  ~DeviceReached();
  DeviceReached(const DeviceReached&) = delete;
  DeviceReached& operator=(const DeviceReached&) = delete;

  // When the device got there; once the device has passed the point (after a wait for it).
  Clock::time_point at() const;

private:
  Clock::time_point set_;
  // Events (device builds): one after the queued work, one recorded as the point was set on an
  // idle stream (the device's clock then); their difference is how long after setting the device
  // got there.
  [[maybe_unused]] void* reached_ = nullptr;
  [[maybe_unused]] void* setOnDevice_ = nullptr;
};

// The seconds of host work from `start` to `end` that ran while the device had not yet reached
// `point` (of work queued before `start`).
double secondsBeside(const DeviceReached& point, DeviceReached::Clock::time_point start,
                     DeviceReached::Clock::time_point end);

} // namespace tessera
