#pragma once
// A face contribution for the atomic-strategy tests: K values per side from integer hashing of
// the face and the component, so that host and device produce them bit for bit, signs mixed so
// that sums cancel partly as residuals do. `magnitude` gives |value| instead, the scale against
// which the reordered sums of a strategy are compared.
#include "engine/backend.hpp"

namespace tessera::test {

template <int K>
struct SyntheticContribution {
  bool magnitude = false;

  TESSERA_INLINE static double value(int face, int k, int side) {
    const unsigned h = (unsigned(face) * 2654435761u) ^ (unsigned(k * 2 + side) * 40503u);
    return double(int(h % 2001u) - 1000) / 256.0;
  }
  TESSERA_INLINE void operator()(int face, double* toOwner, double* toNeighbour) const {
    for (int k = 0; k < K; ++k) {
      const double o = value(face, k, 0), n = value(face, k, 1);
      toOwner[k] = magnitude && o < 0 ? -o : o;
      toNeighbour[k] = magnitude && n < 0 ? -n : n;
    }
  }
};

} // namespace tessera::test
