// The tessera command: `tessera run case.toml [--set key=value ...] [--quiet | --verbose]
// [--restart DIR] [--check]`, and `tessera info case.toml` (the same as run --check).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <mpi.h>
#include <string>

#include "engine/device_selection.hpp"
#include "engine/gpu_check.hpp"
#include "io/checkpoint.hpp"
#include "io/config.hpp"
#include "solvers/unphysical_state.hpp"
#include "tools/tessera/run_case.hpp"
#include "tools/tessera/stop_signals.hpp"

// MPI for the whole run (the p4est forest needs it), finalised on every way out of main.
struct MpiSession {
  MpiSession(int& argc, char**& argv) { MPI_Init(&argc, &argv); }
  ~MpiSession() { MPI_Finalize(); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

int main(int argc, char** argv) {
  using namespace tessera;
  // Progress reaches a redirected output (a batch job's log) line by line, not in 4 KB blocks
  // that a killed run would lose.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const MpiSession mpi(argc, argv);
  // Rank 0 speaks for a run on several ranks; every rank's errors still reach stderr.
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  cli::installStopSignals(rank == 0);
  if (rank != 0 && std::freopen("/dev/null", "w", stdout) == nullptr)
    std::fprintf(stderr, "tessera: rank %d: cannot silence its standard output\n", rank);
  CLI::App app{"Tessera: adaptive patch-based finite volumes"};
  app.set_version_flag("--version", "tessera " TESSERA_VERSION);
  app.require_subcommand(1);

  cli::RunRequest request;
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
              "estimate, run nothing (tessera run --check)");
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
      std::fprintf(stderr, "tessera: error: %s\n", message.c_str());
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
      std::fprintf(stderr, "tessera: %d ranks share the %d GPUs of this node\n", gpu.nodeRanks,
                   gpu.devices);
    return cli::runCase(request);
  } catch (const io::ConfigError& e) {
    return fail(true, e.exitCode(), e.what());
  } catch (const io::CheckpointError& e) {
    return fail(true, cli::kExitBadCheckpoint,
                std::string("cannot continue from the checkpoint: ") + e.what());
  } catch (const cli::CollectiveFailure& e) {
    return fail(true, e.exitCode(), e.what());
  } catch (const UnphysicalStateError& e) {
    return fail(true, cli::kExitUnphysicalState,
                std::string("the solution became unphysical: ") + e.what());
  } catch (const GpuError& e) {
    return fail(false, cli::kExitGpuError, std::string("a GPU call failed: ") + e.what());
  } catch (const std::exception& e) {
    return fail(false, cli::kExitOutputError, e.what());
  }
}
