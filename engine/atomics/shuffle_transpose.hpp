#pragma once
// Index arithmetic of the register-shuffle transpositions of seed 000 (Appendix B), shared by the
// device kernels and their host twins, and proven on the host for every tile width.
//
// A tile of L lanes holds a virtual L x K array A, lane p owning row p (its K values, AoS). The
// transposition leaves the same values spread so that consecutive lanes hold consecutive entries
// of A in row-major order, and then atomic additions by consecutive lanes go to consecutive
// addresses (unit stride) of an AoS target.
#include "engine/backend.hpp"

namespace tessera::atomics {

// Power-of-two K <= L (Listing 3): groups of K adjacent lanes exchange in place with K - 1
// shuffles. At step s = 1 .. K-1 lane p takes from lane p ^ s and both sides use slot
// (p ^ s) % K of the receiver, i.e. the receiver's slot names the sender's column. Afterwards
// lane p holds in slot i the entry A[(p / K) * K + i][p % K].
TESSERA_INLINE constexpr int powerOfTwoPartner(int lane, int step) {
  return lane ^ step;
}
TESSERA_INLINE constexpr int powerOfTwoSlot(int partner, int k) {
  return partner & (k - 1);
}

// Odd K (Listing 4, seed 000's "prime" lengths): all L lanes take part, K shuffles. At step i
// lane p receives entry A[q][i] from lane q = S (p - i) mod L and stores it in slot
// j = (K q + i) / L, with S the inverse of K modulo L. Then K q + i = p + j L: lane p ends up
// holding the entries p, p + L, p + 2L, ... of A in row-major order, slot j being entry p + j L.
// (seed 000 writes q = (p S + i S (L - 1)) mod L, the same number since L - 1 = -1 mod L.)
TESSERA_INLINE constexpr int inverseModulo(int k, int lanes) {
  for (int s = 1; s < lanes; ++s)
    if ((s * k) % lanes == 1)
      return s;
  return 0; // gcd(k, lanes) > 1: no inverse, no transposition
}
TESSERA_INLINE constexpr int oddSourceLane(int lane, int step, int stride, int lanes) {
  return (lane * stride + step * (lanes - 1) * stride) % lanes;
}
TESSERA_INLINE constexpr int oddSlot(int source, int step, int k, int lanes) {
  return (k * source + step) / lanes;
}

// One stride serves every power-of-two tile up to 64 lanes: an inverse modulo 64 is one modulo
// every power of two dividing 64. For K = 3 and 5 these are seed 000's S = 43 and S = 13.
inline constexpr int kMaxTileLanes = 64;
TESSERA_INLINE constexpr int oddStride(int k) {
  return inverseModulo(k, kMaxTileLanes);
}
static_assert(oddStride(3) == 43 && oddStride(5) == 13, "seed 000, section II: S(L,3), S(L,5)");

} // namespace tessera::atomics
