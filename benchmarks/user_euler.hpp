#pragma once
// The Euler equations as a user's system of its own would carry them: a type Tessera does not
// ship (not in TESSERA_SHIPPED_SYSTEMS), its kernels instantiated by the user's own .cu
// (user_euler_kernels.cu) and its solver by the user's own code, for bench_user_system to set
// beside the shipped Euler system: the same pointwise physics, so any difference in speed is the
// engine's treatment of a user's system.
#include "physics/euler/euler.hpp"

template <int Dim>
struct UserEuler : tessera::Euler<Dim> {
  static constexpr const char* kName = "user_euler";
};
