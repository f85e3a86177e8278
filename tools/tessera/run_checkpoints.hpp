#pragma once
// Checkpoints of a run in the tessera program, patch or unstructured: when one is due
// ([checkpoint] keys, the wall clock, signals, run.wall_limit), writing it (the solver's data
// files, written by a callback, in io/checkpoint.hpp's folder with checkpoint.toml and the
// effective configuration), and for --restart the checkpoint read back and checked against the
// case before anything is built.
#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <mpi.h>
#include <string>
#include <utility>
#include <vector>

#include "engine/timer.hpp"
#include "io/atomic_file.hpp"
#include "io/checkpoint.hpp"
#include "tools/tessera/run_settings.hpp"
#include "tools/tessera/stop_signals.hpp"

namespace tessera::cli {

// What a checkpoint must share with the case that continues from it: values as text under the
// case file's key (mesh.type first, so that another kind of run is named before its details).
using CaseFacts = std::vector<std::pair<std::string, std::string>>;

// Collective: the checkpoint in `folder`, read and compared with the case; on rank 0 the named
// data files' sizes (and checksums, where recorded) are checked before any solver reads them (p4est
// would abort on a damaged forest). Throws io::CheckpointError, naming the file and what differs,
// on every rank alike.
io::CheckpointInfo openCheckpoint(MPI_Comm comm, const std::filesystem::path& folder,
                                  const CaseFacts& facts,
                                  std::initializer_list<const char*> dataFiles);

// What the run decides after each step, the same on every rank: a stop signal, a checkpoint due
// by wall time, and run.wall_limit close enough that the run must stop now to write its last
// checkpoint in time.
struct AfterStep {
  int signal = 0;
  bool wallCheckpoint = false;
  bool wallLimit = false;
};

// After a stop by a signal or run.wall_limit (verdict) with its last checkpoint written: rank 0
// says so in one line, and every rank gets the exit code (128 + the signal, or kExitWallLimit).
int reportEarlyStop(const AfterStep& verdict, long long step, double time,
                    const std::filesystem::path& checkpoint);

// Where a run stands when it writes a checkpoint (io::CheckpointInfo's [run] and [solver]).
struct RunPoint {
  double time = 0.0;
  long long step = 0;
  long long outputsDone = 0;
  std::vector<std::pair<double, std::string>> series;
  long long records = 0;
  std::vector<std::pair<std::string, std::string>> solver;
};

class RunCheckpoints {
public:
  // clock: the run's wall time since the program started.
  RunCheckpoints(CheckpointSettings settings, const RunSettings& run, CaseFacts facts,
                 std::string configuration, std::string backend, double startTime,
                 const Stopwatch& clock);

  // Collective: the decisions after a step that took stepSeconds (rank 0's clock decides the
  // wall-time ones).
  AfterStep afterStep(MPI_Comm comm, double stepSeconds);
  // Collective: whether a stop signal has come to any rank (the verdict's signal only).
  AfterStep stopAsked(MPI_Comm comm) const;
  // Whether the [checkpoint] interval or every_steps asks for one after the step that reached
  // (time, step); the same on every rank.
  bool dueByRun(double time, long long step);
  // Whether the run writes a checkpoint as it stops: always after a stop by a signal or the wall
  // limit, at its end as checkpoint.at_end says.
  bool dueAtStop(bool stoppedEarly) const { return stoppedEarly || settings_.atEnd; }

  // Collective: writes a checkpoint of the run at `at`; writeData(folder), collective, writes the
  // solver's files into the folder and returns on rank 0 what checkpoint.toml records of them.
  // Returns the checkpoint's folder.
  template <class WriteData>
  std::filesystem::path write(MPI_Comm comm, const RunPoint& at, WriteData&& writeData) {
    Stopwatch watch;
    const RunActivityScope writing(RunActivity::WritingCheckpoint);
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const io::CheckpointFolders folders(settings_.directory, settings_.keep);
    std::filesystem::path folder = folders.finalPath(at.step);
    folder += ".tmp";
    if (rank == 0)
      folders.begin(at.step);
    MPI_Barrier(comm); // the folder exists before any rank writes into it
    try {
      std::vector<io::CheckpointInfo::DataFile> files = writeData(folder);
      if (rank == 0) {
        io::CheckpointInfo info = describe(comm, at);
        info.files = std::move(files);
        io::writeFileAtomically(folder / "config.toml", configuration_);
        io::writeCheckpointInfo(folder / "checkpoint.toml", info);
        folders.commit(at.step);
      }
    } catch (...) {
      if (rank == 0)
        folders.abandon(at.step);
      throw;
    }
    MPI_Barrier(comm); // the checkpoint is complete before any rank goes on
    lastWriteSeconds_ = std::max(lastWriteSeconds_, watch.seconds());
    lastWallCheckpoint_ = clock_.seconds();
    return folders.finalPath(at.step);
  }

private:
  io::CheckpointInfo describe(MPI_Comm comm, const RunPoint& at) const;
  // Collective: rank 0 creates checkpoint.directory and writes a file there, so that a folder
  // that cannot hold checkpoints stops the run before its first step (CollectiveFailure, exit
  // code 10), not at its first checkpoint.
  void checkFolder() const;

  CheckpointSettings settings_;
  CaseFacts facts_;
  std::string configuration_, backend_;
  double wallLimit_;
  double nextTime_; // the next multiple of the interval
  const Stopwatch& clock_;
  double lastWriteSeconds_ = 0.0, longestStep_ = 0.0;
  double lastWallCheckpoint_;
};

} // namespace tessera::cli
