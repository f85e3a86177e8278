#include "tools/tessera/run_settings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <system_error>

#include "engine/backend.hpp"
#include "engine/mpi/exchange_transport.hpp"
#include "engine/mpi/first_message.hpp"
#include "engine/require_device.hpp"
#include "io/atomic_file.hpp"

namespace tessera::cli {

// More output steps than a run should ever write: a mistyped interval, not a wish.
constexpr long long kMaxOutputSteps = 100000;

using io::Config;
using io::ConfigErrorKind;

namespace {

bool hasControlCharacter(const std::string& text) {
  return std::any_of(text.begin(), text.end(), io::isControlCharacter);
}

// A folder the run writes: named, without control characters (whether it can be written is
// checked where the run creates it).
void checkFolderName(const Config& cfg, const std::string& key, const std::string& folder) {
  if (folder.empty() || hasControlCharacter(folder))
    cfg.fail(ConfigErrorKind::OutOfRange, key,
             "must name a folder (not empty, no control characters)");
}

// run.exchange on a device run: on several ranks the transport is chosen (collectively) and
// named; one the machine cannot serve stops the run with exit code 12 on every rank.
void chooseExchange(Config& cfg, const std::string& name) {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  mpi::ExchangeTransport transport = *mpi::parseTransport(name);
  if (ranks > 1) {
    try {
      transport = mpi::resolveTransport(MPI_COMM_WORLD, transport);
    } catch (const std::runtime_error& e) { // on every rank: the ranks agreed on the reason
      cfg.fail(ConfigErrorKind::Unavailable, "run.exchange", e.what());
    }
    std::printf("tessera: messages between the GPUs %s\n",
                mpi::describeTransport(transport).c_str());
  }
  mpi::requestTransport(transport);
}

} // namespace

RunSettings readRunSettings(Config& cfg, const RunRequest& request, bool timeDependent) {
  RunSettings s;
  if (timeDependent) {
    s.endTime = cfg.getDouble("time.end_time", std::nullopt, io::Range::positive());
    s.maxSteps = cfg.getInt("time.max_steps", 1000000, io::Range::closed(1, 2e9));
    // Output by simulated time: every output.interval (a tenth of the run by default) or at the
    // output.times listed; and by step count, every output.every_steps.
    s.outputEverySteps = cfg.getInt("output.every_steps", 0, io::Range::closed(0, 2e9));
    if (cfg.has("output.times")) {
      if (cfg.has("output.interval"))
        cfg.fail(ConfigErrorKind::Inconsistent, "output.times",
                 "and output.interval both say when to write: give one of them");
      s.outputTimes = cfg.getDoubles("output.times", std::nullopt, Config::kAnyLength,
                                     io::Range{0.0, s.endTime, false, true});
      if (!std::is_sorted(s.outputTimes.begin(), s.outputTimes.end()) ||
          std::adjacent_find(s.outputTimes.begin(), s.outputTimes.end()) != s.outputTimes.end())
        cfg.fail(ConfigErrorKind::OutOfRange, "output.times", "must be in ascending order");
      if (s.outputTimes.size() > std::size_t(kMaxOutputSteps))
        cfg.fail(ConfigErrorKind::OutOfRange, "output.times",
                 "lists more than " + std::to_string(kMaxOutputSteps) + " times");
    } else {
      const double fallback = s.outputEverySteps > 0 ? 0.0 : s.endTime / 10;
      s.outputInterval =
          cfg.getDouble("output.interval", fallback, io::Range::closed(0.0, INFINITY));
      if (s.outputInterval > 0 && s.endTime / s.outputInterval > kMaxOutputSteps)
        cfg.fail(ConfigErrorKind::OutOfRange, "output.interval",
                 "would write " + io::formatNumber(s.endTime / s.outputInterval) +
                     " output steps up to time.end_time (at most " +
                     std::to_string(kMaxOutputSteps) + "); make it larger");
    }
  }
  s.writeOutput = cfg.getBool("output.enabled", true);
  s.outputFormat = cfg.getChoice("output.format", "unstructured", {"unstructured", "amr"}) == "amr"
                       ? io::PatchOutputFormat::Amr
                       : io::PatchOutputFormat::Unstructured;
  s.name = cfg.getString("output.name", request.caseFile.stem().string());
  s.directory = cfg.getString("output.directory", "output/" + s.name);
  // Progress lines: by wall time unless the case counts steps (0: none); --quiet and --verbose
  // have the last word.
  s.progress.everySeconds =
      cfg.getDouble("output.progress_seconds", 1.0, io::Range::closed(0.0, 1e9));
  if (cfg.has("output.progress_every")) {
    s.progress.everySteps = cfg.getInt("output.progress_every", 1, io::Range::closed(0, 1e9));
    s.progress.quiet = s.progress.everySteps == 0;
  }
  if (request.verbose) {
    s.progress.everySteps = 1;
    s.progress.quiet = false;
  }
  if (request.quiet)
    s.progress.quiet = true;
  s.wallLimit = cfg.getDouble("run.wall_limit", 0.0, io::Range::closed(0.0, 1e9));
  if (s.name.empty() || s.name == "." || s.name == ".." || s.name.find('/') != std::string::npos ||
      hasControlCharacter(s.name))
    cfg.fail(ConfigErrorKind::OutOfRange, "output.name",
             "must be a plain file name (no '/', no control characters)");
  checkFolderName(cfg, "output.directory", s.directory.string());
  return s;
}

CheckpointSettings readCheckpointSettings(Config& cfg, const RunSettings& run) {
  CheckpointSettings c;
  c.interval = cfg.getDouble("checkpoint.interval", 0.0, io::Range::closed(0.0, INFINITY));
  c.everySteps = cfg.getInt("checkpoint.every_steps", 0, io::Range::closed(0, 2e9));
  c.wallInterval = cfg.getDouble("checkpoint.wall_interval", 0.0, io::Range::closed(0.0, 1e9));
  c.keep = cfg.getInt("checkpoint.keep", 2, io::Range::closed(1, 1000));
  c.directory = cfg.getString("checkpoint.directory", (run.directory / "checkpoints").string());
  c.atEnd = cfg.getBool("checkpoint.at_end", true);
  checkFolderName(cfg, "checkpoint.directory", c.directory.string());
  return c;
}

MemorySpace readBackend(Config& cfg) {
  const std::string backend = cfg.getChoice("run.backend", "auto", {"auto", "host", "device"});
  // Read on every back end; device runs on several ranks use it.
  const std::string exchange = cfg.getChoice("run.exchange", "auto", {"auto", "staged", "peer"});
  if (backend == "host")
    return MemorySpace::Host;
  try {
    requireDevice();
  } catch (const std::runtime_error& missing) {
    if (backend == "device")
      cfg.fail(ConfigErrorKind::Unavailable, "run.backend",
               "\"device\" cannot run here: " + std::string(missing.what()));
    return MemorySpace::Host; // "auto" on a machine or build without a device: quietly the host
  }
  std::printf("tessera: back end %s (GPU)\n",
              std::string(backendName(compiledDeviceBackend())).c_str());
  chooseExchange(cfg, exchange);
  return MemorySpace::Device;
}

void prepareOutputFolder(const Config& cfg, const RunSettings& run, bool continuing) {
  std::error_code ec;
  // An earlier run's files are never mixed with this run's: its folder is moved aside, as AMReX
  // moves an old plotfile, unless this run continues it (--restart).
  if (!continuing && std::filesystem::is_directory(run.directory, ec) &&
      !std::filesystem::is_empty(run.directory, ec)) {
    std::filesystem::path aside;
    for (int n = 1; aside.empty() || std::filesystem::exists(aside); ++n)
      aside = run.directory.string() + ".previous-" + std::to_string(n);
    std::filesystem::rename(run.directory, aside, ec);
    if (ec)
      throw std::runtime_error(
          "output.directory = " + io::quotedForMessage(run.directory.string()) +
          ": holds an earlier run's files and cannot be moved aside to " +
          io::quotedForMessage(aside.string()) + " (" + ec.message() + ")");
    std::printf("tessera: %s held an earlier run: moved to %s\n", run.directory.string().c_str(),
                aside.string().c_str());
  }
  std::filesystem::create_directories(run.directory, ec);
  if (ec || !std::filesystem::is_directory(run.directory))
    throw std::runtime_error("output.directory = " + io::quotedForMessage(run.directory.string()) +
                             ": cannot create the folder (" + ec.message() + ")");
  io::writeFileAtomically(run.directory / "config.toml", cfg.effectiveToml());
}

std::optional<io::RunLog> openLeadRunLog(const io::Config& cfg, const RunSettings& run,
                                         bool append) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::optional<io::RunLog> log;
  std::string problem;
  if (rank == 0) {
    try {
      prepareOutputFolder(cfg, run, append);
      log.emplace(run.directory / "log.jsonl", run.endTime, run.progress,
                  run.directory / (run.name + ".pvd"), append);
    } catch (const std::exception& e) {
      problem = e.what();
    }
  }
  // Every rank learns whether the folder exists (and waits until it does) before writing into it.
  problem = mpi::firstMessage(MPI_COMM_WORLD, problem);
  if (!problem.empty())
    throw CollectiveFailure(kExitOutputError, problem);
  return log;
}

