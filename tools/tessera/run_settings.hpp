#pragma once
// What every kind of case shares: the [time], [output] and [run] settings, the output folder with
// the effective configuration, and the schedule of output times.
#include <filesystem>
#include <mpi.h>
#include <optional>
#include <string>

#include "engine/memory.hpp"
#include "io/config.hpp"
#include "io/run_log.hpp"
#include "tools/tessera/run_case.hpp"

namespace tessera::cli {

struct RunSettings {
  double endTime = 0.0;
  long long maxSteps = 0;
  double outputInterval = 0.0;
  bool writeOutput = true;
  std::filesystem::path directory;
  std::string name;
  int progressEvery = 1;
};

// A steady run (timeDependent false: pseudo-time stepping to a steady state) reads no [time] keys
// and writes the first and last states only.
RunSettings readRunSettings(io::Config& cfg, const RunRequest& request, bool timeDependent = true);

// The [run] section's back end: "host", "device", or "auto" (the device where this build has
// one and a GPU is visible, else the host). A device that was asked for and is missing stops the
// run with exit code 12; the first line of the run says which back end it uses and why.
MemorySpace readBackend(io::Config& cfg);

// Creates the output folder and writes the effective configuration into it.
void prepareOutputFolder(const io::Config& cfg, const RunSettings& run);

// Collective over MPI_COMM_WORLD: rank 0 creates the output folder (prepareOutputFolder) and
// returns the run's log.jsonl; the other ranks get none. Every rank returns once the folder
// exists.
std::optional<io::RunLog> openLeadRunLog(const io::Config& cfg, const RunRequest& request,
                                         const RunSettings& run);

// Calls writeStep() on every rank of MPI_COMM_WORLD, rank 0 last: its call writes the .pvtu that
// names the other ranks' pieces, which must exist by then (io/vtk_output.hpp).
template <class WriteStep>
auto writeRankZeroLast(WriteStep&& writeStep) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    return writeStep();
  }
  auto written = writeStep();
  MPI_Barrier(MPI_COMM_WORLD);
  return written;
}

// Writes one output step where the run writes output: writeStep() on every rank, rank 0 last
// (writeRankZeroLast); rank 0's log records the file.
template <class WriteStep>
void writeOutputStep(const RunSettings& run, std::optional<io::RunLog>& log, long long step,
                     double time, WriteStep&& writeStep) {
  if (!run.writeOutput)
    return;
  const auto file = writeRankZeroLast(writeStep);
  if (log)
    log->output(step, time, file);
}

// In a build without VTK, where the run would write output: rank 0 says that it writes none.
void noteNoVtkOutput(const RunSettings& run);

// Steps end exactly on output times (multiples of the interval, not a running sum that drifts)
// and on the end time; a relative slack absorbs round-off.
class OutputSchedule {
public:
  explicit OutputSchedule(const RunSettings& run);

  // Whether the run goes on from this time and step count: before the end time (up to the slack)
  // and below time.max_steps.
  bool beforeEnd(double time) const { return time < endTime_ - slack_; }
  bool running(double time, long long step) const { return beforeEnd(time) && step < maxSteps_; }
  // The time the next step must not pass: the next output time, the end time at most.
  double next() const { return next_; }
  double slack() const { return slack_; }
  // After a step that ended at `time`: true where it reached an output time before the end time
  // (the end time's output follows the loop); the schedule then moves to the next one.
  bool reached(double time);

private:
  double outputTime(long long k) const;

  double endTime_, interval_, slack_;
  long long maxSteps_;
  long long outputsDone_ = 0;
  double next_;
};

} // namespace tessera::cli
