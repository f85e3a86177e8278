#pragma once
// The stall detector of the implicit solver's limiter freezing (unstructured_implicit.hpp): a
// steady iteration whose residual has not halved in `window` steps has stalled. Steps count only
// once the start's transient is over, the residual a tenth of the first (the residual often grows
// at first: that is no stall). A residual back above that bound (a start that rose again after its
// first drop, as the transonic NACA 0012 does on its 512 mesh) is the transient still and starts
// the window again: freezing there would keep the limiter of a state far from the steady one.
// But a transient ends: a residual that has not halved its lowest value since its first drop in
// kUnsettledWindows windows has stalled too, however often it went back above the bound. Barth and
// Jespersen's limiter with Newton-Krylov on the jittered tetrahedral bump jumped between 4e-3 and
// 1.5e-1 of the first residual, above the bound every ten steps or so, for 800 steps without a
// freeze (RESULTS.md).
//
// The window follows the run's own pace: a residual whose lowest value has halved every n steps on
// average since its first drop has stalled only once it has not halved in kPaceWindows n steps,
// where that is longer than `window`. The multicolor sweeps at a pseudo-time CFL of 100 converge
// the NACA 0012 512 mesh with the residual swinging over some 60 steps, its lowest value halving
// every 100 or so: a window of 100 froze the limiter there inside the transient, 1.5e-2 from the
// live scheme's steady state (Venkatakrishnan's K = 10, RESULTS.md). Newton-Krylov's residual
// halves every few steps, and the window holds.
//
// A residual that cycles has stalled at once, whatever the window: the same values again, period
// after period, kCycleRepeats periods of 2 to kLongestCycle steps, each value within
// kCycleTolerance of the one a period before, not all of a period alike (that is a plateau, which
// the window judges). It is the limiter switching back and forth, which Newton-Krylov's steps at
// CFL 1e5 do not get past: the transonic wing's 12 mm mesh alternated between 2.60e-3 and 2.51e-3
// of the first residual for 100 steps before the window froze the limiter; the NACA 0012 1024
// mesh with 40 Krylov vectors cycled through three values for 76 (RESULTS.md). A wide cycle
// drifts more: the wing's 8 mm mesh alternated between 4.4e-4 and 2.1e-3, each value 0.3-0.7%
// from the one a period before, for 90 steps. So a cycle whose values span more than
// kWideSwing of its lowest repeats, too, where each comes within kWideDrift of that span of the
// one a period before: the 8 mm wing's run froze at step 90, not at 182. Near a smooth turning
// point of a slow swing (the sweeps on the subsonic NACA 0012 512 mesh) the values a period apart
// differ by a third of the span or more.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

namespace tessera {

struct StallWindow {
  static constexpr double kTransientDrop = 0.1;
  static constexpr int kLongestCycle = 4;
  static constexpr int kCycleRepeats = 3;
  static constexpr double kCycleTolerance = 1e-3;
  static constexpr double kWideSwing = 0.1;
  static constexpr double kWideDrift = 0.02;
  static constexpr int kMemory = kLongestCycle * kCycleRepeats;
  static constexpr int kUnsettledWindows = 3;
  static constexpr int kPaceWindows = 2;
  double halvedResidual = -1.0; // the residual the window started at; negative: the transient
  int halvedAt = 0;             // the step it started at
  // Since the first drop below the bound: the residual that last halved the lowest before it, and
  // its step (negative: no drop yet).
  double lowestResidual = -1.0;
  int lowestAt = 0;
  // The step of the first drop below the bound, and how often the lowest residual halved since
  // (a drop by 8 in one step is three halvings).
  int firstDropAt = 0;
  int lowestHalvings = 0;
  // The residuals observed since the window started, the latest kMemory of them: the i-th at
  // recent[i % kMemory], for i < observed.
  std::array<double, kMemory> recent{};
  int observed = 0;

  // The residual measured before step `iteration`, `first` the first one measured.
  void observe(double norm, double first, int iteration) {
    if (norm <= kTransientDrop * first && (lowestResidual < 0.0 || norm <= 0.5 * lowestResidual)) {
      if (lowestResidual < 0.0)
        firstDropAt = iteration;
      else
        lowestHalvings += int(std::floor(std::log2(lowestResidual / norm)));
      lowestResidual = norm;
      lowestAt = iteration;
    }
    if (halvedResidual < 0.0 ? norm <= kTransientDrop * first
                             : norm <= 0.5 * halvedResidual || norm > kTransientDrop * first)
      restart(norm, iteration);
    else if (halvedResidual >= 0.0)
      record(norm);
  }
  // A window from step `iteration` (a freeze starts one, for a stall of the frozen iteration).
  void restart(double norm, int iteration) {
    halvedResidual = norm;
    halvedAt = iteration;
    observed = 0;
    record(norm);
  }
  // Back to the transient: the first-order start's end changes the residual itself.
  void reset() {
    halvedResidual = -1.0;
    lowestResidual = -1.0;
    lowestHalvings = 0;
    observed = 0;
  }
  // Whether `window` steps (none where it is 0), or kPaceWindows times the steps a halving has
  // taken, have passed since the window started, or the residual cycles, or it has not settled in
  // kUnsettledWindows windows (none where the window is 0 either).
  bool stalled(int iteration, int window) const {
    if (window <= 0)
      return false;
    const int paced = std::max(window, kPaceWindows * stepsPerHalving());
    const bool unsettled =
        lowestResidual >= 0.0 && iteration - lowestAt >= kUnsettledWindows * paced;
    return unsettled || (halvedResidual >= 0.0 && (iteration - halvedAt >= paced || cycles()));
  }
  // The steps the lowest residual has taken to halve since the first drop, on average (0: it
  // has not halved yet).
  int stepsPerHalving() const {
    return lowestHalvings > 0 ? (lowestAt - firstDropAt + lowestHalvings - 1) / lowestHalvings : 0;
  }

private:
  void record(double norm) { recent[std::size_t(observed++ % kMemory)] = norm; }
  double at(int i) const { return recent[std::size_t(i % kMemory)]; }
  bool cycles() const {
    for (int period = 2; period <= kLongestCycle; ++period) {
      const int span = period * kCycleRepeats;
      if (observed < span)
        continue;
      double lowest = at(observed - span), highest = lowest;
      for (int i = observed - span + 1; i < observed; ++i) {
        lowest = std::min(lowest, at(i));
        highest = std::max(highest, at(i));
      }
      const double swing = highest - lowest;
      bool repeats = true, repeatsWide = true, varies = false;
      for (int i = observed - span + period; i < observed; ++i) {
        const double drift = std::abs(at(i) - at(i - period));
        repeats = repeats && drift <= kCycleTolerance * at(i);
        repeatsWide = repeatsWide && drift <= kWideDrift * swing;
        varies = varies || std::abs(at(i) - at(i - 1)) > kCycleTolerance * at(i);
      }
      if ((repeats && varies) || (repeatsWide && swing > kWideSwing * lowest))
        return true;
    }
    return false;
  }
};

} // namespace tessera
