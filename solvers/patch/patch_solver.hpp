#pragma once
// PatchSolver<PDE>: time stepping of a PDE on a set of patches (a uniform grid, or the leaves of
// a forest) by a spatial scheme (reconstruction and Riemann solver) and a Runge-Kutta method
// (PatchScheme), on the host back end or resident on the device. Holds the state two or three
// times (current, next, and a third stage for three-stage methods), the halo and reflux plans and
// the per-patch eigenvalues. Each stage of advance() is halo fill, fused update and refluxing
// with the stage's weight; the last leaves the eigenvalues for the next dt.
//
// Stages write Q^(s+1) = keep Q^n + advance (Q^(s) + dt L(Q^(s))) (numerics/time/runge_kutta.hpp):
// a one-stage step writes next and swaps; a two-stage one goes current -> next -> current, a
// three-stage one current -> next -> third -> current, the last stage over Q^n in place. Every
// stage refluxes its own fluxes with advance dt, so each stage, and so the step, conserves across
// levels.
//
// Where it computes is chosen once, when it is built: a back end (patch_backend.hpp) runs every
// kernel, the host's twins or the device's. On the device every step stays there: the plans are
// uploaded once per mesh, and only dt (and, at a regrid, one flag per patch) comes back. The
// device kernels are compiled for the PDEs Tessera ships (physics/shipped_systems.hpp); another
// PDE instantiates them in its own .cu file (solvers/patch/patch_kernels.hpp).
//
// On several MPI ranks each rank steps its own patches and stores after them the ghost patches
// its halos read (patches/ghost_patches.hpp): numPatches() counts the owned patches only. A step
// then brings the ghosts' interiors over before the halo fill and, where refluxing needs them,
// their boundary fluxes before the correction; dt is the minimum over the ranks. The ghost
// messages travel while the inner patches, whose halos read no ghost, are filled and updated;
// the outer patches follow once the ghosts have arrived. The halo fill's time then counts in the
// update's (StepTimes).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <mpi.h>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "engine/mpi/first_message.hpp"
#include "engine/mpi/halo_exchange.hpp"
#include "engine/mpi/rank_count.hpp"
#include "engine/parallel_for.hpp"
#include "engine/phase_clock.hpp"
#include "engine/require_device.hpp"
#include "engine/timer.hpp"
#include "numerics/spatial_scheme.hpp"
#include "numerics/time/runge_kutta.hpp"
#include "patches/boundary.hpp"
#include "patches/face_links.hpp"
#include "patches/flux_register.hpp"
#include "patches/ghost_patches.hpp"
#include "patches/halo_plan.hpp"
#include "patches/halo_planner.hpp"
#include "patches/indicator_criterion.hpp"
#include "patches/patch_store.hpp"
#include "patches/remap_plan.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "physics/conservation_law.hpp"
#include "physics/optional_members.hpp"
#include "physics/shipped_systems.hpp"
#include "physics/state_check.hpp"
#include "solvers/patch/boundary_hook.hpp"
#include "solvers/patch/host_patch_backend.hpp"
#include "solvers/patch/patch_backend.hpp"
#include "solvers/patch/stage_weights.hpp"
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
#include "solvers/patch/device_patch_backend.hpp"
#endif

namespace tessera {

// Seconds spent in each phase of the steps. With ghost patches the halo fill overlaps the ghost
// messages and the update, and counts in `update`; `exchange` is the time the step waited for the
// messages beyond that: the exposed part of the exchanges (of the state, and of the fluxes for
// refluxing), 0 on one rank.
struct StepTimes {
  double halo = 0.0;
  double update = 0.0;
  double reflux = 0.0;
  double exchange = 0.0;
};

// Which halo cells a fill writes: those the solver's own kernels (the fused update, the built-in
// refinement criteria, prolongation) read from the halo, or all of them (a user's criterion,
// output). On the device the kernels read same-level faces from the neighbours
// (patches/face_links.hpp) and no kernel reads edges or corners; on the host the two are the same.
enum class HaloCells { ReadByKernels, All };

// The numerics of a patch run: first-order Rusanov with forward Euler unless asked otherwise.
struct PatchScheme {
  SpatialScheme spatial;
  RungeKutta integrator = kForwardEuler;
};

// The PDE's reflection signs in the layout the halo plans read (ReflectionParity).
template <ConservationLaw PDE>
ReflectionParity reflectionParityOf() {
  ReflectionParity parity(PDE::kDim * PDE::kNumVars);
  for (int a = 0; a < PDE::kDim; ++a)
    for (int v = 0; v < PDE::kNumVars; ++v)
      parity[a * PDE::kNumVars + v] = PDE::reflectionParity(v, a);
  return parity;
}

template <ConservationLaw PDE>
class PatchSolver {
  static_assert(declaredOptionalMembersProvided<PDE>(),
                "the system lists in kOptionalMembers a member it does not provide with the "
                "signature physics/optional_members.hpp looks for (misspelled, or another "
                "signature): without the check its fallback would run silently");

public:
  static constexpr int kDim = PDE::kDim;
  using State = typename PDE::State;

