#pragma once
// Every GPU runtime call goes through TESSERA_GPU_CHECK: a failure throws with the call, the file,
// the line and the runtime's error string.
#include <stdexcept>
#include <string>

namespace tessera {

class GpuError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void throwGpuError(const char* call, const char* file, int line,
                                       const char* message) {
  throw GpuError(std::string(file) + ":" + std::to_string(line) + ": " + call +
                 " failed: " + message);
}

} // namespace tessera

#define TESSERA_GPU_CHECK(call)                                                                    \
  do {                                                                                             \
    const gpuError_t tesseraGpuStatus = (call);                                                    \
    if (tesseraGpuStatus != gpuSuccess)                                                            \
      ::tessera::throwGpuError(#call, __FILE__, __LINE__, gpuGetErrorString(tesseraGpuStatus));    \
  } while (0)

// After a kernel launch: launch-configuration errors surface here, not at the next call.
#define TESSERA_GPU_CHECK_LAUNCH() TESSERA_GPU_CHECK(gpuGetLastError())
