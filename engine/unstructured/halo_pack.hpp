#pragma once
// Packing the values of listed cells into a halo message and unpacking a message into the listed
// cells, on the host. Values are cell-major, width per cell (cell c's at [c * width, ...)); a
// message holds the listed cells' values one cell after another, in the list's order. The device
// twins are in halo_pack_device.hpp.
#include <cstddef>
#include <span>

namespace tessera::unstructured {

// packed[i * width + v] = values[cells[i] * width + v]. A cell may be listed more than once (an
// owned cell goes to every rank that holds it as a halo cell).
inline void packHaloValues(const double* values, std::span<const int> cells, int width,
                           double* packed) {
  const std::size_t w = std::size_t(width);
  for (std::size_t i = 0; i < cells.size(); ++i)
    for (std::size_t v = 0; v < w; ++v)
      packed[i * w + v] = values[std::size_t(cells[i]) * w + v];
}

// values[cells[i] * width + v] = packed[i * width + v]: the inverse of packHaloValues. Cells not
// listed keep their values. A cell listed more than once must carry the same values each time
// (a halo plan's receive cells are distinct): the device twin writes them in no set order.
inline void unpackHaloValues(const double* packed, std::span<const int> cells, int width,
                             double* values) {
  const std::size_t w = std::size_t(width);
  for (std::size_t i = 0; i < cells.size(); ++i)
    for (std::size_t v = 0; v < w; ++v)
      values[std::size_t(cells[i]) * w + v] = packed[i * w + v];
}

} // namespace tessera::unstructured
