#pragma once
// PatchStore<Dim>: the state of all patches of a rank in one allocation, laid out as PatchLayout
// says. Host or device memory; the host back end reads it through host().
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>

#include "engine/device_array.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

template <int Dim>
class PatchStore {
public:
  PatchStore(PatchLayout<Dim> layout, int numPatches, MemorySpace space)
      : layout_(layout), numPatches_(numPatches),
        data_(std::size_t(numPatches) * layout.patchStride(), space) {}

  const PatchLayout<Dim>& layout() const { return layout_; }
  int numPatches() const { return numPatches_; }
  MemorySpace space() const { return data_.space(); }

  double* data() { return data_.data(); }
  const double* data() const { return data_.data(); }
  DeviceArray<double>& array() { return data_; }
  const DeviceArray<double>& array() const { return data_; }

  // Copies the first `count` patches of src (any memory spaces, the same layout).
  void copyPatchesFrom(const PatchStore& src, int count) {
    if (count > numPatches_ || count > src.numPatches_)
      throw std::out_of_range("PatchStore::copyPatchesFrom: " + std::to_string(count) +
                              " patches of " + std::to_string(src.numPatches_) + " into " +
                              std::to_string(numPatches_));
    copyBytes(data(), space(), src.data(), src.space(),
              std::size_t(count) * layout_.patchStride() * sizeof(double));
  }

  // Host access to one value; for set-up, diagnostics and tests, not for kernels.
  double& at(int patch, int var, CellIndex<Dim> c) {
    return data_.hostSpan()[layout_.index(patch, var, c)];
  }
  double at(int patch, int var, CellIndex<Dim> c) const {
    return data_.hostSpan()[layout_.index(patch, var, c)];
  }

private:
  PatchLayout<Dim> layout_;
  int numPatches_;
  DeviceArray<double> data_;
};

} // namespace tessera
