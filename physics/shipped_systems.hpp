#pragma once
// The systems Tessera ships: the one list from which the device kernels are instantiated (each
// system in 2D and 3D, solvers/patch/patch_kernels_*d_device.cu) and the case file's
// physics.system choice is drawn. A system of a user's own needs no entry here: its own .cu
// instantiates the kernels for it (solvers/patch/patch_kernels.hpp).
#include <string_view>

#include "physics/advection/advection.hpp"
#include "physics/euler/euler.hpp"

// X(System) for each shipped system template (System<Dim>, Dim = 2 or 3).
#define TESSERA_SHIPPED_SYSTEMS(X) X(Euler) X(Advection)

namespace tessera {

#define TESSERA_SHIPPED_SYSTEM_NAME(System) std::string_view(System<2>::kName),
// physics.system's choices, as each system names itself (kName).
inline constexpr std::string_view kShippedSystemNames[] = {
    TESSERA_SHIPPED_SYSTEMS(TESSERA_SHIPPED_SYSTEM_NAME)};
#undef TESSERA_SHIPPED_SYSTEM_NAME

} // namespace tessera