void noteNoVtkOutput(const RunSettings& run) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (run.writeOutput && rank == 0)
    std::printf("note: this build has no VTK output (TESSERA_ENABLE_VTK=OFF); writing none\n");
}

OutputSchedule::OutputSchedule(const RunSettings& run, long long outputsDone)
    : endTime_(run.endTime), interval_(run.outputInterval), slack_(1e-12 * run.endTime),
      times_(run.outputTimes), everySteps_(run.outputEverySteps), maxSteps_(run.maxSteps),
      outputsDone_(outputsDone), next_(outputTime(outputsDone + 1)) {}

bool OutputSchedule::reached(double time, long long step) {
  if (!beforeEnd(time))
    return false;
  const bool byStep = everySteps_ > 0 && step % everySteps_ == 0;
  if (time != next_)
    return byStep;
  next_ = outputTime(++outputsDone_ + 1);
  return true;
}

// The k-th output time, never beyond the end time (the end time where there is none).
double OutputSchedule::outputTime(long long k) const {
  double t = endTime_;
  if (!times_.empty())
    t = k <= (long long)times_.size() ? times_[std::size_t(k - 1)] : endTime_;
  else if (interval_ > 0)
    t = double(k) * interval_;
  return t > endTime_ - slack_ ? endTime_ : t;
}

} // namespace tessera::cli
