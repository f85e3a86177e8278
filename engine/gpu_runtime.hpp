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
#define gpuMallocHost cudaMallocHost
#define gpuFreeHost cudaFreeHost
#define gpuMemcpy cudaMemcpy
#define gpuMemcpyDefault cudaMemcpyDefault
#define gpuDeviceSynchronize cudaDeviceSynchronize
#define gpuGetDeviceCount cudaGetDeviceCount
#define gpuMemGetInfo cudaMemGetInfo
#define gpuSetDevice cudaSetDevice
#define gpuFuncSetAttribute cudaFuncSetAttribute
#define gpuFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define gpuMallocAsync cudaMallocAsync
#define gpuFreeAsync cudaFreeAsync
#define gpuGetDevice cudaGetDevice
#define gpuDeviceGetDefaultMemPool cudaDeviceGetDefaultMemPool
#define gpuMemPoolSetAttribute cudaMemPoolSetAttribute
#define gpuMemPoolAttrReleaseThreshold cudaMemPoolAttrReleaseThreshold
using gpuStream_t = cudaStream_t;
using gpuEvent_t = cudaEvent_t;
#define gpuStreamCreateWithFlags cudaStreamCreateWithFlags
#define gpuStreamNonBlocking cudaStreamNonBlocking
#define gpuStreamDestroy cudaStreamDestroy
#define gpuStreamSynchronize cudaStreamSynchronize
#define gpuStreamWaitEvent cudaStreamWaitEvent
#define gpuEventCreateWithFlags cudaEventCreateWithFlags
#define gpuEventDisableTiming cudaEventDisableTiming
#define gpuEventRecord cudaEventRecord
#define gpuEventDestroy cudaEventDestroy
#define gpuEventCreate cudaEventCreate
#define gpuEventSynchronize cudaEventSynchronize
#define gpuEventElapsedTime cudaEventElapsedTime
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
using gpuMemPool_t = cudaMemPool_t;
using gpuMemPoolProps = cudaMemPoolProps;
#define gpuMemPoolCreate cudaMemPoolCreate
#define gpuMallocFromPoolAsync cudaMallocFromPoolAsync
#define gpuMemAllocationTypePinned cudaMemAllocationTypePinned
#define gpuMemLocationTypeDevice cudaMemLocationTypeDevice
#define gpuMemPoolReuseAllowInternalDependencies cudaMemPoolReuseAllowInternalDependencies
#define gpuMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define gpuDeviceGetPCIBusId cudaDeviceGetPCIBusId
#define gpuDeviceGetByPCIBusId cudaDeviceGetByPCIBusId
#define gpuDeviceCanAccessPeer cudaDeviceCanAccessPeer
using gpuIpcMemHandle_t = cudaIpcMemHandle_t;
using gpuIpcEventHandle_t = cudaIpcEventHandle_t;
#define gpuIpcGetMemHandle cudaIpcGetMemHandle
#define gpuIpcOpenMemHandle cudaIpcOpenMemHandle
#define gpuIpcCloseMemHandle cudaIpcCloseMemHandle
#define gpuIpcMemLazyEnablePeerAccess cudaIpcMemLazyEnablePeerAccess
#define gpuIpcGetEventHandle cudaIpcGetEventHandle
#define gpuIpcOpenEventHandle cudaIpcOpenEventHandle
#define gpuEventInterprocess cudaEventInterprocess
#elif defined(TESSERA_BACKEND_HIP)
#include <hip/hip_runtime.h>
using gpuError_t = hipError_t;
inline constexpr gpuError_t gpuSuccess = hipSuccess;
#define gpuGetErrorString hipGetErrorString
#define gpuGetLastError hipGetLastError
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuMallocHost hipHostMalloc
#define gpuFreeHost hipHostFree
#define gpuMemcpy hipMemcpy
#define gpuMemcpyDefault hipMemcpyDefault
#define gpuDeviceSynchronize hipDeviceSynchronize
#define gpuGetDeviceCount hipGetDeviceCount
#define gpuMemGetInfo hipMemGetInfo
#define gpuSetDevice hipSetDevice
#define gpuFuncSetAttribute hipFuncSetAttribute
#define gpuFuncAttributeMaxDynamicSharedMemorySize hipFuncAttributeMaxDynamicSharedMemorySize
#define gpuMallocAsync hipMallocAsync
#define gpuFreeAsync hipFreeAsync
#define gpuGetDevice hipGetDevice
#define gpuDeviceGetDefaultMemPool hipDeviceGetDefaultMemPool
#define gpuMemPoolSetAttribute hipMemPoolSetAttribute
#define gpuMemPoolAttrReleaseThreshold hipMemPoolAttrReleaseThreshold
using gpuStream_t = hipStream_t;
using gpuEvent_t = hipEvent_t;
#define gpuStreamCreateWithFlags hipStreamCreateWithFlags
#define gpuStreamNonBlocking hipStreamNonBlocking
#define gpuStreamDestroy hipStreamDestroy
#define gpuStreamSynchronize hipStreamSynchronize
#define gpuStreamWaitEvent hipStreamWaitEvent
#define gpuEventCreateWithFlags hipEventCreateWithFlags
#define gpuEventDisableTiming hipEventDisableTiming
#define gpuEventRecord hipEventRecord
#define gpuEventDestroy hipEventDestroy
#define gpuEventCreate hipEventCreate
#define gpuEventSynchronize hipEventSynchronize
#define gpuEventElapsedTime hipEventElapsedTime
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#define gpuMemcpyHostToDevice hipMemcpyHostToDevice
using gpuMemPool_t = hipMemPool_t;
using gpuMemPoolProps = hipMemPoolProps;
#define gpuMemPoolCreate hipMemPoolCreate
#define gpuMallocFromPoolAsync hipMallocFromPoolAsync
#define gpuMemAllocationTypePinned hipMemAllocationTypePinned
#define gpuMemLocationTypeDevice hipMemLocationTypeDevice
#define gpuMemPoolReuseAllowInternalDependencies hipMemPoolReuseAllowInternalDependencies
#define gpuMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define gpuDeviceGetPCIBusId hipDeviceGetPCIBusId
#define gpuDeviceGetByPCIBusId hipDeviceGetByPCIBusId
#define gpuDeviceCanAccessPeer hipDeviceCanAccessPeer
using gpuIpcMemHandle_t = hipIpcMemHandle_t;
using gpuIpcEventHandle_t = hipIpcEventHandle_t;
#define gpuIpcGetMemHandle hipIpcGetMemHandle
#define gpuIpcOpenMemHandle hipIpcOpenMemHandle
#define gpuIpcCloseMemHandle hipIpcCloseMemHandle
#define gpuIpcMemLazyEnablePeerAccess hipIpcMemLazyEnablePeerAccess
#define gpuIpcGetEventHandle hipIpcGetEventHandle
#define gpuIpcOpenEventHandle hipIpcOpenEventHandle
#define gpuEventInterprocess hipEventInterprocess
#else
#error "engine/gpu_runtime.hpp is for CUDA or HIP builds only"
#endif

