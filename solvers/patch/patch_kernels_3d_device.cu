// The patch kernels of every system Tessera ships (physics/shipped_systems.hpp), in 3D; one file
// per dimension, so that the two compile side by side.
#include "physics/shipped_systems.hpp"
#include "solvers/patch/patch_kernels.hpp"

#define TESSERA_INSTANTIATE_IN_3D(System) TESSERA_INSTANTIATE_PATCH_KERNELS(tessera::System<3>)
TESSERA_SHIPPED_SYSTEMS(TESSERA_INSTANTIATE_IN_3D)
#undef TESSERA_INSTANTIATE_IN_3D
