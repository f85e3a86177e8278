#pragma once
// Precision policies of the block solver. D, its LU factors and the right-hand side R are always
// double; the off-diagonal blocks O and the update dQ take the policy's types. Seed 002: FUN3D
// keeps O and dQ in fp32, which halves the bytes of the largest array (O) and of the gathered
// vector, while D's LU in fp64 keeps the pointwise solves accurate.
#include <string_view>

namespace tessera::linalg {

struct MixedPrecision {
  using Offdiagonal = float;
  using Update = float;
  static constexpr std::string_view kName = "mixed";
};

struct DoublePrecision {
  using Offdiagonal = double;
  using Update = double;
  static constexpr std::string_view kName = "fp64";
};

} // namespace tessera::linalg
