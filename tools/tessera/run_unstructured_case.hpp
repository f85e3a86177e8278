#pragma once
// `tessera run` for a case with mesh.type = "unstructured": the Euler equations on a mixed-element
// mesh read from a Gmsh or SU2 file or cut from a box (tools/tessera/unstructured_case_reader.hpp).
#include "io/config.hpp"
#include "tools/tessera/run_case.hpp"

namespace tessera::cli {

// Reads the rest of the case from cfg (mesh.type already read) and runs it, or with --restart
// continues it from a checkpoint; throws io::ConfigError for bad configuration before any step is
// taken. Returns the exit code as runCase does.
int runUnstructuredCase(io::Config& cfg, const RunRequest& request);

} // namespace tessera::cli
