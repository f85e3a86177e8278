#pragma once
// What one Runge-Kutta stage asks of the fused update (numerics/time/runge_kutta.hpp): from the
// stage state q (halos filled) to
//   qOut = keep q0 + advance (q + dt L(q))
// on the interior. qOut may be q0 itself (each cell reads its own q0 just before writing it),
// never q. A forward-Euler step is keep 0, advance 1, no q0.
#include "numerics/time/runge_kutta.hpp"

namespace tessera {

struct StageWeights {
  double dt = 0.0;
  double keep = 0.0;
  double advance = 1.0;
  const double* q0 = nullptr; // Q^n where keep != 0, laid out as q

  bool forwardEuler() const { return keep == 0.0 && advance == 1.0; }

  static StageWeights of(const RungeKuttaStage& s, double dt, const double* q0) {
    return {dt, s.keep, s.advance, s.keep != 0.0 ? q0 : nullptr};
  }
};

} // namespace tessera
