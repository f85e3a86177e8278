#pragma once
// What every kind of case shares: the [time], [output] and [run] settings, the output folder with
// the effective configuration, and the schedule of output times.
#include <filesystem>
#include <mpi.h>
#include <optional>
#include <string>
#include <vector>

#include "engine/memory.hpp"
#include "engine/timer.hpp"
#include "io/config.hpp"
#include "io/output_fields.hpp"
#include "io/patch_mesh.hpp"
#include "io/run_log.hpp"
#include "tools/tessera/run_case.hpp"
#include "tools/tessera/stop_signals.hpp"

namespace tessera::cli {

// A CFL number below this would take more steps than any run can: a mistake, refused.
inline constexpr double kSmallestCfl = 1e-6;

struct RunSettings {
  double endTime = 0.0;
  long long maxSteps = 0;
  double outputInterval = 0.0;     // output every this much simulated time (0: none by time)
  std::vector<double> outputTimes; // or at these times (ascending, within the end time)
  long long outputEverySteps = 0;  // and every this many steps (0: none by step)
  bool writeOutput = true;
  io::OutputFields outputFields; // output.fields (readOutputFields)
  io::PatchOutputFormat outputFormat = io::PatchOutputFormat::Unstructured; // output.format
  std::filesystem::path directory;
  std::string name;
  io::ProgressPolicy progress;
  double wallLimit = 0.0; // run.wall_limit: seconds the run may take (0: no limit)
};

// The [checkpoint] section: when a run writes a checkpoint besides at every clean stop (its end,
// run.wall_limit, a signal), where, and how many it keeps.
struct CheckpointSettings {
  double interval = 0.0;     // simulated time between checkpoints (0: none by time)
  long long everySteps = 0;  // steps between checkpoints (0: none by step)
  double wallInterval = 0.0; // wall-clock seconds between checkpoints (0: none by wall time)
  int keep = 2;              // the newest complete checkpoints kept
  std::filesystem::path directory;
  // A checkpoint when the run reaches its end; a stop by a signal or run.wall_limit writes one
  // whatever this says (it is what the run continues from).
  bool atEnd = true;
};
CheckpointSettings readCheckpointSettings(io::Config& cfg, const RunSettings& run);

// A steady run (timeDependent false: pseudo-time stepping to a steady state) reads no [time] keys
// and writes the first and last states only.
RunSettings readRunSettings(io::Config& cfg, const RunRequest& request, bool timeDependent = true);

// The [run] section's back end: "host", "device", or "auto" (the device where this build has
// one and a GPU is visible, else the host). A device that was asked for and is missing stops the
// run with exit code 12; a run on a device says so in its first line (a host run says nothing).
// With it run.exchange: how the GPUs of several ranks exchange ghost values, "auto", "staged" or
// "peer" (engine/mpi/exchange_transport.hpp), chosen here, collectively, and named in a line; one
// the machine cannot serve stops the run with exit code 12 on every rank.
MemorySpace readBackend(io::Config& cfg);

// Creates the output folder and writes the effective configuration into it. A folder that holds
// an earlier run's files is first renamed to <folder>.previous-<n>, unless this run continues
// that run (a restart).
void prepareOutputFolder(const io::Config& cfg, const RunSettings& run, bool continuing);

// Collective over MPI_COMM_WORLD: rank 0 creates the output folder (prepareOutputFolder) and
// returns the run's log.jsonl; the other ranks get none. Every rank returns once the folder
// exists, or throws CollectiveFailure (exit code 10) where it cannot be made.
// A restarted run appends to the log.
std::optional<io::RunLog> openLeadRunLog(const io::Config& cfg, const RunSettings& run,
                                         bool append = false);

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

// output.fields: what each output step holds (io/output_fields.hpp), the primitive variables by
// default; with physics.gas_constant for temperature and entropy. `neighbours`: whether the mesh
// gives the output each cell's neighbours (patch meshes do), which vorticity and schlieren need.
template <ConservationLaw PDE>
io::OutputFields readOutputFields(io::Config& cfg, bool neighbours) {
  const std::vector<std::string> names = cfg.getChoices(
      "output.fields", std::vector<std::string>{"primitive"}, io::outputFieldChoices<PDE>(true));
  io::OutputFields output;
  output.fields = io::selectOutputFields<PDE>(names, true);
  for (const io::OutputField& field : output.fields)
    if (!neighbours && field.needsNeighbours())
      cfg.fail(io::ConfigErrorKind::OutOfRange, "output.fields",
               "\"" + field.name +
                   "\" takes differences between neighbouring cells, which the output of " +
                   "unstructured meshes does not compute yet: patch meshes only");
  if constexpr (io::kIsEuler<PDE>)
    output.gasConstant = cfg.getDouble("physics.gas_constant", 1.0, io::Range::positive());
  return output;
}

// Writes one output step where the run writes output: writeStep() on every rank (collective: the
// writer orders the ranks' files itself); rank 0's log records the file.
template <class WriteStep>
void writeOutputStep(const RunSettings& run, std::optional<io::RunLog>& log, long long step,
                     double time, WriteStep&& writeStep) {
  if (!run.writeOutput)
    return;
  const Stopwatch watch;
  const RunActivityScope writing(RunActivity::WritingOutput);
  const auto file = writeStep();
  if (log)
    log->output(step, time, file, watch.seconds());
}

// In a build without VTK, where the run would write output: rank 0 says that it writes none.
void noteNoVtkOutput(const RunSettings& run);

// Steps end exactly on output times (multiples of the interval, not a running sum that drifts)
// and on the end time; a relative slack absorbs round-off.
class OutputSchedule {
public:
  // outputsDone: the output times already passed (a restarted run's, from its checkpoint).
  explicit OutputSchedule(const RunSettings& run, long long outputsDone = 0);

  // Whether the run goes on from this time and step count: before the end time (up to the slack)
  // and below time.max_steps.
  bool beforeEnd(double time) const { return time < endTime_ - slack_; }
  bool running(double time, long long step) const { return beforeEnd(time) && step < maxSteps_; }
  // The time the next step must not pass: the next output time, the end time at most.
  double next() const { return next_; }
  double slack() const { return slack_; }
  // After the step that ended at (time, step): true where it reached an output time before the
  // end time, the schedule then moving to the next one, or a multiple of output.every_steps (the
  // end time's output follows the loop).
  bool reached(double time, long long step);
  long long outputsDone() const { return outputsDone_; }

private:
  double outputTime(long long k) const;

  double endTime_, interval_, slack_;
  std::vector<double> times_;
  long long everySteps_, maxSteps_;
  long long outputsDone_;
  double next_;
};

} // namespace tessera::cli
