// Double Mach reflection (Woodward & Colella 1984, J. Comput. Phys. 54, 115) as a case of the
// case runner (tools/tessera/case_runner.hpp): a Mach 10 shock in air meets a 30-degree wedge,
// written in the wedge's frame. The case file (double_mach.toml) says the domain, mesh, scheme,
// output and the two built-in boundaries; this program adds to Tessera's Euler system the two
// things a case file cannot say, by name:
//   initial.type = "double_mach": the shock leaning 60 degrees from x = 1/6 at y = 0;
//   boundary.hook = "double_mach" (a BoundaryHook, solvers/patch/boundary_hook.hpp):
//     bottom: x < 1/6 is held at the post-shock state, x >= 1/6 is the reflecting wall;
//     top:    the exact motion of the incident shock, post-shock left of x_s(t) = 1/6 + (1 + 20 t)
//             / sqrt(3), pre-shock right of it.
// Everything else is the runner's: `double_mach run double_mach.toml [--set ...] [--restart ...]`,
// checkpoints, signals, progress, log and output as the tessera program gives them.
#include <cmath>
#include <numbers>
#include <optional>

#include "tools/tessera/case_runner.hpp"

namespace {

using tessera::Euler;
using State = Euler<2>::State;
using Position = tessera::Vec<double, 2>;

const double kSqrt3 = std::sqrt(3.0);
const double kTip = 1.0 / 6.0; // where the wall starts

// Post-shock: density 8, velocity 8.25 along the shock's normal (30 degrees below x), p 116.5.
State postShock(const Euler<2>& gas) {
  return gas.toConserved({{8.0, 8.25 * std::cos(std::numbers::pi / 6.0),
                           -8.25 * std::sin(std::numbers::pi / 6.0), 116.5}});
}
State preShock(const Euler<2>& gas) {
  return gas.toConserved({{1.4, 0.0, 0.0, 1.0}});
}

// Where the incident shock meets height y at time t.
double shockX(double y, double t) {
  return kTip + (y + 20.0 * t) / kSqrt3;
}

} // namespace

int main(int argc, char** argv) {
  using namespace tessera;
  cli::CaseSystem<Euler<2>> euler = cli::shippedCase<Euler, 2>();
  euler.initial["double_mach"] = [](io::Config&, const Euler<2>& gas, const auto&) {
    return cli::InitialState<Euler<2>>::fixed([gas](const Position& x) {
      return x[0] < shockX(x[1], 0.0) ? postShock(gas) : preShock(gas);
    });
  };
  euler.hooks["double_mach"] = [](io::Config&, const Euler<2>& gas, const auto& grid) {
    BoundaryHook<2, 4> hook;
    hook.lower = grid.lower();
    hook.upper = grid.upper();
    hook.hooked[1] = {true, true}; // bottom and top
    hook.state = [gas](const Position& x, double t, int, int side) -> std::optional<State> {
      if (side == 0) // bottom: held ahead of the wedge, the wall (reflecting) beyond its tip
        return x[0] < kTip ? std::optional<State>(postShock(gas)) : std::nullopt;
      return x[0] < shockX(1.0, t) ? postShock(gas) : preShock(gas);
    };
    return hook;
  };
  return cli::CaseRunner("double_mach").add(euler).main(argc, argv);
}
