// Double Mach reflection (Woodward & Colella 1984, J. Comput. Phys. 54, 115): a Mach 10 shock in
// air meets a 30-degree wedge, written in the wedge's frame: the domain [0, 4] x [0, 1], the wall
// y = 0 from x = 1/6 on, the shock leaning 60 degrees from x = 1/6 at y = 0. A program of its own,
// not a case file, because its two boundaries are the case's own (a BoundaryHook, solvers/patch/
// boundary_hook.hpp), with no change to the engine:
//   bottom: x < 1/6 is held at the post-shock state, x >= 1/6 is the reflecting wall;
//   top:    the exact motion of the incident shock, post-shock left of x_s(t) = 1/6 + (1 + 20 t)
//           / sqrt(3), pre-shock right of it.
// Left: inflow of the post-shock state; right: outflow.
//
// Usage: double_mach [end time, default 0.2] [finest level, default 2]. Output (where the build has
// VTK): output/double_mach/double_mach.pvd. Look at density at t = 0.2: the Mach stem on the
// wall, the reflected shock and the slip line rolling up towards the wall jet near x = 2.7; the
// refined levels follow the shocks and the slip line (Loehner on density).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mpi.h>
#include <numbers>
#include <optional>

#include "drivers/amr_solver.hpp"
#include "drivers/step_toward.hpp"
#include "physics/euler/euler.hpp"
#if TESSERA_HAS_VTK
#include "io/patch_output.hpp"
#include "io/vtk_output.hpp"
#endif

namespace {

using tessera::Euler;
using State = Euler<2>::State;
using Position = tessera::Vec<double, 2>;

const Euler<2> kGas{};
const double kSqrt3 = std::sqrt(3.0);
const double kTip = 1.0 / 6.0; // where the wall starts

// Post-shock: density 8, velocity 8.25 along the shock's normal (30 degrees below x), p 116.5.
State postShock() {
  return kGas.toConserved({{8.0, 8.25 * std::cos(std::numbers::pi / 6.0),
                            -8.25 * std::sin(std::numbers::pi / 6.0), 116.5}});
}
State preShock() {
  return kGas.toConserved({{1.4, 0.0, 0.0, 1.0}});
}

// Where the incident shock meets height y at time t.
double shockX(double y, double t) {
  return kTip + (y + 20.0 * t) / kSqrt3;
}

tessera::BoundaryHook<2, 4> boundaryHook() {
  tessera::BoundaryHook<2, 4> hook;
  hook.lower = {{0.0, 0.0}};
  hook.upper = {{4.0, 1.0}};
  hook.hooked[1] = {true, true}; // bottom and top
  hook.state = [](const Position& x, double t, int, int side) -> std::optional<State> {
    if (side == 0) // bottom: held ahead of the wedge, the wall (reflecting) beyond its tip
      return x[0] < kTip ? std::optional<State>(postShock()) : std::nullopt;
    return x[0] < shockX(1.0, t) ? postShock() : preShock();
  };
  return hook;
}

} // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const double endTime = argc > 1 ? std::atof(argv[1]) : 0.2;
  const int finest = argc > 2 ? std::atoi(argv[2]) : 2;
  if (!(endTime > 0.0) || finest < 0 || finest > 6) {
    std::fprintf(stderr, "double_mach: usage: double_mach [end time > 0] [finest level 0-6]\n");
    MPI_Finalize();
    return 2;
  }

  tessera::DomainBoundary<2> boundary;
  boundary.kind[0] = {tessera::BoundaryKind::Inflow, tessera::BoundaryKind::Outflow};
  boundary.kind[1] = {tessera::BoundaryKind::Reflecting, tessera::BoundaryKind::Outflow};
  const State inflow = postShock();
  boundary.inflowState[0][0].assign(inflow.v, inflow.v + 4);

  tessera::AmrSettings settings;
  settings.maxLevel = finest;
  settings.regridInterval = 4;
  const tessera::PatchScheme scheme{{tessera::ReconstructionKind::Plm,
                                     tessera::LimiterKind::VanLeer,
                                     tessera::RiemannSolverKind::Hllc},
                                    tessera::kSspRk2};
  // Level 0: 16 x 4 patches of 16^2 cells, 256 x 64 cells.
  tessera::AmrSolver<Euler<2>> amr(
      MPI_COMM_WORLD, kGas, tessera::PatchLayout<2>{16, scheme.spatial.halo(), 4}, {{16, 4}},
      {{0.0, 0.0}}, {{4.0, 1.0}}, boundary, settings,
      tessera::amr::IndicatorCriterion{tessera::amr::Indicator::Loehner, 0, true, 0.8, 0.2, 0.01},
      0.4, tessera::MemorySpace::Host, scheme);
  amr.solver().setBoundaryHook(boundaryHook());
  amr.initialise([](const auto&, const auto&) {
    return [](const Position& x) { return x[0] < shockX(x[1], 0.0) ? postShock() : preShock(); };
  });

  auto& solver = amr.solver();
#if TESSERA_HAS_VTK
  tessera::io::VtkSeriesWriter writer("output/double_mach", "double_mach", rank, ranks);
  // The primitive variables, the Mach number and a numerical schlieren image (|grad rho|), which
  // shows the Mach stem, the slip line and its roll-up.
  const tessera::io::OutputFields fields{
      tessera::io::selectOutputFields<tessera::Euler<2>>({"primitive", "mach", "schlieren"}, true)};
  const auto write = [&] {
    std::vector<int> levels;
    for (const auto& leaf : amr.forest().leaves())
      levels.push_back(leaf.level);
    const auto mesh = tessera::io::patchMesh<2>(solver.layout(), solver.geometry(), levels,
                                                int(amr.firstGlobalPatch()));
    solver.fillCurrentHalos(); // schlieren's differences read the halo cells
    const auto cells = tessera::io::cellFields(kGas, solver.hostState(), solver.geometry(), fields);
    if (rank == 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      writer.write(int(solver.step()), solver.time(), mesh, cells);
    } else {
      writer.write(int(solver.step()), solver.time(), mesh, cells);
      MPI_Barrier(MPI_COMM_WORLD);
    }
  };
#else
  const auto write = [] {};
#endif
  write();
  for (int k = 1; k <= 4; ++k) { // four outputs
    const double target = endTime * k / 4;
    while (solver.time() < target)
      tessera::stepToward(amr, target);
    write();
    if (rank == 0)
      std::printf("double_mach: t = %.4f, step %lld, %lld patches, %lld cells, finest level %d\n",
                  solver.time(), solver.step(), amr.globalPatches(), amr.globalCells(),
                  amr.finestLevel());
  }
  MPI_Finalize();
  return 0;
}
