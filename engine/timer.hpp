#pragma once
// Wall-clock timing for progress reports and phase breakdowns (host clock; device work is
// synchronised by the caller before reading it).
#include <chrono>

namespace tessera {

class Stopwatch {
public:
  Stopwatch() : start_(Clock::now()) {}
  void restart() { start_ = Clock::now(); }
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

// Adds the lifetime of the scope to an accumulator: `{ ScopedTimer t(timers.update); ... }`.
class ScopedTimer {
public:
  explicit ScopedTimer(double& accumulator) : accumulator_(accumulator) {}
  ~ScopedTimer() { accumulator_ += watch_.seconds(); }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

private:
  double& accumulator_;
  Stopwatch watch_;
};

} // namespace tessera
