// The shallow-water system of shallow_water.hpp as a program of its own through Tessera's case
// runner: `shallow_water run dam_break.toml [--set ...] [--restart ...]`, `shallow_water info
// lake_at_rest.toml`, and all the tessera program does with a case (checks, checkpoints, signals,
// progress, log, output; host or GPU where Tessera was built for one; any rank count). What it
// adds is the system's case keys and two initial states by name:
//   physics.g (9.81), physics.bump = {height, center, width} (the bed; none: flat);
//   initial.type = "dam_break": still water initial.left_depth left of initial.position along x
//     and initial.right_depth right of it;
//   initial.type = "lake_at_rest": still water whose surface is flat at initial.surface over the
//     bed, which the run is then well balanced about (physics.well_balanced, on by default).
#include "shallow_water.hpp"

#include <vector>

#include "tools/tessera/case_runner.hpp"

int main(int argc, char** argv) {
  using namespace tessera;
  using Water = ShallowWater<2>;
  using Initial = cli::InitialState<Water>;
  cli::CaseSystem<Water> water;
  water.make = [](io::Config& cfg) {
    Water s;
    s.g = cfg.getDouble("physics.g", 9.81, io::Range::positive());
    s.bumpHeight = cfg.getDouble("physics.bump.height", 0.0);
    const std::vector<double> centre =
        cfg.getDoubles("physics.bump.center", std::vector<double>{0.0, 0.0}, 2);
    const std::vector<double> width =
        cfg.getDoubles("physics.bump.width", std::vector<double>{1.0, 1.0}, 2);
    s.bumpCentre = Vec<double, 2>{{centre[0], centre[1]}};
    s.bumpWidth = Vec<double, 2>{{width[0], width[1]}};
    return s;
  };
  water.initial["dam_break"] = [](io::Config& cfg, const Water& s, const auto& grid) {
    const double left = cfg.getDouble("initial.left_depth", 2.0, io::Range::positive());
    const double right = cfg.getDouble("initial.right_depth", 1.0, io::Range::positive());
    const double at = cfg.getDouble("initial.position", 0.5 * (grid.lower()[0] + grid.upper()[0]));
    return Initial::fixed([=](const Vec<double, 2>& x) {
      return s.toConserved({{(x[0] < at ? left : right) - s.bed(x), 0.0, 0.0}});
    });
  };
  water.initial["lake_at_rest"] = [](io::Config& cfg, const Water& s, const auto&) {
    const double surface = cfg.getDouble("initial.surface", 1.0);
    const auto lake = [=](const Vec<double, 2>& x) {
      return s.toConserved({{surface - s.bed(x), 0.0, 0.0}});
    };
    return Initial::fixed(lake, lake);
  };
  return cli::CaseRunner("shallow_water").add(water).main(argc, argv);
}