#include "engine/gpu_check.hpp"

// Warp (CUDA) or wavefront (HIP) width as a compile-time constant for warp-level code; the build
// sets TESSERA_WARP_SIZE from the back end (32 for CUDA, 64 for HIP on gfx90a).
inline constexpr int kWarpSize = TESSERA_WARP_SIZE;

#if defined(__CUDACC__) || defined(__HIPCC__)
// Copies from global to shared memory that run in the background, so that loads stay in flight
// without holding registers: gpuCopyAsync starts a copy, gpuCopyAsyncCommit closes the group of
// those started since the last commit, gpuCopyAsyncWait<Pending> waits until at most the
// Pending newest groups are unfinished. The copied values are then visible to the copying thread;
// other threads see them after a barrier. CUDA uses cp.async (sm_80 and later); HIP on gfx90a has
// no such copy, so there the copy is a plain load and store, complete when it returns.
#if defined(TESSERA_BACKEND_CUDA)
#include <cuda_pipeline.h>
template <class T>
__device__ inline void gpuCopyAsync(T* sharedDst, const T* globalSrc) {
  __pipeline_memcpy_async(sharedDst, globalSrc, sizeof(T));
}
__device__ inline void gpuCopyAsyncCommit() {
  __pipeline_commit();
}
template <int Pending>
__device__ inline void gpuCopyAsyncWait() {
  __pipeline_wait_prior(Pending);
}
#else
template <class T>
__device__ inline void gpuCopyAsync(T* sharedDst, const T* globalSrc) {
  *sharedDst = *globalSrc;
}
__device__ inline void gpuCopyAsyncCommit() {}
template <int Pending>
__device__ inline void gpuCopyAsyncWait() {}
#endif

// A block-wide barrier whose arrival and wait are apart: a thread arrives once its writes to
// shared memory are done and waits before it reads the other threads', with work of its own in
// between, so that the block's slowest warps hold the others less than at a __syncthreads. The
// barrier lives in shared memory: one thread calls initialize with the block's thread count, then
// the block meets a __syncthreads before the first arrive. CUDA uses cuda::barrier (the hardware's
// barrier in shared memory on sm_80 and later); HIP waits at a __syncthreads.
#if defined(TESSERA_BACKEND_CUDA)
#include <cuda/barrier>
class GpuSplitBarrier {
  using Barrier = cuda::barrier<cuda::thread_scope_block>;

public:
  using Token = Barrier::arrival_token;
  __device__ void initialize(int threads) { init(&barrier(), threads); }
  __device__ Token arrive() { return barrier().arrive(); }
  __device__ void wait(Token&& token) { barrier().wait(static_cast<Token&&>(token)); }

private:
  // Raw storage, which a __shared__ variable may hold (a barrier has a constructor); initialize
  // constructs the barrier in it.
  __device__ Barrier& barrier() { return *reinterpret_cast<Barrier*>(storage_); }
  alignas(Barrier) unsigned char storage_[sizeof(Barrier)];
};
#else
class GpuSplitBarrier {
public:
  struct Token {};
  __device__ void initialize(int) {}
  __device__ Token arrive() { return {}; }
  __device__ void wait(Token&&) { __syncthreads(); }
};
#endif
#endif
