#pragma once
// The timing of the device benchmarks: each benchmark repetition times one call of a device
// operation (after one untimed call: module loading, first touch), keeps the seconds per key for
// the program's closing summary, and reports GB/s over the bytes the operation must move.
#include <algorithm>
#include <benchmark/benchmark.h>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "engine/memory.hpp"
#include "engine/timer.hpp"

namespace tessera::bench {

inline double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// Seconds of every timed call per key, and the bytes each key's operation moves.
inline std::map<std::string, std::vector<double>>& samples() {
  static std::map<std::string, std::vector<double>> all;
  return all;
}
inline std::map<std::string, double>& bytesOf() {
  static std::map<std::string, double> all;
  return all;
}

// `call` does `operationsPerCall` operations (e.g. sweeps); times are per operation.
template <class F>
void timedRepetition(benchmark::State& state, const std::string& key, double bytes, F&& call,
                     double operationsPerCall = 1.0) {
  call();
  bytesOf()[key] = bytes;
  for (auto _ : state) {
    synchronizeDevice();
    Stopwatch watch;
    call();
    synchronizeDevice();
    const double s = watch.seconds() / operationsPerCall;
    state.SetIterationTime(s);
    samples()[key].push_back(s);
    state.counters["GB/s"] = bytes * 1e-9 / s;
  }
}

// How every such benchmark runs: one timed call per repetition (the times are set by hand), so
// many repetitions, reported as their aggregates (the median among them) in milliseconds.
inline benchmark::internal::Benchmark* timedOncePerRepetition(benchmark::internal::Benchmark* b,
                                                              int repetitions) {
  return b->UseManualTime()
      ->Iterations(1)
      ->Repetitions(repetitions)
      ->ReportAggregatesOnly(true)
      ->Unit(benchmark::kMillisecond);
}

} // namespace tessera::bench
