#pragma once
// `tessera run`: read a case, build the solver, step to the end time with output and a log.
#include <filesystem>
#include <string>
#include <vector>

namespace tessera::cli {

struct RunRequest {
  std::filesystem::path caseFile;
  std::vector<std::string> overrides; // key=value, applied after the file in order
  bool quiet = false;                 // no progress lines
};

// Exit codes beyond the configuration errors of io::ConfigErrorKind.
inline constexpr int kExitOutputError = 10;     // the output folder or a file cannot be written
inline constexpr int kExitUnphysicalState = 11; // the solution lost positivity or became NaN
inline constexpr int kExitGpuError = 13;        // a GPU call failed

// Runs the case; throws io::ConfigError for bad configuration before any step is taken.
void runCase(const RunRequest& request);

} // namespace tessera::cli