  // Patches of one layout with their geometry, the plan that fills their halos and, where
  // patches of different levels meet, the plan that corrects coarse cells by the fine fluxes.
  // `space` says where the state lives and the steps run (Device: see requireDevice()).
  // geometry holds the owned patches; the plans number the ghost patches after them. Without
  // ghost patches the halo plan may come as its planner, which then builds only what the back end
  // reads (the unlinked faces on a device) and the rest when a fill of every halo cell asks.
  // The layout's halo must be at least the scheme's (scheme.spatial.halo()).
  PatchSolver(PDE pde, PatchLayout<kDim> layout, std::vector<PatchGeometry<kDim>> geometry,
              HaloPlanSource<kDim> plan, double cfl, std::vector<RefluxOp<kDim>> refluxPlan = {},
              MemorySpace space = MemorySpace::Host, GhostPatches ghosts = {},
              PatchScheme scheme = {})
      : pde_(pde), layout_(layout), parity_(reflectionParityOf<PDE>()), cfl_(cfl), space_(space),
        scheme_(scheme) {
    checkScheme();
    backend_ = makeBackend();
    const int owned = int(geometry.size());
    std::unique_ptr<HaloParts> halo = planHalos(std::move(plan), owned, ghosts.count);
    setPatches(std::move(geometry), std::move(halo), std::move(refluxPlan), std::move(ghosts));
    current_ = PatchStore<kDim>(layout_, storedPatches(), space_);
  }

  PatchSolver(PDE pde, const UniformPatchGrid<kDim>& grid, const DomainBoundary<kDim>& boundary,
              double cfl, MemorySpace space = MemorySpace::Host, PatchScheme scheme = {})
      : PatchSolver(pde, grid.layout(), grid.geometries(), buildUniformHaloPlan(grid, boundary),
                    cfl, {}, space, {}, scheme) {}

  // Sets every interior cell to conserved(centre of the cell) and computes the first eigenvalues.
  template <class ConservedAt>
  void initialise(ConservedAt&& conservedAt) {
    current_ = atCellCentres(conservedAt);
    forgetHalos();
    computeEigenvalues();
  }

  // Makes the run well balanced about an equilibrium: conserved(x) at the cell centres is kept
  // exactly (to round-off) by subtracting the scheme's residual on it in every stage
  // (source_terms.hpp), computed before the next step and again for every new mesh.
  void setEquilibrium(std::function<State(const Vec<double, kDim>&)> conserved) {
    equilibrium_ = std::move(conserved);
    equilibriumResidualStale_ = bool(equilibrium_);
  }

  // The state of the patches after an adapt, moved from the current one by the remap plan (one
  // new patch per operation; the current halos must be filled), where the state lives. The
  // stages' stores are given up first: the new state takes their memory from the pool (the next
  // step makes them again).
  PatchStore<kDim> remapped(const std::vector<RemapOp<kDim>>& remap) {
    releaseStageStores();
    PatchStore<kDim> fresh(layout_, int(remap.size()), space_);
    backend_->remap(remap, current_.data(), fresh.data());
    return fresh;
  }

  // The owned patches by what their halos read: the inner ones only owned patches, the outer ones
  // ghost patches too; and the halo plan's operations split alike. Without ghosts every patch is
  // inner and the inner operations are the whole plan. Where the back end reads face links, the
  // linked faces' operations leave both parts for `links`, and what a patch reads is what its
  // kernels read: its unlinked faces and its links (the rest is filled after every exchange).
  struct HaloParts {
    std::vector<int> inner, outer;
    HaloPlan<kDim> innerOps, outerOps;
    FaceLinks<kDim> links;
    // The planner, where it has not yet built links.unreadOps.
    std::shared_ptr<const HaloPlanner<kDim>> unreadPlanner;

    const HaloPlan<kDim>& unreadOps() {
      if (unreadPlanner) {
        links.unreadOps = unreadPlanner->unread();
        unreadPlanner.reset();
      }
      return links.unreadOps;
    }
  };

  // The halo plans of `owned` patches and `ghostCount` ghost patches as this solver's back end
  // reads them, built from `plan`: host work, which a regrid does while the device steps; remesh()
  // takes them.
  std::unique_ptr<HaloParts> planHalos(HaloPlanSource<kDim> plan, int owned, int ghostCount) const {
    const auto* planner = std::get_if<std::shared_ptr<const HaloPlanner<kDim>>>(&plan);
    if (planner && backend_->readsFaceLinks()) {
      // Only the faces the kernels read from the halo are planned now; the rest when asked for.
      // A patch is outer where those faces, or its links, read a ghost.
      FaceLinks<kDim> links;
      HaloPlan<kDim> faces = (*planner)->unlinkedFaces(links.neighbour);
      auto parts = std::make_unique<HaloParts>(splitByGhostReads(
          std::move(faces), owned, ghostCount > 0 ? links.neighbour.data() : nullptr));
      parts->links = std::move(links);
      parts->unreadPlanner = *planner;
      return parts;
    }
    auto parts = std::make_unique<HaloParts>(splitByGhostReads(
        planner ? (*planner)->whole() : std::get<HaloPlan<kDim>>(std::move(plan)), owned));
    if (backend_->readsFaceLinks()) {
      parts->links = unlinkedFaces<kDim>(owned);
      linkSameLevelFaces(parts->innerOps, layout_, parts->links);
      linkSameLevelFaces(parts->outerOps, layout_, parts->links);
    }
    return parts;
  }

