#pragma once
// Packing the values of listed items into a halo message and unpacking a message into the listed
// items, on the host. Where an item's values lie is its ItemLayout; a message holds the listed
// items' values one item after another, in the list's order (item i's values at
// [i * width, (i + 1) * width)). The device twins are in halo_pack_device.hpp.
#include <cstddef>
#include <span>

#include "engine/backend.hpp"

namespace tessera::mpi {

// Where the values of an item lie: value v of item `item` at item * itemStride + v * valueStride.
// Item-major (each item's width values side by side, items numbered from 0) is the common case;
// a patch's cell, whose variables lie a variable block apart, is an item named by the index of its
// first variable (itemStride 1, valueStride the block's length).
struct ItemLayout {
  int width = 1;
  std::size_t itemStride = 1, valueStride = 1;

  static ItemLayout itemMajor(int width) { return {width, std::size_t(width), 1}; }
  TESSERA_INLINE std::size_t index(int item, int v) const {
    return std::size_t(item) * itemStride + std::size_t(v) * valueStride;
  }
};

// packed[i * width + v] = values[layout.index(items[i], v)]. An item may be listed more than once
// (an owned item goes to every rank that holds a copy of it).
template <class T>
void packHaloValues(const T* values, std::span<const int> items, ItemLayout layout, T* packed) {
  const std::size_t w = std::size_t(layout.width);
  for (std::size_t i = 0; i < items.size(); ++i)
    for (int v = 0; v < layout.width; ++v)
      packed[i * w + std::size_t(v)] = values[layout.index(items[i], v)];
}

// values[layout.index(items[i], v)] = packed[i * width + v]: the inverse of packHaloValues. Items
// not listed keep their values. An item listed more than once must carry the same values each
// time (a halo plan's receive items are distinct): the device twin writes them in no set order.
template <class T>
void unpackHaloValues(const T* packed, std::span<const int> items, ItemLayout layout, T* values) {
  const std::size_t w = std::size_t(layout.width);
  for (std::size_t i = 0; i < items.size(); ++i)
    for (int v = 0; v < layout.width; ++v)
      values[layout.index(items[i], v)] = packed[i * w + std::size_t(v)];
}

} // namespace tessera::mpi
