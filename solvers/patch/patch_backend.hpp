#pragma once
// Where a PatchSolver computes: the host (host_patch_backend.hpp) or the device
// (device_patch_backend.hpp), chosen once when the solver is built. The solver keeps the state,
// the time stepping, the ghost exchanges and the refluxing's order; a back end runs its kernels
// on the patches it was last given.
#include <functional>
#include <span>
#include <vector>

#include "patches/adapt_flag.hpp"
#include "patches/flux_register.hpp"
#include "patches/halo_plan.hpp"
#include "patches/indicator_criterion.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/remap_plan.hpp"
#include "physics/conservation_law.hpp"
#include "solvers/patch/refinement_flags.hpp"
#include "solvers/patch/stage_weights.hpp"

namespace tessera {

// The halo plan's parts: operations whose patches read no ghost patch (inner), the rest (outer),
// and, where the kernels read same-level faces from the neighbours (PatchBackend::
// readsFaceLinks), the operations whose cells they do not read from the halo (unread: those
// faces, edges, corners), which only other readers need.
enum class HaloPart { Inner, Outer, Unread };
// Which owned patches an update takes: all, or those of one halo part.
enum class PatchGroup { All, Inner, Outer };
// Which kernels read what a halo fill writes: any of them (the criteria, prolongation, output),
// which read the patches' halos, or the fused update alone, which may read some cells from a
// buffer of the back end's instead (on the device, the first-order step's x faces between
// levels: patches/x_face_buffer.hpp).
enum class HaloReader { AnyKernel, Update };

// What the kernels need to know of the current patches; the spans stay valid until the next
// PatchBackend::setPatches.
template <int Dim>
struct PatchSet {
  std::span<const PatchGeometry<Dim>> geometry; // the owned patches
  const HaloPlan<Dim>* innerOps = nullptr;
  const HaloPlan<Dim>* outerOps = nullptr;
  // The unread operations (empty unless the back end reads face links), built when first called.
  std::function<const HaloPlan<Dim>&()> unreadOps;
  std::span<const int> faceLinks;    // FaceLinks::neighbour of the owned patches, or none
  std::span<const int> inner, outer; // the owned patches of each part
  std::span<const RefluxOp<Dim>> reflux;
  std::span<const int> refluxed; // coarse patches the reflux plan corrects
  bool distributed = false;      // several ranks: updates go part by part
  int numPatches() const { return int(geometry.size()); }
};

template <ConservationLaw PDE>
class PatchBackend {
public:
  static constexpr int kDim = PDE::kDim;
  virtual ~PatchBackend() = default;

  // Whether update(), refinementFlags() and remap() read the halo cells of same-level faces from
  // the neighbours' interiors (patches/face_links.hpp): the solver then takes those faces, and the
  // edges and corners none of them reads, out of their fills.
  virtual bool readsFaceLinks() const = 0;
  virtual void setPatches(const PatchSet<kDim>& patches) = 0;
  virtual void fillHalos(HaloPart part, double* data, HaloReader reader) = 0;
  // One fused stage of a group of patches: in -> out, each patch's eigenvalue, the boundary
  // fluxes where a register is given, and the patches' flags of a criterion on `in` where one is
  // given (UpdateCriterion; its flags where the state lives). `filledFor` is the reader the last
  // fill of in's halos was for.
  virtual void update(const double* in, double* out, const StageWeights& stage, PatchGroup group,
                      double* fluxRegister, double* patchLambda, const UpdateCriterion* criterion,
                      HaloReader filledFor) = 0;
  // Corrects the coarse cells next to finer patches by dt/dx (F_coarse - mean F_fine) and
  // recomputes those patches' eigenvalues.
  virtual void reflux(const double* fluxRegister, double dt, double* out, double* patchLambda) = 0;
  // out += weight (S(in, x, time) - residual) on the owned patches' interiors
  // (source_terms.hpp), residual null for none: a stage's source terms and a well-balanced run's
  // equilibrium residual, weight the stage's advance dt.
  virtual void addSource(const double* in, double* out, double weight, double time,
                         const double* residual) = 0;
  // residual = (stepped - equilibrium) / dt + S(equilibrium, x, time) on the same interiors.
  virtual void equilibriumResidual(const double* equilibrium, const double* stepped, double dt,
                                   double time, double* residual) = 0;
  // The per-patch largest eigenvalue of `data`. Where keptFrom is given (host memory, an entry
  // per patch: a remesh), a patch p with keptFrom[p] >= 0 holds the state old patch keptFrom[p]
  // had and takes its eigenvalue from keptLambda (the old patches', where the state lives).
  virtual void eigenvalues(const double* data, double* patchLambda, std::span<const int> keptFrom,
                           const double* keptLambda) = 0;
  // CFL times the smallest dx / eigenvalue over the patches (throws UnphysicalStateError). Runs
  // `beside` (launches that need no dt) before it waits for dt: the device takes them while dt
  // crosses to the host.
  virtual double timeStep(double cfl, const double* patchLambda,
                          const std::function<void()>& beside) = 0;
  virtual std::vector<amr::AdaptFlag> refinementFlags(const amr::IndicatorCriterion& criterion,
                                                      const double* data) = 0;
  virtual void remap(const std::vector<RemapOp<kDim>>& ops, const double* from, double* to) = 0;
  // data[items[i]] = values[i].
  virtual void scatter(std::span<const double> values, std::span<const int> items,
                       double* data) = 0;
  // Waits for the work in flight (the device's launches return at once; the phase timers wait).
  virtual void wait() = 0;
  // Cells (once per axis and stage) whose reconstruction fell back to first order.
  virtual long long firstOrderFallbacks() const = 0;
};

} // namespace tessera
