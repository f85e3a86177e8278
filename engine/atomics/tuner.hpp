#pragma once
// The strategy tuner: times the candidate strategies of one kernel on the actual mesh and device
// and picks the fastest. Each candidate runs once untimed (first-touch, instruction cache, lazy
// module loading), then `repetitions` timed runs; the median decides, so that one slow outlier
// from the system cannot. A candidate whose untimed run took a good part of timedSeconds gets
// fewer timed runs, down to one: where a run takes a second (a second-order residual of 200k
// tetrahedra on two host cores) outliers weigh little, and 8 runs of 8 strategies of each scatter
// took most of a run's setup (56 of 62 s, RESULTS.md). Where a run is collective (a distributed
// solver's residual exchanges halos), every rank must make the same number of runs, or one waits
// for a message that never comes: the number follows the slowest rank's untimed run, not the
// rank's own clock. The caller logs the choice; an input file can force a strategy instead.
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/atomics/strategy.hpp"

namespace tessera::atomics {

struct TunerChoice {
  Strategy strategy = Strategy::GlobalAtomic;
  bool forced = false;
  std::vector<std::pair<Strategy, double>> medianSeconds; // per candidate timed (empty if forced)
};

// The longest of a time over the ranks that tune together, on every rank (collective); empty
// where one rank tunes alone.
using SlowestRank = std::function<double(double)>;

inline constexpr int kTunerRepetitions = 7;
inline constexpr double kTunerTimedSeconds = 0.1;

// `run(s)` does the kernel's work once with strategy s; the tuner waits for the device after each
// run (synchronizeDevice) so that host-clock times include the kernel. Throws
// std::invalid_argument when there are no candidates or repetitions < 1.
// timedSeconds: about the most a candidate's timed runs take together (beside its untimed one).
TunerChoice tuneStrategy(std::span<const Strategy> candidates,
                         const std::function<void(Strategy)>& run,
                         int repetitions = kTunerRepetitions,
                         double timedSeconds = kTunerTimedSeconds,
                         const SlowestRank& slowestRank = {});

// "picked shuffle_transpose (forced)" or "picked hybrid: global_atomic 1.20 ms, hybrid 0.61 ms,
// ..."
std::string describe(const TunerChoice& choice);

} // namespace tessera::atomics
