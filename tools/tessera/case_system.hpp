#pragma once
// What a program tells the case runner (case_runner.hpp) about a system it runs on patches: how a
// case file's keys make the system, its inflow state and its initial states and boundary hooks,
// each by the name a case file gives. Everything else a case says (mesh, AMR, scheme, time,
// output, checkpoints, back end) the runner reads the same way for every system, and every system
// has initial.type = "expression" (one formula per primitive variable).
#include <functional>
#include <map>
#include <span>
#include <string>

#include "io/config.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "physics/conservation_law.hpp"
#include "solvers/patch/boundary_hook.hpp"

namespace tessera::cli {

// The conserved state at a point.
template <ConservationLaw PDE>
using ConservedAt = std::function<typename PDE::State(const Vec<double, PDE::kDim>&)>;

// An initial state a case names by initial.type: the conserved state at a point of a mesh, made
// for that mesh (`onMesh` sees this rank's patches: a Sedov blast spreads its energy over the
// cells it finds, on every rank), and, where given, an equilibrium the run is then well balanced
// about (PatchSolver::setEquilibrium).
template <ConservationLaw PDE>
struct InitialState {
  std::function<ConservedAt<PDE>(const PatchLayout<PDE::kDim>&,
                                 std::span<const PatchGeometry<PDE::kDim>>)>
      onMesh;
  ConservedAt<PDE> equilibrium;

  // A state that does not depend on the mesh.
  static InitialState fixed(ConservedAt<PDE> at, ConservedAt<PDE> equilibrium = {}) {
    return {[at](const auto&, const auto&) { return at; }, std::move(equilibrium)};
  }
};

// A system as case files name it: physics.system = PDE::kName, in PDE::kDim dimensions. Each
// reader takes the keys it understands from the configuration; a key no reader takes is refused
// as unknown before the run, with a suggestion where one is near.
template <ConservationLaw PDE>
struct CaseSystem {
  using Grid = UniformPatchGrid<PDE::kDim>;
  // The system from the physics.* keys.
  std::function<PDE(io::Config&)> make = [](io::Config&) { return PDE{}; };
  // The conserved state of boundary.inflow.* for faces of kind "inflow"; without it such a case
  // is refused naming the face.
  std::function<typename PDE::State(io::Config&, const PDE&)> inflow;
  // initial.type's choices beside "expression": each reads its initial.* keys.
  std::map<std::string, std::function<InitialState<PDE>(io::Config&, const PDE&, const Grid&)>>
      initial;
  // boundary.hook's choices (solvers/patch/boundary_hook.hpp): the faces and states a case's own
  // boundary gives where the built-in kinds do not say it.
  std::map<std::string, std::function<BoundaryHook<PDE::kDim, PDE::kNumVars>(
                            io::Config&, const PDE&, const Grid&)>>
      hooks;
};

} // namespace tessera::cli