  // Replaces the patches (after an adapt or a partition): new geometry, halo plans (planHalos)
  // and ghosts, and the owned patches' state (one patch per geometry entry, in any memory space).
  // Time, step count and timers carry on. A state where the steps run, with room for the ghost
  // patches after the owned ones (none on one rank), becomes the current state as it is: no copy.
  // Where `state` is remapped(remap) of the current state, the patches `remap` copies keep their
  // eigenvalues and only the others' are computed.
  void remesh(std::vector<PatchGeometry<kDim>> geometry, std::unique_ptr<HaloParts> halo,
              std::vector<RefluxOp<kDim>> refluxPlan, GhostPatches ghosts, PatchStore<kDim> state,
              std::span<const RemapOp<kDim>> remap = {}) {
    const int owned = int(geometry.size());
    if (state.numPatches() != owned && state.numPatches() != owned + ghosts.count)
      throw std::invalid_argument("PatchSolver::remesh: " + std::to_string(state.numPatches()) +
                                  " patches of state for " + std::to_string(owned) +
                                  " patches and " + std::to_string(ghosts.count) + " ghosts");
    if (!halo || halo->inner.size() + halo->outer.size() != geometry.size())
      throw std::invalid_argument("PatchSolver::remesh: halo plans of other patches than the " +
                                  std::to_string(geometry.size()) + " given");
    if (!remap.empty() && remap.size() != geometry.size())
      throw std::invalid_argument("PatchSolver::remesh: a remap of " +
                                  std::to_string(remap.size()) + " patches for " +
                                  std::to_string(geometry.size()) + " patches");
    const std::vector<int> keptFrom = eigenvaluesKeptBy(remap);
    const DeviceArray<double> before = std::move(patchLambda_);
    setPatches(std::move(geometry), std::move(halo), std::move(refluxPlan), std::move(ghosts));
    if (state.space() == space_ && state.numPatches() == storedPatches()) {
      current_ = std::move(state);
    } else {
      current_ = PatchStore<kDim>(layout_, storedPatches(), space_);
      current_.copyPatchesFrom(state, numPatches());
    }
    forgetHalos();
    computeEigenvalues(keptFrom, before.data());
  }

  // Continues a run where a checkpoint left it: the owned patches' state (in any memory space),
  // the time and the step count. The eigenvalues are recomputed from the state, as the last step
  // left them, so the next dt is the one the uninterrupted run takes.
  void restore(const PatchStore<kDim>& state, double time, long long step) {
    if (state.numPatches() != numPatches())
      throw std::invalid_argument("PatchSolver::restore: " + std::to_string(state.numPatches()) +
                                  " patches of state for " + std::to_string(numPatches()));
    current_.copyPatchesFrom(state, numPatches());
    time_ = time;
    step_ = step;
    stepFlagsReady_ = false;
    forgetHalos();
    computeEigenvalues();
  }

  // The largest stable step for the current state (of every rank's patches). Collective: an
  // unphysical state on any rank, or nothing moving anywhere, throws UnphysicalStateError on
  // every rank with the same message.
  double stableDt() {
    double dt = INFINITY;
    std::string problem;
    const std::size_t stepped = clock_.mark(); // the phases before dt
    try {
      dt = backend_->timeStep(cfl_, patchLambda_.data(), [this] { fillHalosAhead(); });
    } catch (const UnphysicalStateError& e) {
      problem = unphysicalCell().value_or(e.what());
    }
    clock_.settle(stepped); // the device has passed them to give dt: no wait here
    if (ranks_ > 1) {
      problem = mpi::firstMessage(ghosts_.comm, problem);
      MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MIN, ghosts_.comm);
    }
    if (!problem.empty())
      throw UnphysicalStateError(problem);
    if (!std::isfinite(dt))
      throw UnphysicalStateError("every eigenvalue is zero: nothing moves, dt is unbounded");
    return dt;
  }

  // One step of the Runge-Kutta method: each stage fills the halos of its input, updates, and
  // refluxes with its weight.
  void advance(double dt) {
    const RungeKutta& rk = scheme_.integrator;
    if (equilibriumResidualStale_)
      computeEquilibriumResidual(dt);
    makeStageStores();
    std::optional<UpdateCriterion> flagging;
    if (nextStepCriterion_)
      flagging = UpdateCriterion{*nextStepCriterion_, stepFlags_.data()};
    for (int s = 0; s < rk.stages; ++s) {
      PatchStore<kDim>& in = s == 0 ? current_ : (s == 1 ? next_ : third_);
      PatchStore<kDim>& out = s + 1 == rk.stages && s > 0 ? current_ : (s == 0 ? next_ : third_);
      const StageWeights weights = StageWeights::of(rk.stage[s], dt, current_.data());
      const double stageTime = time_ + rk.stage[s].time * dt;
      runStage(in, out, weights, stageTime, s == 0 && kernelHalosFilled_,
               s == 0 && flagging ? &*flagging : nullptr);
      if (sourcePass()) {
        auto t = clock_.phase(kUpdatePhase);
        backend_->addSource(in.data(), out.data(), weights.advance * weights.dt, stageTime,
                            equilibrium_ ? equilibriumResidual_.data() : nullptr);
      }
    }
    if (rk.stages == 1)
      std::swap(current_, next_);
    if (sourcePass()) // the update's eigenvalues were the state's before its sources
      backend_->eigenvalues(current_.data(), patchLambda_.data(), {}, nullptr);
    forgetHalos();
    eigenvaluesOfCurrent_ = true; // the last stage's update and refluxing computed them
    time_ += dt;
    ++step_;
    stepFlagsReady_ = nextStepCriterion_.has_value();
    nextStepCriterion_.reset();
  }

