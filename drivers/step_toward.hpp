#pragma once
// One stable step toward a target time (the next output or the end), for any solver with
// stableDt(), time(), advance(dt) and advanceTo(time): the step is shortened to end exactly on the
// target where it would reach it (within slack), because time + (target - time) may round off the
// target. Returns the step taken; time() == target tells that it got there.
namespace tessera {

template <class Solver>
double stepToward(Solver& solver, double target, double slack = 0.0) {
  const double dt = solver.stableDt();
  if (solver.time() + dt < target - slack) {
    solver.advance(dt);
    return dt;
  }
  const double last = target - solver.time();
  solver.advanceTo(target);
  return last;
}

} // namespace tessera
