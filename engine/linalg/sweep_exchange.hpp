#pragma once
// What a multicolor sweep distributed over MPI ranks does around each color (seed 002, section
// 2): the color's boundary rows, whose new values other ranks read, run first; start() then sends
// them, the color's interior rows run while the messages travel, and finish() leaves the color's
// halo rows (copies of other ranks' rows) with their owners' new values before the next color
// reads them.
namespace tessera::linalg {

template <class Update>
class SweepExchange {
public:
  virtual ~SweepExchange() = default;
  // dq is in the matrix's memory space.
  virtual void start(int color, const Update* dq) = 0;
  virtual void finish(int color, Update* dq) = 0;
};

} // namespace tessera::linalg