  // Asks the next step to evaluate a built-in criterion on the state it starts from, in its first
  // stage's update (after that stage's halo fill, which the criterion's indicators read):
  // takeStepFlags() then gives one flag per owned patch for a regrid after the step, which needs
  // no pass over the state and no halo fill of its own.
  void flagNextStep(const amr::IndicatorCriterion& criterion) {
    nextStepCriterion_ = criterion;
    if (stepFlags_.size() != std::size_t(numPatches()))
      stepFlags_ = DeviceArray<amr::AdaptFlag>(numPatches(), space_);
  }
  // The flags of the last step's criterion (flagNextStep), once; none if that step had none or
  // the patches changed since.
  std::optional<std::vector<amr::AdaptFlag>> takeStepFlags() {
    if (!stepFlagsReady_)
      return std::nullopt;
    std::vector<amr::AdaptFlag> flags(numPatches());
    stepFlags_.copyToHost(flags);
    stepFlagsReady_ = false;
    return flags;
  }

  // Advances to exactly `time` (an output or end time): time_ + (time - time_) may round off it.
  void advanceTo(double time) {
    advance(time - time_);
    time_ = time;
  }

  // Fills the halos of the current state (advance() does this itself; criteria, remapping and
  // output want the halos too): those the solver's kernels read, or all of them. Cells filled
  // since the state last changed are not filled again, and the next step need not fill them (a
  // regrid that keeps the mesh).
  void fillCurrentHalos(HaloCells cells = HaloCells::All) {
    fillKernelHalos(HaloReader::AnyKernel);
    if (cells == HaloCells::All && !allHalosFilled_) {
      backend_->fillHalos(HaloPart::Unread, current_.data(), HaloReader::AnyKernel);
      allHalosFilled_ = true;
    }
  }

  // One flag per patch from a built-in criterion, evaluated where the state lives (the halos its
  // kernels read filled: HaloCells::ReadByKernels).
  std::vector<amr::AdaptFlag> refinementFlags(const amr::IndicatorCriterion& criterion) {
    return backend_->refinementFlags(criterion, current_.data());
  }

  // Sum over interior cells (of every rank's patches) of each conserved variable times the cell
  // volume.
  State conservedTotals() const {
    const PatchStore<kDim>& q = hostState();
    State total = State::filled(0.0);
    for (int p = 0; p < numPatches(); ++p)
      for (int v = 0; v < PDE::kNumVars; ++v) {
        double sum = 0.0;
        for (int n = 0; n < layout_.interiorCells(); ++n)
          sum += q.at(p, v, layout_.interiorCell(n));
        total[v] += sum * geometry_[p].cellVolume();
      }
    if (ranks_ > 1)
      MPI_Allreduce(MPI_IN_PLACE, total.v, PDE::kNumVars, MPI_DOUBLE, MPI_SUM, ghosts_.comm);
    return total;
  }

  const PDE& pde() const { return pde_; }
  const PatchLayout<kDim>& layout() const { return layout_; }
  MemorySpace space() const { return space_; }
  int numPatches() const { return int(geometry_.size()); } // owned by this rank
  // The owned patches and then the ghost patches.
  int storedPatches() const { return numPatches() + ghosts_.count; }
  long long numCells() const { return (long long)numPatches() * layout_.interiorCells(); }
  std::span<const PatchGeometry<kDim>> geometry() const { return geometry_; }
  // The current state where it lives (device memory for a device solver), ghost patches
  // included.
  const PatchStore<kDim>& state() const { return current_; }
  PatchStore<kDim>& state() {
    forgetHalos(); // the caller may change the interior
    eigenvaluesOfCurrent_ = false;
    return current_;
  }
  // The owned patches' current state in host memory, for output, host criteria and
  // diagnostics: a device solver, or one with ghost patches, copies it over on each call. Whole
  // patches are copied: the halo cells hold what the last fill left (fillCurrentHalos first where
  // they are read); on the device, those behind linked faces are written by no kernel until then.
  const PatchStore<kDim>& hostState() const {
    if (space_ == MemorySpace::Host && ghosts_.count == 0)
      return current_;
    if (hostMirror_.numPatches() != numPatches())
      hostMirror_ = PatchStore<kDim>(layout_, numPatches(), MemorySpace::Host);
    hostMirror_.copyPatchesFrom(current_, numPatches());
    return hostMirror_;
  }
  // Each owned patch's largest eigenvalue, as the next dt reads them (a copy in host memory).
  std::vector<double> patchEigenvalues() const {
    std::vector<double> lambda(static_cast<std::size_t>(numPatches()));
    patchLambda_.copyToHost(lambda);
    return lambda;
  }
  double time() const { return time_; }
  long long step() const { return step_; }
  const PatchScheme& scheme() const { return scheme_; }

  // On several ranks, whether a stage updates the inner patches while the ghosts' messages travel
  // and the outer ones after them (the default), or waits for the messages and updates every
  // patch in one launch. The results are the same to the bit; the times differ: the split costs a
  // second fill and update launch a stage and their tails, which a transport of device copies
  // (microseconds a step between GPUs of one node) may not win back.
  void setExchangeOverlap(bool overlap) { overlapExchange_ = overlap; }

