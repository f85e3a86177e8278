#pragma once
// DeviceArray<T>: an owning, move-only array in host or device memory (RAII). No managed memory:
// data crosses between spaces only through explicit copies.
#include <cstddef>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/memory.hpp"

namespace tessera {

template <class T>
class DeviceArray {
  static_assert(std::is_trivially_copyable_v<T>, "DeviceArray holds trivially copyable values");

public:
  DeviceArray() = default;
  DeviceArray(std::size_t size, MemorySpace space)
      : data_(static_cast<T*>(allocateBytes(size * sizeof(T), space))), size_(size), space_(space) {
  }
  ~DeviceArray() { freeBytes(data_, space_); }

  DeviceArray(DeviceArray&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)), space_(o.space_) {
  }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    if (this != &o) {
      freeBytes(data_, space_);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      space_ = o.space_;
    }
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  // A device array of `host`'s values, uploaded without waiting for queued kernels
  // (uploadedDeviceBytes): the way new plans reach the device.
  static DeviceArray uploaded(std::span<const T> host) {
    DeviceArray a;
    a.data_ = static_cast<T*>(uploadedDeviceBytes(host.data(), host.size_bytes()));
    a.size_ = host.size();
    a.space_ = MemorySpace::Device;
    return a;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  MemorySpace space() const { return space_; }

  // Element access for host arrays only; device arrays are read through copies.
  std::span<T> hostSpan() {
    requireHost();
    return {data_, size_};
  }
  std::span<const T> hostSpan() const {
    requireHost();
    return {data_, size_};
  }

  void copyFrom(const DeviceArray& src) {
    requireSameSize(src.size());
    copyBytes(data_, space_, src.data_, src.space_, bytes());
  }
  void copyFromHost(std::span<const T> src) {
    requireSameSize(src.size());
    copyBytes(data_, space_, src.data(), MemorySpace::Host, bytes());
  }
  void copyToHost(std::span<T> dst) const {
    requireSameSize(dst.size());
    copyBytes(dst.data(), MemorySpace::Host, data_, space_, bytes());
  }

private:
  void requireHost() const {
    if (space_ != MemorySpace::Host)
      throw std::logic_error("DeviceArray: host access to an array in device memory");
  }
  void requireSameSize(std::size_t n) const {
    if (n != size_)
      throw std::length_error("DeviceArray: copy between arrays of different sizes");
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  MemorySpace space_ = MemorySpace::Host;
};

// A copy of host data in a memory space: how plans and tests' inputs reach the space they run in.
template <class T>
DeviceArray<T> toSpace(const std::vector<T>& host, MemorySpace space) {
  if (space == MemorySpace::Device)
    return DeviceArray<T>::uploaded(host);
  DeviceArray<T> a(host.size(), space);
  a.copyFromHost(host);
  return a;
}

template <class T>
DeviceArray<T> toDevice(const std::vector<T>& host) {
  return toSpace(host, MemorySpace::Device);
}

// A host copy of an array in any space: how results come back to be checked.
template <class T>
std::vector<T> toHost(const DeviceArray<T>& array) {
  std::vector<T> host(array.size());
  array.copyToHost(host);
  return host;
}

} // namespace tessera
