#pragma once
// The patch solver's unphysical-state error on one case, in either memory space (the host test in
// tests/unit/test_unphysical_message.cpp, its device twin in tests/gpu/test_amr_device.cpp): the
// upper-right patch of a 2 x 2 patch grid of 8^2 cells on [0, 1]^2 holds a negative density, so
// the message must name patch 3, its first cell (0, 0), that cell's centre (0.53125, 0.53125) and
// the density -1.
#include <string>

#include "physics/euler/euler.hpp"
#include "solvers/patch/patch_solver.hpp"
#include "solvers/unphysical_state.hpp"

namespace tessera::test {

inline constexpr const char* kUnphysicalPatchMessage =
    "patch 3 cell (0, 0) at (0.53125, 0.53125): density -1";

// stableDt's message on the case, or "no error".
inline std::string unphysicalPatchMessage(MemorySpace space) {
  const UniformPatchGrid<2> grid(PatchLayout<2>{8, 1, 4}, {{2, 2}}, {{0, 0}}, {{1, 1}});
  PatchSolver<Euler<2>> solver(Euler<2>{}, grid, DomainBoundary<2>::all(BoundaryKind::Outflow), 0.4,
                               space);
  const Euler<2> pde;
  solver.initialise([&](const Vec<double, 2>& x) {
    const double rho = x[0] > 0.5 && x[1] > 0.5 ? -1.0 : 1.0;
    return pde.toConserved({{rho, 0.0, 0.0, 1.0}});
  });
  try {
    solver.stableDt();
  } catch (const UnphysicalStateError& e) {
    return e.what();
  }
  return "no error";
}

} // namespace tessera::test
