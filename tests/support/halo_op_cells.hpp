#pragma once
// The cells of a halo-plan operation's box, for tests that check or poison what it writes.
#include "patches/halo_plan.hpp"

namespace tessera::test {

// Calls visit(c) for every cell c of op's box [lo, hi), x fastest.
template <int Dim, class Visit>
void forEachCellOf(const HaloOp<Dim>& op, Visit&& visit) {
  int cells = 1;
  for (int a = 0; a < Dim; ++a)
    cells *= op.hi[a] - op.lo[a];
  for (int m = 0; m < cells; ++m) {
    CellIndex<Dim> c;
    for (int a = 0, r = m; a < Dim; ++a) {
      c[a] = op.lo[a] + r % (op.hi[a] - op.lo[a]);
      r /= op.hi[a] - op.lo[a];
    }
    visit(c);
  }
}

} // namespace tessera::test
