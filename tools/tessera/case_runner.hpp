#pragma once
// The case runner as a library: a program registers the systems it runs (CaseSystem: how case
// files make each one, its initial states and boundary hooks by name) and hands its command line
// to the runner, which does all the tessera program does: `run case.toml [--set key=value ...]
// [--restart DIR] [--check] [--quiet | --verbose]` and `info case.toml`, the checks before the
// first step, checkpoints, signals, run.wall_limit, progress, summary, log.jsonl and output, on
// the host or a GPU, on any number of MPI ranks. The tessera program is such a program with the
// shipped systems (main.cpp); a program of one system of its own is about ten lines:
//
//   #include "tools/tessera/case_runner.hpp"
//   #include "my_system.hpp"
//   int main(int argc, char** argv) {
//     tessera::cli::CaseSystem<MySystem<2>> mine;
//     mine.initial["dam_break"] = [](tessera::io::Config& cfg, const MySystem<2>& pde,
//                                    const auto&) { ... return InitialState<...>::fixed(...); };
//     return tessera::cli::CaseRunner("my_program").add(mine).main(argc, argv);
//   }
//
// A system runs in the dimension it is compiled for (PDE::kDim): a program registers MySystem<2>
// and MySystem<3> for both. Unstructured meshes (mesh.type = "unstructured") run the shipped
// Euler solver whatever a program registers.
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/config.hpp"
#include "tools/tessera/case_system.hpp"
#include "tools/tessera/patch_case.hpp"
#include "tools/tessera/run_case.hpp"

namespace tessera::cli {

// A shipped system as addShippedSystems registers it (System: Euler or Advection; Dim 2 or 3), for
// a program to add initial states or hooks of its own to before it adds it.
template <template <int> class System, int Dim>
CaseSystem<System<Dim>> shippedCase();

class CaseRunner {
public:
  // `program` names the program in its messages ("<program>: error: ...") and its --help.
  explicit CaseRunner(std::string program = "tessera") : program_(std::move(program)) {}

  // Registers a system under physics.system = PDE::kName for mesh.dimension = PDE::kDim. Throws
  // std::invalid_argument where that name and dimension are registered already.
  template <ConservationLaw PDE>
  CaseRunner& add(CaseSystem<PDE> system) {
    addRunner(PDE::kName, PDE::kDim,
              [system = std::move(system)](io::Config& cfg, const RunRequest& request,
                                           RunTotals* totals) {
                return runPatchCase<PDE>(cfg, request, totals, system);
              });
    return *this;
  }

  // Tessera's own systems (physics/shipped_systems.hpp), in 2D and 3D, each with its initial
  // states: what the tessera program runs.
  CaseRunner& addShippedSystems();

  // The whole program: MPI from start to end, the command line, one GPU per rank where there
  // are GPUs, the run, and the error messages and exit codes of README's table (on several ranks
  // one message, and every rank stops). Call it from main with main's arguments.
  int main(int argc, char** argv) const;

  // One case, MPI running: the exit code as runCase gives it; throws what runCase throws.
  int run(const RunRequest& request, RunTotals* totals = nullptr) const;

private:
  using Runner = std::function<int(io::Config&, const RunRequest&, RunTotals*)>;
  struct Registered {
    std::string name;
    int dim;
    Runner run;
  };
  void addRunner(std::string name, int dim, Runner run);

  std::string program_;
  std::vector<Registered> systems_;
};

} // namespace tessera::cli
