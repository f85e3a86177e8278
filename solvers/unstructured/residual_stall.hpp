#pragma once
// The stall detector of the implicit solver's limiter freezing (unstructured_implicit.hpp): a
// steady iteration whose residual has not halved in `window` steps has stalled. Steps count only
// once the start's transient is over, the residual a tenth of the first (the residual often grows
// at first: that is no stall). A residual back above that bound (a start that rose again after its
// first drop, as the transonic NACA 0012 does on its 512 mesh) is the transient still and starts
// the window again: freezing there would keep the limiter of a state far from the steady one.

namespace tessera {

struct StallWindow {
  static constexpr double kTransientDrop = 0.1;
  double halvedResidual = -1.0; // the residual the window started at; negative: the transient
  int halvedAt = 0;             // the step it started at

  // The residual measured before step `iteration`, `first` the first one measured.
  void observe(double norm, double first, int iteration) {
    if (halvedResidual < 0.0 ? norm <= kTransientDrop * first
                             : norm <= 0.5 * halvedResidual || norm > kTransientDrop * first)
      restart(norm, iteration);
  }
  // A window from step `iteration` (a freeze starts one, for a stall of the frozen iteration).
  void restart(double norm, int iteration) {
    halvedResidual = norm;
    halvedAt = iteration;
  }
  // Back to the transient: the first-order start's end changes the residual itself.
  void reset() { halvedResidual = -1.0; }
  // Whether `window` steps (none where it is 0) have passed since the window started.
  bool stalled(int iteration, int window) const {
    return window > 0 && halvedResidual >= 0.0 && iteration - halvedAt >= window;
  }
};

} // namespace tessera
