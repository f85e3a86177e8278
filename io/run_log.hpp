#pragma once
// What a run reports while it goes: a progress line per step on standard output, and the same
// facts as JSON lines (one object per line) in a log file for scripts.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "engine/atomics/tuner.hpp"

namespace tessera::io {

struct StepReport {
  long long step = 0;
  double time = 0.0;
  double dt = 0.0;
  int patches = 0; // 0 on an unstructured mesh: no patches, no levels in the progress line
  long long cells = 0;
  int levels = 1;
  double stepSeconds = 0.0; // wall time of this step's halo fill and update
};

// One pseudo-time iteration of a steady (implicit) run, measured before its step.
struct IterationReport {
  long long iteration = 0;
  double residual = 0.0, relativeResidual = 0.0; // the density residual's norm, and / the first
  double cfl = 0.0;                              // of the step from this state
  double seconds = 0.0;                          // wall time of the iteration
};

class RunLog {
public:
  // `endTime` is the simulated time the run stops at, for the ETA; progressEvery = 0 prints none.
  // A restarted run appends to the log of the run it continues.
  RunLog(const std::filesystem::path& jsonLinesPath, double endTime, int progressEvery,
         bool append = false);

  void step(const StepReport& r);
  // An implicit run's iteration: a JSON line only (the run prints its own progress line).
  void iteration(const IterationReport& r);
  void output(long long step, double time, const std::filesystem::path& file);
  void checkpoint(long long step, double time, const std::filesystem::path& folder);
  // The atomic strategy of one face scatter: forced by the case, or the tuner's pick with the
  // median time of every candidate.
  void atomicStrategy(std::string_view scatter, const atomics::TunerChoice& choice);
  // Wall time of the phases of stepping.
  struct PhaseSeconds {
    double halo = 0.0, update = 0.0, reflux = 0.0, regrid = 0.0;
  };

  // The totals, with the stepping time split into its phases.
  // firstOrderFallbacks: cells (counted once per axis and stage) whose reconstruction fell back
  // to first order for positivity.
  void finish(long long steps, double time, const PhaseSeconds& phases,
              long long firstOrderFallbacks = 0);

  double cellUpdatesPerSecond() const;

private:
  void line(const std::string& json);

  std::ofstream json_;
  std::filesystem::path path_;
  double endTime_;
  int progressEvery_;
  double steppingSeconds_ = 0.0; // sum of step wall times, output excluded
  double cellUpdates_ = 0.0;
};

} // namespace tessera::io
