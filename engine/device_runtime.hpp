#pragma once
// For host code (.cpp) that calls the GPU runtime where the build has one: TESSERA_HAS_DEVICE is
// 1 in a CUDA or HIP build, which then has the runtime's declarations (gpu_runtime.hpp), and 0 in
// a host-only build.
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
#include "engine/gpu_runtime.hpp"
#define TESSERA_HAS_DEVICE 1
#else
#define TESSERA_HAS_DEVICE 0
#endif
