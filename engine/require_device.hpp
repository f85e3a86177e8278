#pragma once
// Whether a solver can run on the device here, for every solver that takes a MemorySpace.
#include <stdexcept>
#include <string>

#include "engine/backend.hpp"
#include "engine/memory.hpp"

namespace tessera {

// Returns normally where this build has a device back end and the runtime sees a device; throws
// std::runtime_error saying which is missing otherwise.
inline void requireDevice() {
  if constexpr (compiledDeviceBackend() == Backend::Host)
    throw std::runtime_error("this build of Tessera has no device back end (configure the cuda "
                             "or hip preset to run on a GPU)");
  if (!deviceAvailable())
    throw std::runtime_error(std::string("this is a ") +
                             std::string(backendName(compiledDeviceBackend())) +
                             " build of Tessera, but no GPU is visible");
}

} // namespace tessera