  // Installs a boundary hook (boundary_hook.hpp): from the next halo fill on, the halo cells
  // across its faces take its states. It lasts across remeshes.
  void setBoundaryHook(BoundaryHook<kDim, PDE::kNumVars> hook) {
    hook_ = std::move(hook);
    findHookedCells();
    forgetHalos();
  }
  // Interior cells (counted once per axis) whose reconstruction fell back to first order for
  // positivity, on this rank, since the start.
  long long firstOrderFallbacks() const { return backend_->firstOrderFallbacks(); }
  // The phases' seconds so far (on a device, once it has passed them: this waits for it).
  StepTimes times() const {
    clock_.settle();
    return {clock_.seconds(kHaloPhase), clock_.seconds(kUpdatePhase), clock_.seconds(kRefluxPhase),
            clock_.seconds(kExchangePhase)};
  }

private:
  // The first owned cell whose own state is unphysical, its position and what fails
  // (physics/state_check.hpp): "patch 3 cell (4, 7) at (0.281, 0.469): pressure -0.02"; none
  // where every cell is physical (an eigenvalue of a halo's boundary state failed).
  std::optional<std::string> unphysicalCell() {
    const PatchStore<kDim>& state = hostState();
    for (int p = 0; p < numPatches(); ++p)
      for (int n = 0; n < layout_.interiorCells(); ++n) {
        const CellIndex<kDim> c = layout_.interiorCell(n);
        State q;
        for (int v = 0; v < PDE::kNumVars; ++v)
          q[v] = state.at(p, v, c);
        const std::string failed = unphysicalQuantity(pde_, q);
        if (failed.empty())
          continue;
        std::string cell = "patch " + std::to_string(p) + " cell (", at = ") at (";
        for (int a = 0; a < kDim; ++a) {
          char x[32];
          std::snprintf(x, sizeof x, "%g", geometry_[std::size_t(p)].cellCenter(a, c[a]));
          cell += (a ? ", " : "") + std::to_string(c[a]);
          at += (a ? ", " : "") + std::string(x);
        }
        return cell + at + "): " + failed;
      }
    return std::nullopt;
  }
  // The back end of this solver's memory space; a device one needs a device build and a visible
  // GPU (requireDevice throws, saying which is missing).
  std::unique_ptr<PatchBackend<PDE>> makeBackend() const {
    if (space_ == MemorySpace::Device) {
      requireDevice();
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
      return std::make_unique<DevicePatchBackend<PDE>>(pde_, layout_, parity_, scheme_.spatial,
                                                       scheme_.spatial.firstOrderRusanov() &&
                                                           scheme_.integrator.stages == 1);
#endif
    }
    return std::make_unique<HostPatchBackend<PDE>>(pde_, layout_, parity_, scheme_.spatial);
  }

  // `links` (FaceLinks::neighbour of the owned patches, or null): the patches whose faces are read
  // in place, a ghost's making a patch outer.
  static HaloParts splitByGhostReads(HaloPlan<kDim> plan, int owned, const int* links = nullptr) {
    HaloParts parts;
    std::vector<char> outer(std::size_t(owned), 0);
    for (const HaloOp<kDim>& op : plan.ops)
      if (op.source != HaloSource::Fixed && op.srcPatch >= owned)
        outer[std::size_t(op.dstPatch)] = 1;
    constexpr int kFaces = FaceLinks<kDim>::kFaces;
    for (int p = 0; links && p < owned; ++p)
      for (int f = 0; f < kFaces; ++f)
        if (links[std::size_t(p) * kFaces + std::size_t(f)] >= owned)
          outer[std::size_t(p)] = 1;
    for (int p = 0; p < owned; ++p)
      (outer[std::size_t(p)] ? parts.outer : parts.inner).push_back(p);
    if (parts.outer.empty()) { // one rank: the whole plan is inner, moved rather than copied
      parts.outerOps.inflowStates = plan.inflowStates;
      parts.innerOps = std::move(plan);
      return parts;
    }
    parts.outerOps.inflowStates = plan.inflowStates;
    parts.innerOps.inflowStates = std::move(plan.inflowStates);
    for (const HaloOp<kDim>& op : plan.ops)
      (outer[std::size_t(op.dstPatch)] ? parts.outerOps : parts.innerOps).ops.push_back(op);
    return parts;
  }

  // The scheme must fit the layout and the PDE.
  void checkScheme() const {
    const SpatialScheme& s = scheme_.spatial;
    if (layout_.halo < s.halo())
      throw std::invalid_argument("PatchSolver: " + describe(s) + " needs a halo of " +
                                  std::to_string(s.halo()) + " cells, the layout has " +
                                  std::to_string(layout_.halo));
    if (!riemannSolverApplies<PDE>(s.riemannSolver))
      throw std::invalid_argument("PatchSolver: the " + describe(s) +
                                  " scheme does not apply to this PDE");
  }

