#pragma once
// Checkpoints of a patch run in the tessera program: when one is due ([checkpoint] keys, the wall
// clock, signals, run.wall_limit), writing it (drivers/amr_checkpoint.hpp's data in
// io/checkpoint.hpp's folder, with checkpoint.toml and the effective configuration), and for
// --restart the checkpoint read back and checked against the case before anything is built.
#include <algorithm>
#include <filesystem>
#include <mpi.h>
#include <string>
#include <utility>
#include <vector>

#include "drivers/amr_checkpoint.hpp"
#include "engine/timer.hpp"
#include "io/atomic_file.hpp"
#include "io/checkpoint.hpp"
#include "tools/tessera/run_settings.hpp"
#include "tools/tessera/stop_signals.hpp"

namespace tessera::cli {

// What a checkpoint must share with the case that continues from it.
struct PatchCaseFacts {
  int dimension = 0;
  std::string system;
  int numVars = 0;
  int cellsPerPatch = 0;
  std::vector<int> level0Patches;
};

// Collective: the checkpoint in `folder`, read and compared with the case; on rank 0 its data
// files' sizes and the forest's checksum are checked before p4est reads the forest (which would
// abort on a damaged one). Throws io::CheckpointError, naming the file and what differs, on every
// rank alike.
io::CheckpointInfo openCheckpoint(MPI_Comm comm, const std::filesystem::path& folder,
                                  const PatchCaseFacts& facts);

// What the run decides after each step, the same on every rank: a stop signal, a checkpoint due
// by wall time, and run.wall_limit close enough that the run must stop now to write its last
// checkpoint in time.
struct AfterStep {
  int signal = 0;
  bool wallCheckpoint = false;
  bool wallLimit = false;
};

class PatchCheckpoints {
public:
  // clock: the run's wall time since the program started.
  PatchCheckpoints(CheckpointSettings settings, const RunSettings& run, PatchCaseFacts facts,
                   std::string configuration, std::string backend, double startTime,
                   const Stopwatch& clock);

  // Collective: the decisions after a step that took stepSeconds (rank 0's clock decides the
  // wall-time ones).
  AfterStep afterStep(MPI_Comm comm, double stepSeconds);
  // Whether the [checkpoint] interval or every_steps asks for one after the step that reached
  // (time, step); the same on every rank.
  bool dueByRun(double time, long long step);

  // Collective: writes a checkpoint of amr, with the output schedule's place and the output steps
  // written so far; returns its folder.
  template <ConservationLaw PDE>
  std::filesystem::path write(const AmrSolver<PDE>& amr, long long outputsDone,
                              const std::vector<std::pair<double, std::string>>& series) {
    Stopwatch watch;
    int rank = 0;
    MPI_Comm_rank(amr.comm(), &rank);
    const long long step = amr.solver().step();
    const io::CheckpointFolders folders(settings_.directory, settings_.keep);
    std::filesystem::path folder = folders.finalPath(step);
    folder += ".tmp";
    if (rank == 0)
      folders.begin(step);
    MPI_Barrier(amr.comm()); // the folder exists before any rank writes into it
    try {
      std::vector<io::CheckpointInfo::DataFile> files = writeAmrCheckpointData(amr, folder);
      if (rank == 0) {
        io::CheckpointInfo info = describe(amr.solver().time(), step, outputsDone, series);
        info.globalPatches = amr.globalPatches();
        info.ranks = ranks(amr.comm());
        info.files = std::move(files);
        io::writeFileAtomically(folder / "config.toml", configuration_);
        io::writeCheckpointInfo(folder / "checkpoint.toml", info);
        folders.commit(step);
      }
    } catch (...) {
      if (rank == 0)
        folders.abandon(step);
      throw;
    }
    MPI_Barrier(amr.comm()); // the checkpoint is complete before any rank goes on
    lastWriteSeconds_ = std::max(lastWriteSeconds_, watch.seconds());
    lastWallCheckpoint_ = clock_.seconds();
    return folders.finalPath(step);
  }

private:
  static int ranks(MPI_Comm comm);
  io::CheckpointInfo describe(double time, long long step, long long outputsDone,
                              const std::vector<std::pair<double, std::string>>& series) const;

  CheckpointSettings settings_;
  PatchCaseFacts facts_;
  std::string configuration_, backend_;
  double wallLimit_;
  double nextTime_; // the next multiple of the interval
  const Stopwatch& clock_;
  double lastWallCheckpoint_ = 0.0, lastWriteSeconds_ = 0.0, longestStep_ = 0.0;
};

} // namespace tessera::cli
