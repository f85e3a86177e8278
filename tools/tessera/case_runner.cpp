#include "tools/tessera/case_runner.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <mpi.h>

#include "engine/device_selection.hpp"
#include "engine/gpu_check.hpp"
#include "io/checkpoint.hpp"
#include "solvers/unphysical_state.hpp"
#include "tools/tessera/run_unstructured_case.hpp"
#include "tools/tessera/stop_signals.hpp"

namespace tessera::cli {
namespace {

// MPI for the whole run (the p4est forest needs it), finalised on every way out of main.
struct MpiSession {
  MpiSession(int& argc, char**& argv) { MPI_Init(&argc, &argv); }
  ~MpiSession() { MPI_Finalize(); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

} // namespace

void CaseRunner::addRunner(std::string name, int dim, Runner run) {
  for (const Registered& r : systems_)
    if (r.name == name && r.dim == dim)
      throw std::invalid_argument("CaseRunner: physics.system = " + name + " in " +
                                  std::to_string(dim) + "D is registered twice");
  systems_.push_back({std::move(name), dim, std::move(run)});
}

int CaseRunner::run(const RunRequest& request, RunTotals* totals) const {
  io::Config cfg = io::Config::fromFile(request.caseFile);
  for (const std::string& assignment : request.overrides)
    cfg.applyOverride(assignment);
  if (cfg.getChoice("mesh.type", "patches", {"patches", "unstructured"}) == "unstructured")
    return runUnstructuredCase(cfg, request);
  const int dim = cfg.getInt("mesh.dimension", 2, io::Range::closed(2, 3));
  std::vector<std::string> names;
  for (const Registered& r : systems_)
    if (std::find(names.begin(), names.end(), r.name) == names.end())
      names.push_back(r.name);
  if (names.empty())
    throw std::logic_error(program_ + ": no system registered (CaseRunner::add)");
  const std::string fallback =
      std::find(names.begin(), names.end(), "euler") != names.end() ? "euler" : names.front();
  const std::string system = cfg.getChoice("physics.system", fallback, names);
  for (const Registered& r : systems_)
    if (r.name == system && r.dim == dim)
      return r.run(cfg, request, totals);
  std::string dims;
  for (const Registered& r : systems_)
    if (r.name == system)
      dims += (dims.empty() ? "" : " and ") + std::to_string(r.dim) + "D";
  cfg.fail(io::ConfigErrorKind::Inconsistent, "mesh.dimension",
           "physics.system = \"" + system + "\" runs in " + dims + " only");
  return 0; // fail throws
}

int CaseRunner::main(int argc, char** argv) const {
  // Progress reaches a redirected output (a batch job's log) line by line, not in 4 KB blocks
  // that a killed run would lose.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const MpiSession mpi(argc, argv);
  // Rank 0 speaks for a run on several ranks; every rank's errors still reach stderr.
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  installStopSignals(rank == 0);
  if (rank != 0 && std::freopen("/dev/null", "w", stdout) == nullptr)
    std::fprintf(stderr, "%s: rank %d: cannot silence its standard output\n", program_.c_str(),
                 rank);
  CLI::App app{program_ + ": adaptive patch-based finite volumes (Tessera)", program_};
  app.set_version_flag("--version", program_ + " (Tessera " TESSERA_VERSION ")");
  app.require_subcommand(1);

  RunRequest request;
  CLI::App* run = app.add_subcommand("run", "Run the simulation a case file describes");
  run->add_option("case", request.caseFile, "Case file (TOML)")->required();
  run->add_option("--set", request.overrides,
                  "Override a setting, e.g. --set time.end_time=0.2 (repeatable)")
      ->type_name("KEY=VALUE");
  run->add_flag("--quiet", request.quiet, "No progress lines");
  run->add_flag("--verbose", request.verbose, "A progress line every step");
  run->add_flag("--check", request.checkOnly,
                "Read and check the case, print what it would run, run nothing");
  run->add_option("--restart", request.restart,
                  "Continue from a checkpoint folder (output/<name>/checkpoints/checkpoint_<step>)")
      ->type_name("CHECKPOINT");

  CLI::App* info = app.add_subcommand(
      "info", "Read and check a case, print its effective configuration, mesh and memory "
              "estimate, run nothing (run --check)");
  info->add_option("case", request.caseFile, "Case file (TOML)")->required();
  info->add_option("--set", request.overrides, "Override a setting (repeatable)")
      ->type_name("KEY=VALUE");

  try {
    app.parse(argc, argv);
    if (info->parsed())
      request.checkOnly = true;
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0; real usage errors exit with Usage.
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(io::ConfigErrorKind::Usage);
  }

  // An error every rank raised alike is reported by rank 0 alone. An error of one rank is
  // reported by that rank and, on several ranks, ends them all: the others may be waiting for it
  // in a collective call.
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const auto fail = [&](bool everyRank, int code, const std::string& message) {
    if (!everyRank || rank == 0)
      std::fprintf(stderr, "%s: error: %s\n", program_.c_str(), message.c_str());
    if (!everyRank && ranks > 1) {
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, code);
    }
    return code;
  };
  try {
    // Before anything allocates on a device: one GPU per rank on each node.
    const DeviceSelection gpu = selectDeviceByNodeRank(MPI_COMM_WORLD);
    if (gpu.devices > 0 && gpu.nodeRanks > gpu.devices && gpu.nodeRank == 0)
      std::fprintf(stderr, "%s: %d ranks share the %d GPUs of this node\n", program_.c_str(),
                   gpu.nodeRanks, gpu.devices);
    return this->run(request);
  } catch (const io::ConfigError& e) {
    return fail(true, e.exitCode(), e.what());
  } catch (const io::CheckpointError& e) {
    return fail(true, kExitBadCheckpoint,
                std::string("cannot continue from the checkpoint: ") + e.what());
  } catch (const CollectiveFailure& e) {
    return fail(true, e.exitCode(), e.what());
  } catch (const UnphysicalStateError& e) {
    return fail(true, kExitUnphysicalState,
                std::string("the solution became unphysical: ") + e.what());
  } catch (const GpuError& e) {
    return fail(false, kExitGpuError, std::string("a GPU call failed: ") + e.what());
  } catch (const std::exception& e) {
    return fail(false, kExitOutputError, e.what());
  }
}

} // namespace tessera::cli
