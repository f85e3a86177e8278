#pragma once
// What a run reports while it goes: progress lines on standard output, as often as its
// ProgressPolicy asks, a summary at its end, and every step's facts as JSON lines (one object per
// line) in a log file for scripts.
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/regrid_times.hpp"
#include "engine/atomics/tuner.hpp"
#include "engine/timer.hpp"

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

// How often the terminal hears of steps: by default at most about once a second, and always of
// the first and last step, a step that writes output and one whose regrid added or removed a level;
// or every so many steps; or never (the header, errors and the summary still print).
struct ProgressPolicy {
  int everySteps = 0;        // a line every this many steps (0: by wall time)
  double everySeconds = 1.0; // by wall time: at most a line per this many seconds, with the above
  bool quiet = false;        // no step lines
};

// One pseudo-time iteration of a steady (implicit) run, measured before its step.
struct IterationReport {
  long long iteration = 0;
  double residual = 0.0, relativeResidual = 0.0; // the density residual's norm, and / the first
  double cfl = 0.0;                              // of the step from this state
  double seconds = 0.0;                          // wall time of the iteration
  double relaxation = 1.0; // the smallest under-relaxation factor of the step before
  bool firstOrder = false; // the residual of a first-order start
  bool limiterFrozen = false;
  bool limiterRefreshed = false; // the frozen limiter's factors taken anew from this state
  // Newton-Krylov's linear solve of the step before: its Krylov vectors and the relative linear
  // residual it left (0 vectors: no such solve, and neither is written).
  int krylovVectors = 0;
  double linearResidual = 0.0;
  int preconditionerSweeps = 0; // of the step from this state (0: not Newton-Krylov, not written)
};

// The force and moment on one named boundary (a tag of an unstructured mesh), and the lift, drag
// and pitching-moment coefficients of all walls together where a reference defines them.
struct BoundaryForce {
  std::string name;
  std::array<double, 3> force{}, moment{};
};
struct ForceCoefficientsRecord {
  double lift = 0.0, drag = 0.0, moment = 0.0;
};

class RunLog {
public:
  // `endTime` is the simulated time the run stops at, for the ETA; `series` the output's .pvd, for
  // the summary. A restarted run appends to the log of the run it continues.
  RunLog(const std::filesystem::path& jsonLinesPath, double endTime, ProgressPolicy progress,
         std::filesystem::path series, bool append = false);

  void step(const StepReport& r);
  // A steady run's iteration, measured before its step (seconds: since the measurement before).
  void iteration(const IterationReport& r);
  // An output step written (in `seconds`): its step's progress line prints if it has not.
  void output(long long step, double time, const std::filesystem::path& file, double seconds);
  void checkpoint(long long step, double time, const std::filesystem::path& folder);
  // The forces on the walls at a step (explicit) or iteration (steady run), in the log; the last
  // ones print in the summary.
  void forces(long long step, const std::vector<BoundaryForce>& walls,
              const std::optional<ForceCoefficientsRecord>& coefficients);
  // The atomic strategy of one face scatter: forced by the case, or the tuner's pick with the
  // median time of every candidate.
  void atomicStrategy(std::string_view scatter, const atomics::TunerChoice& choice);
  // Wall time of the phases of stepping, a regrid's split into its own phases.
  struct PhaseSeconds {
    double halo = 0.0, update = 0.0, reflux = 0.0;
    RegridTimes regrid;
    double exchange = 0.0; // the steps' wait for other ranks' ghost values (StepTimes::exchange)
  };

  // The totals, with the stepping time split into its phases, in the log and as the summary
  // table (after the last step's progress line, if it has not printed). firstOrderFallbacks: cells
  // (counted once per axis and stage) whose reconstruction fell back to first order for
  // positivity.
  void finish(long long steps, double time, const PhaseSeconds& phases,
              long long firstOrderFallbacks = 0);
  // The same for a steady run: its iterations and the residual's drop, and where the limiter was
  // frozen, the residual of the last state with the limiter live (negative: not frozen).
  void finishSteady(long long iterations, double relativeResidual, double liveRelativeResidual);

  double cellUpdatesPerSecond() const;
  double cellUpdates() const { return cellUpdates_; }
  double steppingSeconds() const { return steppingSeconds_; }
  double outputSeconds() const { return outputSeconds_; }

private:
  void line(const std::string& json);
  void printStep(const StepReport& r);
  void printIteration(const IterationReport& r);
  // The summary's rows that every run has: output written and the last checkpoint.
  void printOutputRows() const;
  void printForceRows() const;

  std::ofstream json_;
  std::filesystem::path path_, series_;
  double endTime_;
  ProgressPolicy progress_;
  Stopwatch sinceLine_;                 // wall time since the last progress line
  std::optional<StepReport> unprinted_; // the last step, where its line has not printed
  std::optional<IterationReport> unprintedIteration_;
  long long stepsSeen_ = 0;
  long long firstCells_ = -1;
  int lastLevels_ = -1;
  long long lastCells_ = -1;
  double steppingSeconds_ = 0.0; // sum of step wall times, output excluded
  std::vector<BoundaryForce> lastForces_;
  std::optional<ForceCoefficientsRecord> lastCoefficients_;
  double cellUpdates_ = 0.0;
  long long outputs_ = 0;
  double outputSeconds_ = 0.0;
  std::filesystem::path lastCheckpoint_;
};

} // namespace tessera::io
