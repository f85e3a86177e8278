#pragma once
// `tessera run` for a case with mesh.type = "unstructured": the Euler equations on a mixed-element
// mesh read from a Gmsh or SU2 file or cut from a box (tools/tessera/unstructured_case_reader.hpp).
#include "io/config.hpp"
#include "tools/tessera/run_case.hpp"

namespace tessera::cli {

// Reads the rest of the case from cfg (mesh.type already read) and runs it; throws io::ConfigError
// for bad configuration before any step is taken.
void runUnstructuredCase(io::Config& cfg, const RunRequest& request);

} // namespace tessera::cli
