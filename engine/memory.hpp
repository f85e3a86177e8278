#pragma once
// Raw allocation and copies in the host and device memory spaces. DeviceArray builds on these.
#include <cstddef>
#include <string_view>

namespace tessera {

enum class MemorySpace { Host, Device };

constexpr std::string_view memorySpaceName(MemorySpace s) {
  return s == MemorySpace::Host ? "host" : "device";
}

// True when this build has a device back end and the runtime sees at least one device.
bool deviceAvailable();

void* allocateBytes(std::size_t bytes, MemorySpace space);
void freeBytes(void* p, MemorySpace space) noexcept;
void copyBytes(void* dst, MemorySpace dstSpace, const void* src, MemorySpace srcSpace,
               std::size_t bytes);

// Waits for all device work (a no-op without a device back end); for timing on the host clock.
void synchronizeDevice();

} // namespace tessera
