#pragma once
// A fixed-size vector usable in host and device code (std::array's members are not __device__).
#include "engine/backend.hpp"

namespace tessera {

template <class T, int N>
struct Vec {
  T v[N];

  TESSERA_INLINE constexpr T& operator[](int i) { return v[i]; }
  TESSERA_INLINE constexpr const T& operator[](int i) const { return v[i]; }
  TESSERA_INLINE static constexpr int size() { return N; }

  friend constexpr bool operator==(const Vec&, const Vec&) = default;

  TESSERA_INLINE static constexpr Vec filled(T value) {
    Vec r{};
    for (int i = 0; i < N; ++i)
      r.v[i] = value;
    return r;
  }
};

} // namespace tessera