  // One Runge-Kutta stage from `in` to `out` at stageTime: halo fill (unless `in`'s halos are
  // filled), the fused update (flagging `in` where a criterion is given), and refluxing with the
  // stage's weight.
  void runStage(PatchStore<kDim>& in, PatchStore<kDim>& out, const StageWeights& stage,
                double stageTime, bool halosReady, const UpdateCriterion* criterion) {
    const bool refluxing = !refluxPlan_.empty();
    const bool keepsFluxes = refluxing || ghosts_.exchangeFluxes;
    double* const fluxes = keepsFluxes ? fluxRegister_.data() : nullptr;
    if (!halosReady && stateExchange_ && overlapExchange_) {
      // Halo fill and update in one phase, which the ghost messages overlap; the exchange phase
      // is what remains of them when the inner patches are done.
      {
        auto t = clock_.phase(kUpdatePhase);
        stateExchange_->start(in.data());
        backend_->fillHalos(HaloPart::Inner, in.data(), HaloReader::Update);
        applyBoundaryHook(in.data(), stageTime);
        backend_->update(in.data(), out.data(), stage, PatchGroup::Inner, fluxes,
                         patchLambda_.data(), criterion, HaloReader::Update);
      }
      {
        auto t = clock_.phase(kExchangePhase);
        stateExchange_->finish(in.data());
      }
      auto t = clock_.phase(kUpdatePhase);
      backend_->fillHalos(HaloPart::Outer, in.data(), HaloReader::Update);
      // The outer fill rewrote the outer patches' hooked cells.
      applyBoundaryHook(in.data(), stageTime);
      backend_->update(in.data(), out.data(), stage, PatchGroup::Outer, fluxes, patchLambda_.data(),
                       criterion, HaloReader::Update);
    } else {
      // No waits for the device between the phases: the clock times them on its stream. Without
      // the overlap the whole exchange is waited for.
      if (!halosReady) {
        if (stateExchange_) {
          auto t = clock_.phase(kExchangePhase);
          stateExchange_->exchange(in.data());
        }
        auto t = clock_.phase(kHaloPhase);
        backend_->fillHalos(HaloPart::Inner, in.data(), HaloReader::Update);
        backend_->fillHalos(HaloPart::Outer, in.data(), HaloReader::Update);
        applyBoundaryHook(in.data(), stageTime);
      }
      auto t = clock_.phase(kUpdatePhase);
      backend_->update(in.data(), out.data(), stage, PatchGroup::All, fluxes, patchLambda_.data(),
                       criterion, halosReady ? kernelHalosFor_ : HaloReader::Update);
    }
    if (ghosts_.exchangeFluxes) {
      auto t = clock_.phase(kExchangePhase);
      fluxExchange_->exchange(fluxRegister_.data());
    }
    if (refluxing) {
      auto t = clock_.phase(kRefluxPhase);
      backend_->reflux(fluxRegister_.data(), stage.advance * stage.dt, out.data(),
                       patchLambda_.data());
    }
  }

  // The halo cells across the hook's faces of the owned patches that touch them.
  void findHookedCells() {
    hookedCells_.clear();
    if (!hook_.state)
      return;
    const int n = layout_.cellsPerAxis, h = layout_.halo;
    for (int p = 0; p < numPatches(); ++p) {
      const PatchGeometry<kDim>& g = geometry_[p];
      for (int a = 0; a < kDim; ++a)
        for (int side = 0; side < 2; ++side) {
          const double edge = side == 0 ? g.origin[a] : g.origin[a] + n * g.dx[a];
          const double face = side == 0 ? hook_.lower[a] : hook_.upper[a];
          if (!hook_.hooked[a][side] || std::fabs(edge - face) > 0.5 * g.dx[a])
            continue;
          const int cells = layout_.interiorCells() / n * h;
          for (int k = 0; k < cells; ++k) {
            CellIndex<kDim> c{};
            int rest = k;
            for (int b = 0; b < kDim; ++b) {
              const int extent = b == a ? h : n;
              c[b] = rest % extent;
              rest /= extent;
            }
            c[a] = side == 0 ? -1 - c[a] : n + c[a];
            hookedCells_.push_back({p, c, g.cellCenter(c), a, side});
          }
        }
    }
  }

  // The hook's states at time t into the hooked halo cells of `data`, where it gives one.
  void applyBoundaryHook(double* data, double t) {
    if (hookedCells_.empty())
      return;
    std::vector<double> values;
    std::vector<int> items;
    for (const HookedCell& cell : hookedCells_)
      if (const auto state = hook_.state(cell.x, t, cell.axis, cell.side))
        for (int v = 0; v < PDE::kNumVars; ++v) {
          values.push_back((*state)[v]);
          items.push_back(int(layout_.index(cell.patch, v, cell.c)));
        }
    if (!items.empty())
      backend_->scatter(values, items, data);
  }

  // Everything that follows from the patches, except the current state (its caller's).
  void setPatches(std::vector<PatchGeometry<kDim>> geometry, std::unique_ptr<HaloParts> halo,
                  std::vector<RefluxOp<kDim>> refluxPlan, GhostPatches ghosts) {
    geometry_ = std::move(geometry);
    halo_ = std::move(halo);
    refluxPlan_ = std::move(refluxPlan);
    ghosts_ = std::move(ghosts);
    nextStepCriterion_.reset();
    stepFlagsReady_ = false;
    equilibriumResidualStale_ = bool(equilibrium_);
    equilibriumResidual_ = PatchStore<kDim>(layout_, 0, MemorySpace::Host);
    ranks_ = mpi::rankCount(ghosts_.comm);
    releaseStageStores(); // the next step makes them, after the old state is freed
    patchLambda_ = DeviceArray<double>(numPatches(), space_);
    const FluxRegisterLayout<kDim> registers{layout_.cellsPerAxis, PDE::kNumVars};
    const bool keepsFluxes = !refluxPlan_.empty() || ghosts_.exchangeFluxes;
    fluxRegister_ =
        DeviceArray<double>(keepsFluxes ? storedPatches() * registers.patchStride() : 0, space_);
    // The exchanges of earlier patches take the new plans (every rank agrees on which there are):
    // what their transport set up between the ranks stays.
    const auto exchangeOf = [&](std::optional<mpi::HaloExchange>& exchange, bool needed,
                                const mpi::HaloPlan& plan, mpi::ItemLayout items) {
      if (!needed)
        exchange.reset();
      else if (exchange)
        exchange->replan(plan);
      else
        exchange.emplace(ghosts_.comm, plan, items, space_);
    };
    exchangeOf(stateExchange_, ranks_ > 1, ghosts_.state,
               mpi::ItemLayout{layout_.numVars, 1, layout_.varStride()});
    exchangeOf(fluxExchange_, ranks_ > 1 && ghosts_.exchangeFluxes, ghosts_.fluxes,
               mpi::ItemLayout{});
    findHookedCells();
    refluxedPatches_.clear();
    for (const RefluxOp<kDim>& op : refluxPlan_)
      refluxedPatches_.push_back(op.coarsePatch);
    std::sort(refluxedPatches_.begin(), refluxedPatches_.end());
    refluxedPatches_.erase(std::unique(refluxedPatches_.begin(), refluxedPatches_.end()),
                           refluxedPatches_.end());
    PatchSet<kDim> set;
    set.geometry = geometry_;
    set.innerOps = &halo_->innerOps;
    set.outerOps = &halo_->outerOps;
    set.unreadOps = [parts = halo_.get()]() -> const HaloPlan<kDim>& { return parts->unreadOps(); };
    set.faceLinks = halo_->links.neighbour;
    set.inner = halo_->inner;
    set.outer = halo_->outer;
    set.reflux = refluxPlan_;
    set.refluxed = refluxedPatches_;
    set.distributed = ranks_ > 1;
    backend_->setPatches(set);
  }

