#include "tools/tessera/patch_checkpoints.hpp"

#include <cmath>

#include "engine/mpi/first_message.hpp"

namespace tessera::cli {
namespace {

std::string listed(const std::vector<int>& values) {
  std::string s = "[";
  for (std::size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "]";
}

// Rank 0's CheckpointError, if it threw one, on every rank (mpi::firstMessage).
template <class Check>
void onRankZeroForAll(MPI_Comm comm, Check&& check) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string message;
  if (rank == 0) {
    try {
      check();
    } catch (const io::CheckpointError& e) {
      message = e.what();
    }
  }
  message = mpi::firstMessage(comm, message);
  if (!message.empty())
    throw io::CheckpointError(message);
}

// The first multiple of `interval` after `time`.
double nextMultiple(double time, double interval) {
  return (std::floor(time / interval) + 1) * interval;
}

} // namespace

io::CheckpointInfo openCheckpoint(MPI_Comm comm, const std::filesystem::path& folder,
                                  const PatchCaseFacts& facts) {
  io::CheckpointInfo info;
  const std::filesystem::path file = folder / "checkpoint.toml";
  onRankZeroForAll(comm, [&] {
    info = io::readCheckpointInfo(file);
    const auto differs = [&](const std::string& what, const std::string& there,
                             const std::string& here) {
      if (there != here)
        throw io::CheckpointError(file.string() + ": a checkpoint of another case: " + what +
                                  " is " + there + " there, " + here + " here");
    };
    differs("mesh.dimension", std::to_string(info.dimension), std::to_string(facts.dimension));
    differs("physics.system", info.system, facts.system);
    differs("the number of variables", std::to_string(info.numVars), std::to_string(facts.numVars));
    differs("mesh.cells_per_patch", std::to_string(info.cellsPerPatch),
            std::to_string(facts.cellsPerPatch));
    differs("mesh.patches", listed(info.level0Patches), listed(facts.level0Patches));
    for (const char* name : {kForestFile, kStateFile}) {
      const auto recorded = std::find_if(info.files.begin(), info.files.end(),
                                         [&](const auto& f) { return f.name == name; });
      if (recorded == info.files.end())
        throw io::CheckpointError(file.string() + ": damaged: it records no " + name);
      io::verifyDataFile(folder, *recorded);
    }
  });
  // The other ranks read the same (now checked) file.
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0)
    info = io::readCheckpointInfo(file);
  return info;
}

PatchCheckpoints::PatchCheckpoints(CheckpointSettings settings, const RunSettings& run,
                                   PatchCaseFacts facts, std::string configuration,
                                   std::string backend, double startTime, const Stopwatch& clock)
    : settings_(std::move(settings)), facts_(std::move(facts)),
      configuration_(std::move(configuration)), backend_(std::move(backend)),
      wallLimit_(run.wallLimit),
      nextTime_(settings_.interval > 0 ? nextMultiple(startTime, settings_.interval) : INFINITY),
      clock_(clock), lastWallCheckpoint_(clock.seconds()) {}

int PatchCheckpoints::ranks(MPI_Comm comm) {
  int n = 1;
  MPI_Comm_size(comm, &n);
  return n;
}

AfterStep PatchCheckpoints::afterStep(MPI_Comm comm, double stepSeconds) {
  longestStep_ = std::max(longestStep_, stepSeconds);
  const double now = clock_.seconds();
  // Room for the step in flight and the last checkpoint: three of the longest steps so far and
  // twice the longest checkpoint write (a step's worth before the first).
  const double reserve =
      3 * longestStep_ + 2 * (lastWriteSeconds_ > 0 ? lastWriteSeconds_ : longestStep_);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int flags[3] = {stopSignalHere(), 0, 0};
  if (rank == 0) {
    flags[1] = settings_.wallInterval > 0 && now - lastWallCheckpoint_ >= settings_.wallInterval;
    flags[2] = wallLimit_ > 0 && now + reserve >= wallLimit_;
  }
  if (ranks(comm) > 1)
    MPI_Allreduce(MPI_IN_PLACE, flags, 3, MPI_INT, MPI_MAX, comm);
  return {flags[0], flags[1] != 0, flags[2] != 0};
}

bool PatchCheckpoints::dueByRun(double time, long long step) {
  bool due = settings_.everySteps > 0 && step % settings_.everySteps == 0;
  if (time >= nextTime_) {
    due = true;
    nextTime_ = nextMultiple(time, settings_.interval);
  }
  return due;
}

io::CheckpointInfo
PatchCheckpoints::describe(double time, long long step, long long outputsDone,
                           const std::vector<std::pair<double, std::string>>& series) const {
  io::CheckpointInfo info;
  info.dimension = facts_.dimension;
  info.system = facts_.system;
  info.numVars = facts_.numVars;
  info.cellsPerPatch = facts_.cellsPerPatch;
  info.level0Patches = facts_.level0Patches;
  info.time = time;
  info.step = step;
  info.outputsDone = outputsDone;
  info.series = series;
  info.backend = backend_;
  info.build = "tessera " TESSERA_VERSION;
  return info;
}

} // namespace tessera::cli
