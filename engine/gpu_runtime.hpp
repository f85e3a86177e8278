#pragma once
// The one portability header between CUDA and HIP: gpu* names map to cuda* or hip*.
// Included only by translation units of a device build.
#if defined(TESSERA_BACKEND_CUDA)
#include <cuda_runtime.h>
using gpuError_t = cudaError_t;
inline constexpr gpuError_t gpuSuccess = cudaSuccess;
#define gpuGetErrorString cudaGetErrorString
#define gpuGetLastError cudaGetLastError
#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuMemcpy cudaMemcpy
#define gpuMemcpyDefault cudaMemcpyDefault
#define gpuDeviceSynchronize cudaDeviceSynchronize
#define gpuGetDeviceCount cudaGetDeviceCount
#define gpuFuncSetAttribute cudaFuncSetAttribute
#define gpuFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#elif defined(TESSERA_BACKEND_HIP)
#include <hip/hip_runtime.h>
using gpuError_t = hipError_t;
inline constexpr gpuError_t gpuSuccess = hipSuccess;
#define gpuGetErrorString hipGetErrorString
#define gpuGetLastError hipGetLastError
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuMemcpy hipMemcpy
#define gpuMemcpyDefault hipMemcpyDefault
#define gpuDeviceSynchronize hipDeviceSynchronize
#define gpuGetDeviceCount hipGetDeviceCount
#define gpuFuncSetAttribute hipFuncSetAttribute
#define gpuFuncAttributeMaxDynamicSharedMemorySize hipFuncAttributeMaxDynamicSharedMemorySize
#else
#error "engine/gpu_runtime.hpp is for CUDA or HIP builds only"
#endif

#include "engine/gpu_check.hpp"

// Warp (CUDA) or wavefront (HIP) width as a compile-time constant for warp-level code; the build
// sets TESSERA_WARP_SIZE from the back end (32 for CUDA, 64 for HIP on gfx90a).
inline constexpr int kWarpSize = TESSERA_WARP_SIZE;
