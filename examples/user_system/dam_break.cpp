// A dam break in a channel, run by a program built against an installed Tessera
// (find_package(Tessera), CMakeLists.txt beside this file): still water 2 deep left of x = 0.5
// and 1 deep right of it, walls all round, two levels of refinement following the bore and the
// rarefaction (Loehner on depth), second order (PLM with van Leer's limiter, HLLE with the
// system's wave speeds, SSP-RK2). The program checks what the exact solution guarantees whatever
// the resolution, and exits 1 where one fails: the water's volume stays what it was (walls:
// nothing leaves), the depth stays within [1, 2], and the bore has run right of
// x = 0.5 + t sqrt(g) (the still water's wave speed) by t = 0.05; and that the finest level still
// follows the waves then.
#include <cmath>
#include <cstdio>
#include <mpi.h>

#include "drivers/amr_solver.hpp"
#include "shallow_water.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  using namespace tessera;
  using System = ShallowWater<2>;
  const System water;
  const PatchLayout<2> layout{8, 2, System::kNumVars};
  AmrSettings settings;
  settings.maxLevel = 2;
  // Loehner on the first primitive variable, the depth. Its noise filter at FLASH's 0.01 takes a
  // bore this weak (depth 1 to about 1.45, smeared over three cells) for a ripple on the deep
  // water and lets the mesh coarsen away from it (level 2 to 0 by t = 0.044); 0.001 follows it.
  amr::IndicatorCriterion criterion;
  criterion.filter = 0.001;
  const PatchScheme secondOrder{
      {ReconstructionKind::Plm, LimiterKind::VanLeer, RiemannSolverKind::Hlle}, kSspRk2};
  AmrSolver<System> solver(MPI_COMM_WORLD, water, layout, {{8, 2}}, {{0.0, 0.0}}, {{1.0, 0.25}},
                           DomainBoundary<2>::all(BoundaryKind::Reflecting), settings, criterion,
                           0.4, MemorySpace::Host, secondOrder);
  solver.initialise([&](const auto&, const auto&) {
    return [&](const Vec<double, 2>& x) {
      return water.toConserved({{x[0] < 0.5 ? 2.0 : 1.0, 0, 0}});
    };
  });
  const double volume = solver.solver().conservedTotals()[0];
  constexpr double kEnd = 0.05;
  while (solver.time() < kEnd)
    solver.advance(std::fmin(solver.stableDt(), kEnd - solver.time()));

  const auto& state = solver.solver().hostState();
  double lowest = INFINITY, highest = -INFINITY, front = 0.0;
  for (int p = 0; p < solver.solver().numPatches(); ++p)
    for (int n = 0; n < layout.interiorCells(); ++n) {
      const CellIndex<2> c = layout.interiorCell(n);
      const double h = state.at(p, 0, c);
      lowest = std::fmin(lowest, h);
      highest = std::fmax(highest, h);
      if (h > 1.01)
        front = std::fmax(front, solver.solver().geometry()[std::size_t(p)].cellCenter(0, c[0]));
    }
  double bounds[2] = {-lowest, highest}, farthest = front;
  MPI_Allreduce(MPI_IN_PLACE, bounds, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &farthest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double drift = std::fabs(solver.solver().conservedTotals()[0] - volume) / volume;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool ok = drift < 1e-13 && -bounds[0] > 1.0 - 1e-9 && bounds[1] < 2.0 + 1e-9 &&
                  farthest > 0.5 + kEnd * std::sqrt(water.g) &&
                  solver.finestLevel() == settings.maxLevel;
  if (rank == 0)
    std::printf("dam break to t = %g on %lld patches, levels 0 to %d: volume drift %.2e, depth in "
                "[%.6f, %.6f], bore at x = %.4f: %s\n",
                solver.time(), solver.globalPatches(), solver.finestLevel(), drift, -bounds[0],
                bounds[1], farthest, ok ? "as expected" : "FAILED");
  MPI_Finalize();
  return ok ? 0 : 1;
}
