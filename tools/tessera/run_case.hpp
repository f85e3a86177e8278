#pragma once
// `tessera run`: read a case, build the solver, step to the end time with output and a log.
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/timer.hpp"
#include "io/run_log.hpp"

namespace tessera::cli {

struct RunRequest {
  std::filesystem::path caseFile;
  std::vector<std::string> overrides; // key=value, applied after the file in order
  bool quiet = false;                 // no progress lines
  bool verbose = false;               // a progress line every step
  bool checkOnly = false;             // read and check the case, say what it would run, run nothing
  std::optional<std::filesystem::path> restart; // a checkpoint folder to continue from
  Stopwatch started;                            // since the program started: run.wall_limit
};

// Exit codes beyond the configuration errors of io::ConfigErrorKind.
inline constexpr int kExitOutputError = 10;     // the output folder or a file cannot be written
inline constexpr int kExitUnphysicalState = 11; // the solution lost positivity or became NaN
inline constexpr int kExitGpuError = 13;        // a GPU call failed
inline constexpr int kExitBadCheckpoint = 14; // --restart's checkpoint is damaged or another case's
inline constexpr int kExitWallLimit = 15;     // stopped before run.wall_limit, with a checkpoint
// A run stopped by SIGINT or SIGTERM exits with 128 + the signal's number (130, 143), as a shell
// reports a process the signal ended, after writing a checkpoint.

// An error that every rank raised alike (the ranks agreed on it, mpi::firstMessage): rank 0
// reports it once.
class CollectiveFailure : public std::runtime_error {
public:
  CollectiveFailure(int exitCode, const std::string& message)
      : std::runtime_error(message), exitCode_(exitCode) {}
  int exitCode() const { return exitCode_; }

private:
  int exitCode_;
};

// What a patch run did, as its log's summary says it (rank 0's view; for bench_run): the steps,
// the cell-updates over them, the wall time of stepping and its split, and the output's time.
struct RunTotals {
  long long steps = 0;
  long long cellsAtEnd = 0;
  double cellUpdates = 0.0;
  double steppingSeconds = 0.0;
  io::RunLog::PhaseSeconds phases;
  double outputSeconds = 0.0;
};

// Runs the case and returns the exit code: 0 at its end, kExitWallLimit or 128 + a signal's
// number where it stopped early with a checkpoint. Throws io::ConfigError for bad configuration
// before any step is taken, io::CheckpointError for a checkpoint it cannot continue from.
// `totals`, where given, receives a patch run's totals on rank 0 (untouched otherwise).
int runCase(const RunRequest& request, RunTotals* totals = nullptr);

} // namespace tessera::cli
