#include "engine/phase_clock.hpp"

#include <utility>

#include "engine/device_runtime.hpp"

namespace tessera {

PhaseClock::Phase::Phase(PhaseClock& clock, int slot) : clock_(clock), slot_(slot) {
  if (clock_.space_ == MemorySpace::Device)
    pending_ = clock_.begin(slot_);
}

PhaseClock::Phase::~Phase() {
  if (clock_.space_ == MemorySpace::Device)
    clock_.end(pending_);
  else
    clock_.seconds_[std::size_t(slot_)] += watch_.seconds();
}

PhaseClock::~PhaseClock() {
  release();
}

PhaseClock::PhaseClock(PhaseClock&& other) noexcept
    : space_(other.space_), seconds_(std::move(other.seconds_)),
      pending_(std::move(other.pending_)), spare_(std::move(other.spare_)) {
  other.pending_.clear();
  other.spare_.clear();
}

PhaseClock& PhaseClock::operator=(PhaseClock&& other) noexcept {
  if (this != &other) {
    release();
    space_ = other.space_;
    seconds_ = std::move(other.seconds_);
    pending_ = std::move(other.pending_);
    spare_ = std::move(other.spare_);
    other.pending_.clear();
    other.spare_.clear();
  }
  return *this;
}

#if TESSERA_HAS_DEVICE

void* PhaseClock::event() {
  if (!spare_.empty()) {
    void* e = spare_.back();
    spare_.pop_back();
    return e;
  }
  gpuEvent_t e;
  TESSERA_GPU_CHECK(gpuEventCreate(&e));
  return static_cast<void*>(e);
}

std::size_t PhaseClock::begin(int slot) {
  Pending p{event(), nullptr, slot};
  TESSERA_GPU_CHECK(gpuEventRecord(static_cast<gpuEvent_t>(p.start), 0));
  pending_.push_back(p);
  return pending_.size() - 1;
}

void PhaseClock::end(std::size_t pending) {
  // A destructor's call: a failed record leaves the phase without an end, which settle skips.
  void* e = event();
  if (gpuEventRecord(static_cast<gpuEvent_t>(e), 0) == gpuSuccess)
    pending_[pending].end = e;
  else
    spare_.push_back(e);
}

void PhaseClock::settle() {
  if (pending_.empty())
    return;
  if (pending_.back().end)
    TESSERA_GPU_CHECK(gpuEventSynchronize(static_cast<gpuEvent_t>(pending_.back().end)));
  for (Pending& p : pending_) {
    if (p.end) {
      float ms = 0.0f;
      TESSERA_GPU_CHECK(gpuEventElapsedTime(&ms, static_cast<gpuEvent_t>(p.start),
                                            static_cast<gpuEvent_t>(p.end)));
      seconds_[std::size_t(p.slot)] += 1e-3 * double(ms);
      spare_.push_back(p.end);
    }
    spare_.push_back(p.start);
  }
  pending_.clear();
}

void PhaseClock::release() noexcept {
  for (const Pending& p : pending_) {
    (void)gpuEventDestroy(static_cast<gpuEvent_t>(p.start));
    if (p.end)
      (void)gpuEventDestroy(static_cast<gpuEvent_t>(p.end));
  }
  for (void* e : spare_)
    (void)gpuEventDestroy(static_cast<gpuEvent_t>(e));
  pending_.clear();
  spare_.clear();
}

#else

// A build without a device back end has no device phases (PatchSolver refuses the space first).
void* PhaseClock::event() {
  return nullptr;
}
std::size_t PhaseClock::begin(int) {
  return 0;
}
void PhaseClock::end(std::size_t) {}
void PhaseClock::settle() {}
void PhaseClock::release() noexcept {}

#endif

} // namespace tessera
