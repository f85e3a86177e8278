#pragma once
// From a case configuration to the unstructured solver's inputs: the mesh ([mesh]), the boundary
// condition of each of its face tags ([boundary], [farfield]), the initial state ([initial]) and
// the scatter strategy ([unstructured]). Config turns bad values into errors naming the file, the
// key and the value.
#include <filesystem>
#include <functional>
#include <optional>

#include "engine/atomics/strategy.hpp"
#include "engine/unstructured/mesh.hpp"
#include "io/config.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/unstructured/unstructured_boundary.hpp"
#include "solvers/unstructured/unstructured_euler.hpp"
#include "solvers/unstructured/unstructured_implicit.hpp"
#include "solvers/unstructured/unstructured_scheme.hpp"
#include "solvers/unstructured/wall_forces.hpp"

namespace tessera::cli {

// mesh.file (Gmsh .msh or SU2 .su2, relative to the case file's folder) or
// mesh.box = { lower, upper, cells = [nx, ny, nz], shape = "tetrahedra" | "prisms" | "hexahedra" |
// "mixed", bump = { height, from, to } (optional: a bump on the y = lower floor,
// engine/unstructured/bump.hpp) }, then mesh.renumber: "rcm" (reverse Cuthill-McKee, the default)
// or "none".
struct CaseMesh {
  unstructured::Mesh mesh;
  // Each cell's index in the mesh file (its place among the file's volume elements) or in the
  // box generator's order: what the output's cell_id says, whatever the renumbering.
  std::vector<int> fileCell;
};
CaseMesh readUnstructuredMesh(io::Config& cfg, const std::filesystem::path& caseFile);

// boundary.<tag name> or boundary.<tag number> = "slip_wall" | "symmetry" | "farfield" |
// "outflow" for every tag of the mesh's boundary faces, and farfield.{density, velocity,
// pressure} where a tag is "farfield". Every boundary face must have a tag and every tag a kind.
UnstructuredBoundary readUnstructuredBoundary(io::Config& cfg, const unstructured::Mesh& mesh,
                                              const Euler<3>& pde);

using ConservedAt = std::function<Euler<3>::State(const Vec<double, 3>&)>;

// initial.type = "riemann" (as on patches; the default position is mid-way across the mesh's
// bounding box) or "uniform" (initial.density, initial.velocity, initial.pressure).
ConservedAt readUnstructuredInitial(io::Config& cfg, const unstructured::Mesh& mesh,
                                    const Euler<3>& pde);

// unstructured.residual_strategy, unstructured.wave_speed_strategy or
// unstructured.gradient_strategy: the atomic strategy of that face scatter, a strategy's name, or
// "auto" (nullopt: the tuner picks).
std::optional<atomics::Strategy> readAtomicStrategy(io::Config& cfg, EulerScatter scatter);

// unstructured.reconstruction ("muscl" or "first_order"), unstructured.gradient ("auto",
// "node_least_squares", "least_squares" or "green_gauss"), unstructured.limiter
// ("venkatakrishnan", "barth_jespersen" or "none"), unstructured.venkatakrishnan_k (10),
// unstructured.reference_length (forces.reference_length, 1: Venkatakrishnan's length unit) and
// unstructured.riemann_solver ("roe", "hllc", "hlle", "rusanov"); the defaults as in
// solvers/unstructured/unstructured_scheme.hpp. Keys of the
// reconstruction (gradient, limiter, K) in a first-order case are refused, as they would do
// nothing.
UnstructuredScheme readUnstructuredScheme(io::Config& cfg);

// time.integrator of an explicit run: "euler", "ssp_rk2" or "ssp_rk3"; ssp_rk2 at second order,
// euler at first order unless set.
RungeKutta readUnstructuredIntegrator(io::Config& cfg, const UnstructuredScheme& scheme);

// forces.reference_area (1), forces.reference_length (1), forces.moment_center ([0, 0, 0]) and
// forces.lift_direction (default: the part of +y across the freestream's velocity, or of +z where
// the freestream runs along y): what the forces on the slip walls are reported against. The lift,
// drag and moment coefficients need a farfield with a velocity; nullopt reference without one.
struct ForceSettings {
  Vector3 momentCentre{};
  std::optional<ForceReference> reference; // for the coefficients
};
ForceSettings readForceSettings(io::Config& cfg, const UnstructuredBoundary& boundary,
                                const Euler<3>& pde);

// [implicit]: enabled (false: the explicit time-accurate run), and where enabled cfl (CFL_0,
// 10), jacobian ("roe" beside a Roe or HLLC residual, else "rusanov"), cfl_max (1e5 at first
// order; at second kSecondOrderRoeCflMax with Roe's Jacobian, kSecondOrderCflMax with Rusanov's),
// sweeps (15), precision ("mixed" or "fp64"), residual_drop (1e-8), max_iterations (200) and, at
// second order with a limiter,
// freeze_limiter_below (0: never) of backward-Euler pseudo-time stepping to a steady state
// (solvers/unstructured/unstructured_implicit.hpp). nullopt where not enabled.
struct ImplicitCase {
  ImplicitSettings settings;
  bool mixedPrecision = true;
};
// Measured with Rusanov's Jacobian on examples/unstructured/bump_implicit.toml at second order:
// 8 orders in 490 iterations at 50, 520 at 100, 690 at 20; at 300 and above the residual stalls
// near 1e-6. With Roe's, on the NACA 0012 transonic case (128 and 256 meshes): 631 and 1294
// iterations at 100, 552 and 1147 at 150, a stall at 200 (Rusanov's at 50: 1498 and 2954).
inline constexpr double kSecondOrderCflMax = 50.0;
inline constexpr double kSecondOrderRoeCflMax = 100.0;
// Newton-Krylov's first-order start ends at this drop of the residual unless the case sets
// implicit.first_order_iterations or implicit.first_order_drop. Measured on the transonic NACA 0012
// (H200, the 512 and 1024 meshes; host, 256): 141, 825 and 37 iterations to 8 orders against 284,
// 1442 and 50 from a second-order start; a drop of 1e-4 took the 1024 mesh 947.
inline constexpr double kNewtonKrylovFirstOrderDrop = 1e-3;
std::optional<ImplicitCase> readImplicit(io::Config& cfg, const UnstructuredScheme& scheme);

} // namespace tessera::cli
