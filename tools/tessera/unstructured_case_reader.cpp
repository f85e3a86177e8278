#include "tools/tessera/unstructured_case_reader.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/unstructured/box_mesh.hpp"
#include "engine/unstructured/bump.hpp"
#include "engine/unstructured/planar_layer.hpp"
#include "engine/unstructured/renumbering.hpp"
#include "io/gmsh_reader.hpp"
#include "io/su2_reader.hpp"
#include "tools/tessera/case_reader.hpp"

namespace tessera::cli {
namespace {

namespace fs = std::filesystem;
using io::Config;
using io::ConfigError;
using io::ConfigErrorKind;

std::string joined(std::initializer_list<std::string_view> parts) {
  std::string text;
  for (std::string_view part : parts)
    text += part;
  return text;
}

// The key that names where the mesh comes from, for errors about the mesh as a whole.
std::string meshKey(const Config& cfg) {
  return cfg.has("mesh.file") ? "mesh.file" : "mesh.box";
}

unstructured::MeshDescription readMeshFile(Config& cfg, const fs::path& caseFile) {
  const fs::path file = caseFile.parent_path() / cfg.getString("mesh.file", std::nullopt);
  const fs::path extension = file.extension();
  if (extension != ".msh" && extension != ".su2")
    cfg.fail(ConfigErrorKind::OutOfRange, "mesh.file", "must end in .msh (Gmsh) or .su2 (SU2)");
  try {
    return extension == ".msh" ? io::readGmsh(file) : io::readSu2(file);
  } catch (const io::MeshReadError& e) {
    cfg.fail(ConfigErrorKind::Unreadable, "mesh.file", e.what());
  }
}

// mesh.box.bump = { height, from, to }: the channel stays open (height below the box's height)
// and the bump has a length.
void applyBump(Config& cfg, unstructured::MeshDescription& description, double lower,
               double upper) {
  unstructured::Bump bump;
  bump.height = cfg.getDouble("mesh.box.bump.height", std::nullopt,
                              io::Range{0.0, upper - lower, false, true});
  bump.from = cfg.getDouble("mesh.box.bump.from", std::nullopt);
  bump.to = cfg.getDouble("mesh.box.bump.to", std::nullopt);
  if (!(bump.to > bump.from))
    cfg.fail(ConfigErrorKind::Inconsistent, "mesh.box.bump.to", "must exceed mesh.box.bump.from");
  unstructured::applyBump(description, bump, lower, upper);
}

unstructured::MeshDescription readBox(Config& cfg) {
  const std::vector<double> lower =
      cfg.getDoubles("mesh.box.lower", std::vector<double>(3, 0.0), 3);
  const std::vector<double> upper =
      cfg.getDoubles("mesh.box.upper", std::vector<double>(3, 1.0), 3);
  const std::vector<int> cells =
      cfg.getInts("mesh.box.cells", std::nullopt, 3, io::Range::closed(1, 1 << 20));
  const std::string shape = cfg.getChoice(
      "mesh.box.shape", "hexahedra", {"tetrahedra", "prisms", "hexahedra", "mixed", "pyramids"});
  unstructured::BoxMeshSpec spec;
  for (std::size_t a = 0; a < 3; ++a) {
    if (!(upper[a] > lower[a]))
      cfg.fail(ConfigErrorKind::Inconsistent, "mesh.box.upper",
               "must exceed mesh.box.lower on every axis");
    spec.lo[a] = lower[a];
    spec.hi[a] = upper[a];
  }
  // Six tetrahedra per cube at most, and cell indices are ints.
  if (6.0 * double(cells[0]) * double(cells[1]) * double(cells[2]) > 2e9)
    cfg.fail(ConfigErrorKind::OutOfRange, "mesh.box.cells", "more cells than an int can count");
  spec.nx = cells[0];
  spec.ny = cells[1];
  spec.nz = cells[2];
  spec.jitter = cfg.getDouble("mesh.box.jitter", 0.0, io::Range::closed(0.0, 0.15));
  spec.seed = 1;
  spec.cells = shape == "tetrahedra" ? unstructured::BoxCells::Tetrahedra
               : shape == "prisms"   ? unstructured::BoxCells::Prisms
               : shape == "mixed"    ? unstructured::BoxCells::Mixed
               : shape == "pyramids" ? unstructured::BoxCells::Pyramids
                                     : unstructured::BoxCells::Hexahedra;
  if (spec.cells == unstructured::BoxCells::Mixed && spec.nz < 4)
    cfg.fail(ConfigErrorKind::Inconsistent, "mesh.box.cells",
             "a \"mixed\" box has four layers of shapes along z: it needs at least 4 cells there");
  unstructured::MeshDescription description = unstructured::boxMesh(spec);
  if (cfg.has("mesh.box.bump"))
    applyBump(cfg, description, lower[1], upper[1]);
  return description;
}

} // namespace

CaseMesh readUnstructuredMesh(Config& cfg, const fs::path& caseFile) {
  const bool hasFile = cfg.has("mesh.file"), hasBox = cfg.has("mesh.box");
  if (hasFile && hasBox)
    cfg.fail(ConfigErrorKind::Inconsistent, "mesh.box", "give mesh.file or mesh.box, not both");
  if (!hasFile && !hasBox)
    throw ConfigError(ConfigErrorKind::MissingKey,
                      joined({cfg.sourceName(), ": an unstructured mesh needs mesh.file (a Gmsh "
                                                ".msh or SU2 .su2 file) or mesh.box"}));
  const unstructured::MeshDescription description =
      hasFile ? readMeshFile(cfg, caseFile) : readBox(cfg);
  const std::string renumber = cfg.getChoice("mesh.renumber", "rcm", {"rcm", "none"});
  try {
    CaseMesh built{unstructured::buildMesh(description), {}};
    built.fileCell.resize(std::size_t(built.mesh.numCells()));
    std::iota(built.fileCell.begin(), built.fileCell.end(), 0); // buildMesh keeps the cell order
    if (renumber == "rcm") {
      built.fileCell = unstructured::reverseCuthillMcKee(built.mesh); // new cell n: old cell
      built.mesh = unstructured::renumbered(built.mesh, built.fileCell);
    }
    return built;
  } catch (const std::invalid_argument& e) {
    cfg.fail(ConfigErrorKind::Unreadable, meshKey(cfg), joined({"not a valid mesh: ", e.what()}));
  }
}

UnstructuredBoundary readUnstructuredBoundary(Config& cfg, const unstructured::Mesh& mesh,
                                              const Euler<3>& pde) {
  std::set<int> tags;
  long long untagged = 0;
  for (int f = 0; f < mesh.numFaces(); ++f)
    if (mesh.neighbour[std::size_t(f)] < 0) {
      const int tag = mesh.faceTag[std::size_t(f)];
      if (tag < 0)
        ++untagged;
      else
        tags.insert(tag);
    }
  if (untagged > 0)
    cfg.fail(ConfigErrorKind::Inconsistent, meshKey(cfg),
             joined({std::to_string(untagged),
                     " boundary faces have no tag: every boundary face needs one (Gmsh physical "
                     "surfaces, SU2 markers) to take a boundary condition"}));

  std::vector<std::string> kinds;
  std::string kindList;
  for (FaceKind k : kBoundaryFaceKinds) {
    kinds.emplace_back(faceKindName(k));
    kindList += joined({kindList.empty() ? "\"" : ", \"", faceKindName(k), "\""});
  }
  UnstructuredBoundary boundary;
  bool anyFarfield = false;
  for (int tag : tags) {
    const std::string numberKey = joined({"boundary.", std::to_string(tag)});
    const auto name = mesh.tagNames.find(tag);
    const std::string nameKey =
        name == mesh.tagNames.end() ? std::string() : joined({"boundary.", name->second});
    const bool byName = !nameKey.empty() && cfg.has(nameKey), byNumber = cfg.has(numberKey);
    if (byName && byNumber)
      cfg.fail(ConfigErrorKind::Inconsistent, numberKey,
               joined({"the same tag is set as ", nameKey, ": keep one of them"}));
    // The two planes of a 2D mesh's layer are symmetry planes unless the case says otherwise.
    const bool layerPlanes =
        name != mesh.tagNames.end() && name->second == unstructured::kLayerPlanesName && !byNumber;
    if (!byName && !byNumber && !layerPlanes)
      throw ConfigError(
          ConfigErrorKind::MissingKey,
          joined({cfg.sourceName(), ": the mesh's boundary faces of ", describeTag(mesh, tag),
                  " have no condition: set ", nameKey.empty() ? numberKey : nameKey,
                  nameKey.empty() ? "" : joined({" (or ", numberKey, ")"}), " to one of ",
                  kindList}));
    const FaceKind kind = *parseBoundaryFaceKind(
        cfg.getChoice(byName || layerPlanes ? nameKey : numberKey,
                      layerPlanes ? std::optional<std::string>("symmetry") : std::nullopt, kinds));
    boundary.kindOfTag[tag] = kind;
    anyFarfield = anyFarfield || kind == FaceKind::Farfield;
  }
  if (anyFarfield)
    boundary.farfield = pde.toConserved(readEulerPrimitive<3>(cfg, "farfield"));
  return boundary;
}

ConservedAt readUnstructuredInitial(Config& cfg, const unstructured::Mesh& mesh,
                                    const Euler<3>& pde) {
  const std::string type = cfg.getChoice("initial.type", std::nullopt, {"riemann", "uniform"});
  if (type == "uniform") {
    const Euler<3>::State q = pde.toConserved(readEulerPrimitive<3>(cfg, "initial"));
    return [q](const Vec<double, 3>&) { return q; };
  }
  Vec<double, 3> lower = Vec<double, 3>::filled(INFINITY),
                 upper = Vec<double, 3>::filled(-INFINITY);
  for (const auto& node : mesh.nodes)
    for (int a = 0; a < 3; ++a) {
      lower[a] = std::min(lower[a], node[std::size_t(a)]);
      upper[a] = std::max(upper[a], node[std::size_t(a)]);
    }
  return readRiemann<3>(cfg, pde, lower, upper);
}

std::optional<atomics::Strategy> readAtomicStrategy(Config& cfg, EulerScatter scatter) {
  std::vector<std::string> names{"auto"};
  for (atomics::Strategy s : atomics::kAllStrategies)
    names.emplace_back(atomics::strategyName(s));
  std::string key = "unstructured.";
  key.append(eulerScatterName(scatter)).append("_strategy");
  const std::string name = cfg.getChoice(key, "auto", names);
  if (name == "auto")
    return std::nullopt;
  return atomics::parseStrategy(name);
}

namespace {

// The enum value of the name cfg gives for key (one of names, in enum order; fallback if unset).
template <class Enum, std::size_t N>
Enum readNamed(Config& cfg, const std::string& key, const std::string_view (&names)[N],
               std::string_view fallback) {
  const std::vector<std::string> choices(std::begin(names), std::end(names));
  const std::string name = cfg.getChoice(key, std::string(fallback), choices);
  return Enum(std::find(std::begin(names), std::end(names), name) - std::begin(names));
}

} // namespace

UnstructuredScheme readUnstructuredScheme(Config& cfg) {
  UnstructuredScheme s;
  s.reconstruction = readNamed<UnstructuredReconstruction>(
      cfg, "unstructured.reconstruction", kUnstructuredReconstructionNames,
      kUnstructuredReconstructionNames[int(s.reconstruction)]);
  if (s.secondOrder()) {
    s.gradient =
        readNamed<UnstructuredGradient>(cfg, "unstructured.gradient", kUnstructuredGradientNames,
                                        kUnstructuredGradientNames[int(s.gradient)]);
    s.limiter =
        readNamed<UnstructuredLimiter>(cfg, "unstructured.limiter", kUnstructuredLimiterNames,
                                       kUnstructuredLimiterNames[int(s.limiter)]);
    if (s.limiter == UnstructuredLimiter::Venkatakrishnan) {
      s.venkatakrishnanK = cfg.getDouble("unstructured.venkatakrishnan_k", s.venkatakrishnanK,
                                         io::Range::positive());
      // The forces' reference length unless said otherwise: the chord a wing's case gives once.
      const double forceLength =
          cfg.getDouble("forces.reference_length", s.referenceLength, io::Range::positive());
      s.referenceLength =
          cfg.getDouble("unstructured.reference_length", forceLength, io::Range::positive());
    }
  }
  s.flux = readNamed<UnstructuredFlux>(cfg, "unstructured.riemann_solver", kUnstructuredFluxNames,
                                       kUnstructuredFluxNames[int(s.flux)]);
  return s;
}

RungeKutta readUnstructuredIntegrator(Config& cfg, const UnstructuredScheme& scheme) {
  std::vector<std::string> names;
  for (const RungeKutta& rk : kRungeKuttaMethods)
    names.emplace_back(rk.name);
  const std::string name =
      cfg.getChoice("time.integrator", scheme.secondOrder() ? "ssp_rk2" : "euler", names);
  return kRungeKuttaMethods[std::find(names.begin(), names.end(), name) - names.begin()];
}

ForceSettings readForceSettings(Config& cfg, const UnstructuredBoundary& boundary,
                                const Euler<3>& pde) {
  const auto vector = [&](const std::string& key, std::optional<std::vector<double>> fallback) {
    const std::vector<double> v = cfg.getDoubles(key, std::move(fallback), 3);
    return Vector3{v[0], v[1], v[2]};
  };
  ForceSettings settings;
  const std::vector<double> origin(3, 0.0);
  settings.momentCentre = vector("forces.moment_center", origin);
  ForceReference ref;
  ref.momentCentre = settings.momentCentre;
  ref.area = cfg.getDouble("forces.reference_area", 1.0, io::Range::positive());
  ref.length = cfg.getDouble("forces.reference_length", 1.0, io::Range::positive());
  const bool anyFarfield =
      std::any_of(boundary.kindOfTag.begin(), boundary.kindOfTag.end(),
                  [](const auto& tagKind) { return tagKind.second == FaceKind::Farfield; });
  const Euler<3>::State w = pde.toPrimitive(boundary.farfield);
  const Vector3 velocity{w[1], w[2], w[3]};
  const double speed = std::sqrt(dot(velocity, velocity));
  if (!anyFarfield || !(speed > 0.0)) {
    if (cfg.has("forces.lift_direction"))
      cfg.fail(ConfigErrorKind::Inconsistent, "forces.lift_direction",
               "needs a farfield boundary with a velocity, whose direction is the drag's");
    return settings;
  }
  ref.drag = {velocity[0] / speed, velocity[1] / speed, velocity[2] / speed};
  const Vector3 up =
      std::fabs(ref.drag[1]) > 0.99 ? Vector3{0.0, 0.0, 1.0} : Vector3{0.0, 1.0, 0.0};
  const Vector3 lift = vector("forces.lift_direction", std::vector<double>(up.begin(), up.end()));
  if (!(std::sqrt(dot(lift, lift) - dot(lift, ref.drag) * dot(lift, ref.drag)) >
        1e-6 * std::sqrt(dot(lift, lift))))
    cfg.fail(ConfigErrorKind::Inconsistent, "forces.lift_direction",
             "runs along the freestream velocity: it must have a part across it");
  ref.lift = across(lift, ref.drag);
  ref.dynamicPressure = 0.5 * w[0] * speed * speed;
  settings.reference = ref;
  return settings;
}

std::optional<ImplicitCase> readImplicit(Config& cfg, const UnstructuredScheme& scheme) {
  if (!cfg.getBool("implicit.enabled", false))
    return std::nullopt;
  ImplicitCase c;
  ImplicitSettings& s = c.settings;
  s.cfl = cfg.getDouble("implicit.cfl", s.cfl, io::Range::positive());
  // Roe's Jacobian where the residual resolves waves as Roe's flux does, Rusanov's beside the
  // diffusive fluxes it linearises best.
  const bool roeLike =
      scheme.flux == UnstructuredFlux::Roe || scheme.flux == UnstructuredFlux::Hllc;
  s.jacobian =
      cfg.getChoice("implicit.jacobian", roeLike ? "roe" : "rusanov", {"roe", "rusanov"}) == "roe"
          ? JacobianFlux::Roe
          : JacobianFlux::Rusanov;
  s.linearSolver = cfg.getChoice("implicit.linear_solver", "sweeps", {"sweeps", "gmres"}) == "gmres"
                       ? LinearSolver::Gmres
                       : LinearSolver::Sweeps;
  if (s.linearSolver == LinearSolver::Gmres) {
    s.krylovVectors =
        cfg.getInt("implicit.krylov_vectors", s.krylovVectors, io::Range::closed(1, 200));
    s.krylovTolerance = cfg.getDouble("implicit.krylov_tolerance", s.krylovTolerance,
                                      io::Range{0.0, 1.0, true, true});
  }
  // The first-order Jacobian of a second-order residual (defect correction) is a good model of it
  // only for moderate steps: beyond a CFL number of about 100 (Rusanov's) or 150 (Roe's) the
  // iteration stalls. Newton-Krylov's steps use the residual's own Jacobian: the first-order
  // ceiling.
  const double secondOrderCflMax = s.linearSolver == LinearSolver::Gmres ? s.cflMax
                                   : s.jacobian == JacobianFlux::Roe     ? kSecondOrderRoeCflMax
                                                                         : kSecondOrderCflMax;
  s.cflMax = cfg.getDouble("implicit.cfl_max", scheme.secondOrder() ? secondOrderCflMax : s.cflMax,
                           io::Range::positive());
  if (s.cflMax < s.cfl)
    cfg.fail(ConfigErrorKind::Inconsistent, "implicit.cfl_max", "must be at least implicit.cfl");
  s.sweeps = cfg.getInt("implicit.sweeps", s.sweeps, io::Range::closed(1, 1000));
  c.mixedPrecision = cfg.getChoice("implicit.precision", "mixed", {"mixed", "fp64"}) == "mixed";
  s.residualDrop =
      cfg.getDouble("implicit.residual_drop", s.residualDrop, io::Range{0.0, 1.0, true, true});
  s.maxIterations =
      cfg.getInt("implicit.max_iterations", s.maxIterations, io::Range::closed(1, 1e9));
  if (scheme.secondOrder()) {
    // Newton-Krylov starts at first order unless the case says how to start: its preconditioner
    // is the first-order matrix, so those steps reach long CFL numbers through the shocks'
    // forming, which the second-order steps take at 10-300 with relaxed updates.
    const bool startSet =
        cfg.has("implicit.first_order_iterations") || cfg.has("implicit.first_order_drop");
    if (s.linearSolver == LinearSolver::Gmres && !startSet)
      s.firstOrderDrop = kNewtonKrylovFirstOrderDrop;
    s.firstOrderIterations = cfg.getInt("implicit.first_order_iterations", s.firstOrderIterations,
                                        io::Range::closed(0, 1e9));
    s.firstOrderDrop =
        cfg.getDouble("implicit.first_order_drop", s.firstOrderDrop, io::Range::closed(0.0, 1.0));
    if (scheme.limiter != UnstructuredLimiter::None) {
      s.freezeLimiterBelow =
          cfg.getDouble("implicit.freeze_limiter_below", 0.0, io::Range{0.0, 1.0, false, false});
      s.stallIterations =
          cfg.getInt("implicit.stall_iterations", s.stallIterations, io::Range::closed(0, 1e9));
    }
  }
  return c;
}

} // namespace tessera::cli
