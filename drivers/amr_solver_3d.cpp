// The AmrSolver of every system Tessera ships, in 3D, compiled once (amr_solver.hpp).
#include "drivers/amr_solver.hpp"

namespace tessera {

#define TESSERA_INSTANTIATE_AMR_SOLVER(System) template class AmrSolver<System<3>>;
TESSERA_SHIPPED_SYSTEMS(TESSERA_INSTANTIATE_AMR_SOLVER)

} // namespace tessera
