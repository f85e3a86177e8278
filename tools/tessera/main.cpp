// The tessera command: `tessera run case.toml [--set key=value ...] [--quiet | --verbose]
// [--restart DIR] [--check]`, and `tessera info case.toml` (the same as run --check): the case
// runner (case_runner.hpp) with Tessera's own systems.
#include "tools/tessera/case_runner.hpp"

int main(int argc, char** argv) {
  return tessera::cli::CaseRunner("tessera").addShippedSystems().main(argc, argv);
}
