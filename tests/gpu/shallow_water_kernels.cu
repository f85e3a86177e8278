// The device kernels of examples/user_system's shallow-water system, instantiated as a user's own
// .cu does it (README), for the lake-at-rest test on the device.
#include "examples/user_system/shallow_water.hpp"
#include "solvers/patch/patch_kernels.hpp"

TESSERA_INSTANTIATE_PATCH_KERNELS(ShallowWater<2>)
