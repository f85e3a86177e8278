#pragma once
// Raw allocation and copies in the host and device memory spaces. DeviceArray builds on these.
#include <cstddef>
#include <memory>
#include <string_view>

namespace tessera {

enum class MemorySpace { Host, Device };

constexpr std::string_view memorySpaceName(MemorySpace s) {
  return s == MemorySpace::Host ? "host" : "device";
}

// True when this build has a device back end and the runtime sees at least one device.
bool deviceAvailable();
// The devices the runtime sees (0 in a build without a device back end).
int deviceCount();

// The free memory of this rank's device in bytes (0 without one).
std::size_t deviceFreeBytes();

void* allocateBytes(std::size_t bytes, MemorySpace space);
// The bytes a device allocation of `bytes` takes from the pool: from 1 MiB up, rounded up to one
// of four sizes a doubling (at most a quarter more), so that a state store freed at one regrid
// serves the next one's, a few percent larger, without the pool mapping new memory.
std::size_t pooledAllocationBytes(std::size_t bytes);
void freeBytes(void* p, MemorySpace space) noexcept;
// New device memory holding a copy of `bytes` host bytes, complete on return (nullptr for none),
// which waits for none of the kernels queued on the device: the memory comes from a pool of its
// own on a stream of its own. So the plans of a regrid's new patches upload while the remap
// kernel runs, where a plain allocation and copy would wait for it. Freed by freeBytes.
void* uploadedDeviceBytes(const void* src, std::size_t bytes);
void copyBytes(void* dst, MemorySpace dstSpace, const void* src, MemorySpace srcSpace,
               std::size_t bytes);

// Page-locked host memory, which copies to and from the device move at the link's full speed:
// for host buffers that cross every step (staged halo messages). Plain host memory in a build
// without a device back end.
void* allocatePinnedBytes(std::size_t bytes);
void freePinnedBytes(void* p) noexcept;

// A host array in page-locked memory; move-only.
template <class T>
class PinnedArray {
public:
  explicit PinnedArray(std::size_t size = 0)
      : size_(size), data_(static_cast<T*>(allocatePinnedBytes(size * sizeof(T)))) {}
  T* data() { return data_.get(); }
  std::size_t size() const { return size_; }

private:
  struct Free {
    void operator()(T* p) const noexcept { freePinnedBytes(p); }
  };
  std::size_t size_;
  std::unique_ptr<T[], Free> data_;
};

// Waits for all device work (a no-op without a device back end); for timing on the host clock.
void synchronizeDevice();

} // namespace tessera
