// The PatchSolver of every system Tessera ships, in 3D, compiled once (patch_solver.hpp).
#include "solvers/patch/patch_solver.hpp"

namespace tessera {

#define TESSERA_INSTANTIATE_PATCH_SOLVER(System) template class PatchSolver<System<3>>;
TESSERA_SHIPPED_SYSTEMS(TESSERA_INSTANTIATE_PATCH_SOLVER)

} // namespace tessera
