#include "engine/memory.hpp"

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "engine/device_runtime.hpp"

namespace tessera {
namespace {

// Cache-line alignment keeps each patch's variables aligned for vector loads on the host.
constexpr std::size_t kHostAlignment = 64;

#if TESSERA_HAS_DEVICE
// Device memory comes from the runtime's stream-ordered pool, which keeps what is freed for the
// next allocation instead of returning it to the driver: an adapt replaces the state, the plans
// and the registers every few steps, and a plain cudaMalloc/cudaFree pair costs tens of
// microseconds and synchronises the device. Allocation and free are ordered on the default
// stream with the kernels that use the memory, so a free after a launch is safe.
void keepFreedDeviceMemoryPooled() {
  static const bool once = [] {
    int device = 0;
    gpuMemPool_t pool;
    TESSERA_GPU_CHECK(gpuGetDevice(&device));
    TESSERA_GPU_CHECK(gpuDeviceGetDefaultMemPool(&pool, device));
    std::uint64_t keepAll = UINT64_MAX;
    TESSERA_GPU_CHECK(gpuMemPoolSetAttribute(pool, gpuMemPoolAttrReleaseThreshold, &keepAll));
    return true;
  }();
  (void)once;
}

// The stream and pool of uploadedDeviceBytes. The pool keeps what is freed, as the default one
// does, and reuses an allocation only once its free has happened on the device: it never makes
// the upload stream wait for the default stream's kernels to reach a free.
struct UploadQueue {
  gpuStream_t stream{};
  gpuMemPool_t pool{};
};

const UploadQueue& uploadQueue() {
  static const UploadQueue queue = [] {
    UploadQueue q;
    int device = 0;
    TESSERA_GPU_CHECK(gpuGetDevice(&device));
    TESSERA_GPU_CHECK(gpuStreamCreateWithFlags(&q.stream, gpuStreamNonBlocking));
    gpuMemPoolProps props{};
    props.allocType = gpuMemAllocationTypePinned;
    props.location.type = gpuMemLocationTypeDevice;
    props.location.id = device;
    TESSERA_GPU_CHECK(gpuMemPoolCreate(&q.pool, &props));
    std::uint64_t keepAll = UINT64_MAX;
    TESSERA_GPU_CHECK(gpuMemPoolSetAttribute(q.pool, gpuMemPoolAttrReleaseThreshold, &keepAll));
    int never = 0;
    TESSERA_GPU_CHECK(
        gpuMemPoolSetAttribute(q.pool, gpuMemPoolReuseAllowInternalDependencies, &never));
    return q;
  }();
  return queue;
}
#else
[[noreturn]] void noDeviceInThisBuild() {
  throw std::runtime_error("device memory requested, but this Tessera build has only the host "
                           "back end (configure with TESSERA_BACKEND=cuda or hip)");
}
#endif

} // namespace

bool deviceAvailable() {
  return deviceCount() > 0;
}

int deviceCount() {
#if TESSERA_HAS_DEVICE
  int count = 0;
  if (gpuGetDeviceCount(&count) != gpuSuccess) {
    (void)gpuGetLastError(); // clear the sticky "no device" error
    return 0;
  }
  return count;
#else
  return 0;
#endif
}

std::size_t deviceFreeBytes() {
#if TESSERA_HAS_DEVICE
  std::size_t free = 0, total = 0;
  if (!deviceAvailable() || gpuMemGetInfo(&free, &total) != gpuSuccess)
    return 0;
  return free;
#else
  return 0;
#endif
}

std::size_t pooledAllocationBytes(std::size_t bytes) {
  constexpr std::size_t kRoundedFrom = std::size_t(1) << 20;
  if (bytes < kRoundedFrom)
    return bytes;
  const std::size_t quarter = (std::size_t(1) << (std::bit_width(bytes) - 1)) / 4;
  return (bytes + quarter - 1) / quarter * quarter;
}

void* allocateBytes(std::size_t bytes, MemorySpace space) {
  if (bytes == 0)
    return nullptr;
  if (space == MemorySpace::Host) {
    const std::size_t rounded = (bytes + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
    void* p = std::aligned_alloc(kHostAlignment, rounded);
    if (!p)
      throw std::bad_alloc();
    return p;
  }
#if TESSERA_HAS_DEVICE
  keepFreedDeviceMemoryPooled();
  void* p = nullptr;
  TESSERA_GPU_CHECK(gpuMallocAsync(&p, pooledAllocationBytes(bytes), 0));
  return p;
#else
  noDeviceInThisBuild();
#endif
}

void freeBytes(void* p, MemorySpace space) noexcept {
  if (!p)
    return;
  if (space == MemorySpace::Host) {
    std::free(p);
    return;
  }
#if TESSERA_HAS_DEVICE
  (void)gpuFreeAsync(p, 0); // a destructor must not throw; a failed free leaves nothing to recover
#endif
}

void* uploadedDeviceBytes(const void* src, std::size_t bytes) {
  if (bytes == 0)
    return nullptr;
#if TESSERA_HAS_DEVICE
  const UploadQueue& queue = uploadQueue();
  void* p = nullptr;
  TESSERA_GPU_CHECK(
      gpuMallocFromPoolAsync(&p, pooledAllocationBytes(bytes), queue.pool, queue.stream));
  try {
    TESSERA_GPU_CHECK(gpuMemcpyAsync(p, src, bytes, gpuMemcpyHostToDevice, queue.stream));
    TESSERA_GPU_CHECK(gpuStreamSynchronize(queue.stream));
  } catch (...) {
    freeBytes(p, MemorySpace::Device);
    throw;
  }
  return p;
#else
  (void)src;
  noDeviceInThisBuild();
#endif
}

void copyBytes(void* dst, MemorySpace dstSpace, const void* src, MemorySpace srcSpace,
               std::size_t bytes) {
  if (bytes == 0)
    return;
  if (dstSpace == MemorySpace::Host && srcSpace == MemorySpace::Host) {
    std::memcpy(dst, src, bytes);
    return;
  }
#if TESSERA_HAS_DEVICE
  TESSERA_GPU_CHECK(gpuMemcpy(dst, src, bytes, gpuMemcpyDefault));
#else
  noDeviceInThisBuild();
#endif
}

void* allocatePinnedBytes(std::size_t bytes) {
  if (bytes == 0)
    return nullptr;
#if TESSERA_HAS_DEVICE
  void* p = nullptr;
  TESSERA_GPU_CHECK(gpuMallocHost(&p, bytes));
  return p;
#else
  return allocateBytes(bytes, MemorySpace::Host);
#endif
}

void freePinnedBytes(void* p) noexcept {
  if (!p)
    return;
#if TESSERA_HAS_DEVICE
  (void)gpuFreeHost(p); // noexcept: a failure here has nowhere to go
#else
  freeBytes(p, MemorySpace::Host);
#endif
}

void synchronizeDevice() {
#if TESSERA_HAS_DEVICE
  TESSERA_GPU_CHECK(gpuDeviceSynchronize());
#endif
}

} // namespace tessera
