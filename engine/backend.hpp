#pragma once
// Back-end qualifiers and the back-end enumeration. Pointwise physics is written once with
// TESSERA_HOST_DEVICE and compiles for the host, CUDA (nvcc) and HIP (hipcc).
#include <string_view>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define TESSERA_HOST_DEVICE __host__ __device__
#define TESSERA_DEVICE_COMPILER 1
#else
#define TESSERA_HOST_DEVICE
#define TESSERA_DEVICE_COMPILER 0
#endif

#define TESSERA_INLINE TESSERA_HOST_DEVICE inline

namespace tessera {

enum class Backend { Host, Cuda, Hip };

// The device back end this build was configured with (Host when it has none).
constexpr Backend compiledDeviceBackend() {
#if defined(TESSERA_BACKEND_CUDA)
  return Backend::Cuda;
#elif defined(TESSERA_BACKEND_HIP)
  return Backend::Hip;
#else
  return Backend::Host;
#endif
}

constexpr std::string_view backendName(Backend b) {
  switch (b) {
  case Backend::Host:
    return "host";
  case Backend::Cuda:
    return "cuda";
  case Backend::Hip:
    return "hip";
  }
  return "unknown";
}

} // namespace tessera
