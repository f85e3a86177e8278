#pragma once
// A user boundary hook: a case's own boundary values where the built-in kinds (outflow,
// reflecting, periodic, inflow) do not say it, such as a boundary that moves with time or changes
// along a face (the double Mach reflection's top boundary follows the incident shock; its
// bottom is a wall only beyond the wedge's tip). After every halo fill, each halo cell across a
// hooked face of the domain asks the hook for its conserved state at its centre and the stage's
// time; where the hook gives one, it replaces what the face's kind gave. The hook runs on the
// host; a device solver uploads the values it gives, a few per boundary cell and stage.
// PatchSolver::setBoundaryHook installs one (AmrSolver: solver().setBoundaryHook), and it lasts
// across regrids. examples/double_mach uses one.
#include <array>
#include <functional>
#include <optional>

#include "engine/small_vector.hpp"

namespace tessera {

template <int Dim, int NumVars>
struct BoundaryHook {
  using State = Vec<double, NumVars>;
  // The domain box, to tell which patches touch a face.
  Vec<double, Dim> lower{}, upper{};
  // The faces it acts on: hooked[axis][side], side 0 lower, 1 upper.
  std::array<std::array<bool, 2>, Dim> hooked{};
  // The state of the halo cell centred at x across face (axis, side) at time t, or nothing to
  // keep the face kind's value.
  std::function<std::optional<State>(const Vec<double, Dim>& x, double t, int axis, int side)>
      state;
};

} // namespace tessera
