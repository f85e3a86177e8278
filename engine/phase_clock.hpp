#pragma once
// PhaseClock: the seconds a run spends in each of its phases (halo fill, update, refluxing: slots
// 0, 1, ... of the caller's choosing), without making the device wait for the timing.
//
// On the host a phase is timed by the host clock, as ScopedTimer does. On a device it is the time
// between two events on the device's stream: the host records them and goes on launching, and the
// clock reads them when it settles, after the device has passed them. A device step then waits
// only where its results are needed (dt), not once per phase; the phases' times are those of the
// device's timeline, so a gap where the device waited for the host belongs to the phase it began.
#include <cstddef>
#include <vector>

#include "engine/memory.hpp"
#include "engine/timer.hpp"

namespace tessera {

class PhaseClock {
public:
  explicit PhaseClock(MemorySpace space = MemorySpace::Host, int slots = 1)
      : space_(space), seconds_(std::size_t(slots), 0.0) {}
  ~PhaseClock();
  PhaseClock(PhaseClock&& other) noexcept;
  PhaseClock& operator=(PhaseClock&& other) noexcept;
  PhaseClock(const PhaseClock&) = delete;
  PhaseClock& operator=(const PhaseClock&) = delete;

  // A phase of slot `slot`, from its construction to the end of its scope (within the clock's
  // lifetime, the clock not moved meanwhile).
  class Phase {
  public:
    Phase(PhaseClock& clock, int slot);
    ~Phase();
    Phase(const Phase&) = delete;
    Phase& operator=(const Phase&) = delete;

  private:
    PhaseClock& clock_;
    int slot_;
    Stopwatch watch_;       // host phases
    void* start_ = nullptr; // device phases: the event at its start
  };
  [[nodiscard]] Phase phase(int slot) { return Phase(*this, slot); }

  // Adds the time of every phase ended so far to its slot (one still open counts when it has
  // ended): on a device this waits until the device has passed the last phase's end.
  void settle() { settle(mark()); }
  // The phases ended so far, for settle(mark): work launched after the mark (a phase ended later)
  // may still run on the device when the phases before it are read.
  std::size_t mark() const { return ended_.size(); }
  // Adds the time of the first `mark` phases ended since the last settle; waits until the device
  // has passed the last of them only.
  void settle(std::size_t mark);
  // A slot's seconds as of the last settle (host phases: as of their end).
  double seconds(int slot) const { return seconds_[std::size_t(slot)]; }

private:
  struct Ended {
    void* start = nullptr; // gpuEvent_t, opaque here: this header is host code
    void* end = nullptr;
    int slot = 0;
  };
  void* record(); // a recycled or new event, recorded on the device's stream now
  void end(void* start, int slot) noexcept;
  void release() noexcept;

  MemorySpace space_;
  std::vector<double> seconds_;
  std::vector<Ended> ended_; // phases ended since the last settle
  std::vector<void*> spare_; // events of settled phases, recorded again
};

} // namespace tessera
