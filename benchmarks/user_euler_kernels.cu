// A user's system's device kernels, instantiated as README says a user does it.
#include "benchmarks/user_euler.hpp"
#include "solvers/patch/patch_kernels.hpp"

TESSERA_INSTANTIATE_PATCH_KERNELS(UserEuler<3>)
