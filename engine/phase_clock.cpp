#include "engine/phase_clock.hpp"

#include <algorithm>
#include <utility>

#include "engine/device_runtime.hpp"

namespace tessera {

PhaseClock::Phase::Phase(PhaseClock& clock, int slot) : clock_(clock), slot_(slot) {
  if (clock_.space_ == MemorySpace::Device)
    start_ = clock_.record();
}

PhaseClock::Phase::~Phase() {
  if (clock_.space_ == MemorySpace::Device)
    clock_.end(start_, slot_);
  else
    clock_.seconds_[std::size_t(slot_)] += watch_.seconds();
}

PhaseClock::~PhaseClock() {
  release();
}

PhaseClock::PhaseClock(PhaseClock&& other) noexcept
    : space_(other.space_), seconds_(std::move(other.seconds_)), ended_(std::move(other.ended_)),
      spare_(std::move(other.spare_)) {
  other.ended_.clear();
  other.spare_.clear();
}

PhaseClock& PhaseClock::operator=(PhaseClock&& other) noexcept {
  if (this != &other) {
    release();
    space_ = other.space_;
    seconds_ = std::move(other.seconds_);
    ended_ = std::move(other.ended_);
    spare_ = std::move(other.spare_);
    other.ended_.clear();
    other.spare_.clear();
  }
  return *this;
}

#if TESSERA_HAS_DEVICE

void* PhaseClock::record() {
  gpuEvent_t e;
  if (spare_.empty()) {
    TESSERA_GPU_CHECK(gpuEventCreate(&e));
  } else {
    e = static_cast<gpuEvent_t>(spare_.back());
    spare_.pop_back();
  }
  if (const gpuError_t status = gpuEventRecord(e, 0); status != gpuSuccess) {
    spare_.push_back(static_cast<void*>(e));
    TESSERA_GPU_CHECK(status);
  }
  return static_cast<void*>(e);
}

// A phase's destructor's call, so nothing may throw: a phase whose end cannot be recorded is not
// counted (its start event is kept for reuse).
void PhaseClock::end(void* start, int slot) noexcept {
  try {
    ended_.push_back({start, record(), slot});
  } catch (...) {
    spare_.push_back(start);
  }
}

void PhaseClock::settle(std::size_t mark) {
  mark = std::min(mark, ended_.size());
  if (mark == 0)
    return;
  TESSERA_GPU_CHECK(gpuEventSynchronize(static_cast<gpuEvent_t>(ended_[mark - 1].end)));
  for (std::size_t i = 0; i < mark; ++i) {
    const Ended& p = ended_[i];
    float ms = 0.0f;
    TESSERA_GPU_CHECK(
        gpuEventElapsedTime(&ms, static_cast<gpuEvent_t>(p.start), static_cast<gpuEvent_t>(p.end)));
    seconds_[std::size_t(p.slot)] += 1e-3 * double(ms);
    spare_.push_back(p.start);
    spare_.push_back(p.end);
  }
  ended_.erase(ended_.begin(), ended_.begin() + std::ptrdiff_t(mark));
}

void PhaseClock::release() noexcept {
  for (const Ended& p : ended_) {
    (void)gpuEventDestroy(static_cast<gpuEvent_t>(p.start));
    (void)gpuEventDestroy(static_cast<gpuEvent_t>(p.end));
  }
  for (void* e : spare_)
    (void)gpuEventDestroy(static_cast<gpuEvent_t>(e));
  ended_.clear();
  spare_.clear();
}

#else

// A build without a device back end has no device phases (PatchSolver refuses the space first).
void* PhaseClock::record() {
  return nullptr;
}
void PhaseClock::end(void*, int) noexcept {}
void PhaseClock::settle(std::size_t) {}
void PhaseClock::release() noexcept {}

#endif

} // namespace tessera
