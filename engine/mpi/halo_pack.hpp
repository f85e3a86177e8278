#pragma once
// Packing the values of listed items into a halo message and unpacking a message into the listed
// items, on the host. Values are item-major, width per item (item c's at [c * width, ...)); a
// message holds the listed items' values one item after another, in the list's order. The device
// twins are in halo_pack_device.hpp.
#include <cstddef>
#include <span>

namespace tessera::mpi {

// packed[i * width + v] = values[items[i] * width + v]. A item may be listed more than once (an
// owned item goes to every rank that holds a copy of it).
template <class T>
void packHaloValues(const T* values, std::span<const int> items, int width, T* packed) {
  const std::size_t w = std::size_t(width);
  for (std::size_t i = 0; i < items.size(); ++i)
    for (std::size_t v = 0; v < w; ++v)
      packed[i * w + v] = values[std::size_t(items[i]) * w + v];
}

// values[items[i] * width + v] = packed[i * width + v]: the inverse of packHaloValues. Items not
// listed keep their values. A item listed more than once must carry the same values each time
// (a halo plan's receive items are distinct): the device twin writes them in no set order.
template <class T>
void unpackHaloValues(const T* packed, std::span<const int> items, int width, T* values) {
  const std::size_t w = std::size_t(width);
  for (std::size_t i = 0; i < items.size(); ++i)
    for (std::size_t v = 0; v < w; ++v)
      values[std::size_t(items[i]) * w + v] = packed[i * w + v];
}

} // namespace tessera::mpi
