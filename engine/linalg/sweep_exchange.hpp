#pragma once
// What a multicolor sweep distributed over MPI ranks does around each color (seed 002, section
// 2): the color's boundary rows, whose new values other ranks read, run first; start() then sends
// them, the color's interior rows run while the messages travel, and finish() leaves the color's
// halo rows (copies of other ranks' rows) with their owners' new values before the next color
// reads them.
#include "engine/linalg/block_pattern.hpp"

namespace tessera::linalg {

template <class Update>
class SweepExchange {
public:
  virtual ~SweepExchange() = default;
  // dq is in the matrix's memory space.
  virtual void start(int color, const Update* dq) = 0;
  virtual void finish(int color, Update* dq) = 0;
};

// One sweep's colors in order, for the host and device sweeps alike: each color's boundary rows,
// the exchange's start (if any), its interior rows, the exchange's finish. sweepRows(RowRange)
// updates a range of rows.
template <class Update, class SweepRows>
void sweepColors(const BlockPattern& pattern, SweepExchange<Update>* exchange, Update* dq,
                 SweepRows&& sweepRows) {
  for (int c = 0; c < pattern.numColors(); ++c) {
    sweepRows(pattern.boundaryRows(c));
    if (exchange)
      exchange->start(c, dq);
    sweepRows(pattern.interiorRows(c));
    if (exchange)
      exchange->finish(c, dq);
  }
}

} // namespace tessera::linalg