  // The halos the next step's first stage reads, filled while its dt crosses to the host (they
  // need none): the device goes on from dt's reduction to the fill instead of waiting for the
  // host's next launch. On one rank only: on several the fill waits for the ghosts' messages, and
  // the step overlaps them with the inner patches' update.
  void fillHalosAhead() {
    if (ranks_ > 1 || kernelHalosFilled_)
      return;
    auto t = clock_.phase(kHaloPhase);
    fillKernelHalos(HaloReader::Update);
  }

  // The current state's halos that `reader` reads from the halo (the same-level faces' cells
  // only where the back end does not read them through the face links), unless filled for it
  // since the state changed: a fill for the update alone does not serve the other kernels.
  void fillKernelHalos(HaloReader reader) {
    if (kernelHalosFilled_ &&
        (kernelHalosFor_ == HaloReader::AnyKernel || reader == HaloReader::Update))
      return;
    if (stateExchange_)
      stateExchange_->exchange(current_.data());
    backend_->fillHalos(HaloPart::Inner, current_.data(), reader);
    backend_->fillHalos(HaloPart::Outer, current_.data(), reader);
    applyBoundaryHook(current_.data(), time_);
    kernelHalosFilled_ = true;
    kernelHalosFor_ = reader;
  }

  // The stores the stages write (the state's size), made where a remesh released them.
  void makeStageStores() {
    if (next_.numPatches() != storedPatches())
      next_ = PatchStore<kDim>(layout_, storedPatches(), space_);
    if (scheme_.integrator.stages > 2 && third_.numPatches() != storedPatches())
      third_ = PatchStore<kDim>(layout_, storedPatches(), space_);
  }
  void releaseStageStores() {
    next_ = PatchStore<kDim>(layout_, 0, space_);
    third_ = PatchStore<kDim>(layout_, 0, space_);
  }

  void forgetHalos() {
    kernelHalosFilled_ = allHalosFilled_ = false;
  }

  // conserved(centre) in every interior cell of the owned patches, where the state lives (with
  // room for the ghost patches).
  template <class ConservedAt>
  PatchStore<kDim> atCellCentres(ConservedAt&& conserved) const {
    PatchStore<kDim> onHost(layout_, storedPatches(), MemorySpace::Host);
    forEachPatchCell(numPatches(), layout_.interiorCells(), [&](int p, int n) {
      const CellIndex<kDim> c = layout_.interiorCell(n);
      const State q = conserved(geometry_[p].cellCenter(c));
      for (int v = 0; v < PDE::kNumVars; ++v)
        onHost.at(p, v, c) = q[v];
    });
    if (space_ == MemorySpace::Host)
      return onHost;
    PatchStore<kDim> there(layout_, storedPatches(), space_);
    there.array().copyFrom(onHost.array());
    return there;
  }

  // Whether the stages take a pass of source terms or an equilibrium's residual.
  bool sourcePass() const {
    return sourceActive(pde_) || bool(equilibrium_);
  }

  // R_e = L_F(q_e) + S(q_e) of the equilibrium on the present patches (source_terms.hpp): the
  // stage machinery's own forward-Euler step from q_e (halo fill, ghost exchange, update,
  // refluxing) of the coming step's dt, so that the residual is the one the steps compute on q_e
  // to round-off. A dt the state allows keeps the stepped equilibrium physical (a longer one could
  // take it negative, and the update stops a patch at its first non-physical cell); it is the
  // same on every rank, so any rank count computes the same residual.
  void computeEquilibriumResidual(double dt) {
    PatchStore<kDim> equilibrium = atCellCentres(equilibrium_);
    PatchStore<kDim> stepped(layout_, storedPatches(), space_);
    runStage(equilibrium, stepped, StageWeights{dt, 0.0, 1.0, nullptr}, time_, false, nullptr);
    equilibriumResidual_ = PatchStore<kDim>(layout_, storedPatches(), space_);
    backend_->equilibriumResidual(equilibrium.data(), stepped.data(), dt, time_,
                                  equilibriumResidual_.data());
    backend_->wait(); // before the stores above are freed
    // The fills may have written a buffer of the back end's that the current state's fill ahead
    // wrote (the device's x faces between levels): the first stage fills again.
    forgetHalos();
    equilibriumResidualStale_ = false;
  }

