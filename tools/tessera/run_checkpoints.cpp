#include "tools/tessera/run_checkpoints.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "engine/mpi/first_message.hpp"
#include "io/config.hpp"
#include "tools/tessera/run_case.hpp"

namespace tessera::cli {
namespace {

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
                                  const CaseFacts& facts,
                                  std::initializer_list<const char*> dataFiles) {
  io::CheckpointInfo info;
  const std::filesystem::path file = folder / "checkpoint.toml";
  onRankZeroForAll(comm, [&] {
    info = io::readCheckpointInfo(file);
    const auto valueThere = [&](const std::string& key) -> std::string {
      for (const auto& [k, v] : info.facts)
        if (k == key)
          return v;
      return "not set";
    };
    const auto differs = [&](const std::string& key, const std::string& there,
                             const std::string& here) {
      if (there != here)
        throw io::CheckpointError(file.string() + ": a checkpoint of another case: " + key +
                                  " is " + there + " there, " + here + " here");
    };
    for (const auto& [key, here] : facts)
      differs(key, valueThere(key), here);
    for (const auto& fact : info.facts)
      if (std::none_of(facts.begin(), facts.end(),
                       [&](const auto& f) { return f.first == fact.first; }))
        differs(fact.first, fact.second, "not set");
    for (const char* name : dataFiles) {
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

RunCheckpoints::RunCheckpoints(CheckpointSettings settings, const RunSettings& run, CaseFacts facts,
                               std::string configuration, std::string backend, double startTime,
                               const Stopwatch& clock)
    : settings_(std::move(settings)), facts_(std::move(facts)),
      configuration_(std::move(configuration)), backend_(std::move(backend)),
      wallLimit_(run.wallLimit),
      nextTime_(settings_.interval > 0 ? nextMultiple(startTime, settings_.interval) : INFINITY),
      clock_(clock), lastWallCheckpoint_(clock.seconds()) {
  checkFolder();
}

void RunCheckpoints::checkFolder() const {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::string problem;
  if (rank == 0) {
    const std::filesystem::path& folder = settings_.directory;
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (!ec && !std::filesystem::is_directory(folder, ec))
      ec = std::make_error_code(std::errc::not_a_directory);
    // A file made and removed: a folder that exists may still refuse this run's files.
    const std::filesystem::path probe = folder / ".tessera-write-check";
    if (!ec && !std::ofstream(probe))
      ec = std::make_error_code(std::errc::permission_denied);
    else if (!ec)
      std::filesystem::remove(probe, ec);
    if (ec)
      problem = "checkpoint.directory = " + io::quotedForMessage(folder.string()) +
                ": cannot write checkpoints there (" + ec.message() + ")";
  }
  problem = mpi::firstMessage(MPI_COMM_WORLD, problem);
  if (!problem.empty())
    throw CollectiveFailure(kExitOutputError, problem);
}

AfterStep RunCheckpoints::stopAsked(MPI_Comm comm) const {
  int signal = stopSignalHere();
  MPI_Allreduce(MPI_IN_PLACE, &signal, 1, MPI_INT, MPI_MAX, comm);
  return {signal, false, false};
}

AfterStep RunCheckpoints::afterStep(MPI_Comm comm, double stepSeconds) {
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
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  if (ranks > 1)
    MPI_Allreduce(MPI_IN_PLACE, flags, 3, MPI_INT, MPI_MAX, comm);
  return {flags[0], flags[1] != 0, flags[2] != 0};
}

bool RunCheckpoints::dueByRun(double time, long long step) {
  bool due = settings_.everySteps > 0 && step % settings_.everySteps == 0;
  if (time >= nextTime_) {
    due = true;
    nextTime_ = nextMultiple(time, settings_.interval);
  }
  return due;
}

int reportEarlyStop(const AfterStep& verdict, long long step, double time,
                    const std::filesystem::path& checkpoint) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    std::printf("tessera: stopped by %s at step %lld, t = %.17g; checkpoint %s: continue with "
                "--restart %s\n",
                verdict.signal != 0 ? signalName(verdict.signal) : "run.wall_limit", step, time,
                checkpoint.string().c_str(), checkpoint.string().c_str());
  return verdict.signal != 0 ? 128 + verdict.signal : kExitWallLimit;
}

io::CheckpointInfo RunCheckpoints::describe(MPI_Comm comm, const RunPoint& at) const {
  io::CheckpointInfo info;
  info.facts = facts_;
  info.time = at.time;
  info.step = at.step;
  info.outputsDone = at.outputsDone;
  info.series = at.series;
  info.records = at.records;
  info.solver = at.solver;
  MPI_Comm_size(comm, &info.ranks);
  info.backend = backend_;
  info.build = "tessera " TESSERA_VERSION;
  return info;
}

} // namespace tessera::cli