  // The per-patch eigenvalues of the current state (for the first dt and after a remesh); where
  // keptFrom is given, patch p with keptFrom[p] >= 0 takes old patch keptFrom[p]'s from `kept`.
  void computeEigenvalues(std::span<const int> keptFrom = {}, const double* kept = nullptr) {
    backend_->eigenvalues(current_.data(), patchLambda_.data(), keptFrom, kept);
    eigenvaluesOfCurrent_ = true;
  }

  // For each new patch of a remap of the current state, the current patch whose copy it is (its
  // eigenvalue carries over), or -1; nothing where the current eigenvalues are not the state's
  // (a caller changed it through state()) or there is no remap.
  std::vector<int> eigenvaluesKeptBy(std::span<const RemapOp<kDim>> remap) const {
    std::vector<int> keptFrom;
    if (remap.empty() || !eigenvaluesOfCurrent_)
      return keptFrom;
    keptFrom.reserve(remap.size());
    for (const RemapOp<kDim>& op : remap) {
      const bool copy = op.kind == RemapKind::Copy;
      if (copy && (op.sources[0] < 0 || op.sources[0] >= numPatches()))
        throw std::invalid_argument("PatchSolver::remesh: the remap copies patch " +
                                    std::to_string(op.sources[0]) + " of " +
                                    std::to_string(numPatches()));
      keptFrom.push_back(copy ? op.sources[0] : -1);
    }
    return keptFrom;
  }

  PDE pde_;
  PatchLayout<kDim> layout_;
  std::vector<PatchGeometry<kDim>> geometry_;
  // On the heap: the back end keeps pointers to its plans, and a solver may move.
  std::unique_ptr<HaloParts> halo_;
  std::vector<RefluxOp<kDim>> refluxPlan_;
  std::vector<int> refluxedPatches_; // coarse patches the reflux plan corrects
  GhostPatches ghosts_;
  int ranks_ = 1; // in ghosts_.comm
  // The ghost patches' interiors and boundary fluxes from their owners (none on one rank).
  std::optional<mpi::HaloExchange> stateExchange_, fluxExchange_;
  bool overlapExchange_ = true; // setExchangeOverlap
  ReflectionParity parity_;
  double cfl_;
  MemorySpace space_;
  PatchScheme scheme_;
  // A well-balanced run's equilibrium (setEquilibrium), and its residual on the present patches
  // where the state lives, computed before the next step where stale.
  std::function<State(const Vec<double, kDim>&)> equilibrium_;
  PatchStore<kDim> equilibriumResidual_{layout_, 0, MemorySpace::Host};
  bool equilibriumResidualStale_ = false;
  std::unique_ptr<PatchBackend<PDE>> backend_; // where the kernels run
  // A halo cell across a hooked face: its patch, cell and centre, and the face.
  struct HookedCell {
    int patch;
    CellIndex<kDim> c;
    Vec<double, kDim> x;
    int axis, side;
  };
  BoundaryHook<kDim, PDE::kNumVars> hook_;
  std::vector<HookedCell> hookedCells_;
  PatchStore<kDim> current_{layout_, 0, MemorySpace::Host}, next_{layout_, 0, MemorySpace::Host};
  PatchStore<kDim> third_{layout_, 0, MemorySpace::Host}; // three-stage methods only
  mutable PatchStore<kDim> hostMirror_{layout_, 0, MemorySpace::Host};
  DeviceArray<double> patchLambda_;
  DeviceArray<double> fluxRegister_;
  // Whether the current state's halos are up to date: those the kernels read (for which reader),
  // and all of them.
  bool kernelHalosFilled_ = false, allHalosFilled_ = false;
  HaloReader kernelHalosFor_ = HaloReader::AnyKernel;
  // Whether patchLambda_ holds the current state's eigenvalues, which a remesh's copies keep.
  bool eigenvaluesOfCurrent_ = false;
  // The criterion the next step evaluates on its input (flagNextStep), and the flags of the last
  // step's (per owned patch, where the state lives), until taken or the patches change.
  std::optional<amr::IndicatorCriterion> nextStepCriterion_;
  DeviceArray<amr::AdaptFlag> stepFlags_;
  bool stepFlagsReady_ = false;
  double time_ = 0.0;
  long long step_ = 0;
  // The phases' clock, a slot for each of StepTimes' phases.
  enum { kHaloPhase, kUpdatePhase, kRefluxPhase, kExchangePhase, kPhases };
  mutable PhaseClock clock_{space_, kPhases};
};

// The solvers of the systems Tessera ships are compiled once, in patch_solver_2d.cpp and
// patch_solver_3d.cpp; a file that uses one compiles none of its members (a test file of AMR runs
// took 14 s to compile instead of 31). Another PDE's solver is instantiated where it is used.
#define TESSERA_EXTERN_PATCH_SOLVER(System)                                                        \
  extern template class PatchSolver<System<2>>;                                                    \
  extern template class PatchSolver<System<3>>;
TESSERA_SHIPPED_SYSTEMS(TESSERA_EXTERN_PATCH_SOLVER)
#undef TESSERA_EXTERN_PATCH_SOLVER

} // namespace tessera
