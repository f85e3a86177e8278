#pragma once
// AmrSolver<PDE>: the PatchSolver on the leaves of a forest that adapts to the solution. Every
// regridInterval steps the criterion flags each patch, the forest refines, coarsens and balances,
// the data moves onto the new patches (copy, prolongation, restriction), and the halo and reflux
// plans are rebuilt. One global time step for all levels (no subcycling).
//
// On several MPI ranks each rank holds a contiguous stretch of the forest's leaves along its
// space-filling curve and steps them, with the ghost patches its halos read (PatchSolver). After
// every adapt that changes the mesh, p4est repartitions the leaves by patch cost and their data
// travels with them. Every patch costs the same (N^Dim cells, one dt for all levels), so the
// cost weight is one per patch. The results equal a one-rank run's: every rank computes the same
// values for its patches as one rank would, and adapts the same.
//
// The criterion is a built-in one given as data (amr::IndicatorCriterion), evaluated where the
// state lives, so that a device run sends only the flags to the host; or any host callable
// (amr::RefinementCriterion), which on the device back end sees a host copy of the state.
//
// When: the mesh adapts after every regridInterval-th step. A built-in criterion flags the state
// a step starts from, inside that step's update (the halos it reads are filled for the update, and
// the first-order device kernel has the cells in shared memory already), so that the regrid costs
// no pass over the state and no halo fill; a host callable sees the state after that step. With a
// regridInterval of 4 or more the flags come from the step three before the regrid's, and beside
// each of the next three steps, while the device takes it, the host does a part of the adapt: the
// forest (a forest of its own, the patches stepping on the old one), the new patches' plans, their
// halo plans. A regrid then costs the run little more than the data's move onto the new patches.
// With an interval of 3 or 2 the flags come two steps or one before, and the parts share the
// steps there are. With a CFL number below one a discontinuity moves less than a cell a step, and
// refining a flagged patch's neighbours as well (the buffer, a patch wide) covers the four steps
// for patches of four cells or more. With a regridInterval of 1 the step flags and
// its regrid follows it, as does a regrid asked for between steps (regrid()) and the initial
// adapts, each to the state as it is. A restart repeats the run: a checkpoint keeps the flags that
// wait for a coming regrid (pendingFlags).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <mpi.h>
#include <optional>
#include <span>
#include <stdexcept>
#include <variant>
#include <vector>

#include "amr/forest.hpp"
#include "amr/forest_patches.hpp"
#include "amr/refinement_buffer.hpp"
#include "amr/refinement_criteria.hpp"
#include "drivers/regrid_times.hpp"
#include "engine/device_reached.hpp"
#include "engine/memory.hpp"
#include "engine/mpi/rank_count.hpp"
#include "engine/timer.hpp"
#include "patches/placement_index.hpp"
#include "patches/remap.hpp"
#include "patches/remap_plan.hpp"
#include "physics/shipped_systems.hpp"
#include "solvers/patch/patch_solver.hpp"

namespace tessera {

// A primitive variable of the PDE (pressure, velocity, ...) as a refinement quantity.
template <ConservationLaw PDE>
auto primitiveVariable(const PDE& pde, int var) {
  return [pde, var](const amr::PatchView<PDE::kDim>& patch, const CellIndex<PDE::kDim>& c) {
    typename PDE::State q;
    for (int v = 0; v < PDE::kNumVars; ++v)
      q[v] = patch.at(v, c);
    return pde.toPrimitive(q)[var];
  };
}

struct AmrSettings {
  int minLevel = 0;
  int maxLevel = 2;
  int regridInterval = 4; // steps between adapts
  // Patches next to one that refines refine too: a feature moving between adapts then stays on
  // refined patches.
  bool buffer = true;
};

template <ConservationLaw PDE>
class AmrSolver {
public:
  static constexpr int kDim = PDE::kDim;

  using Criterion = std::variant<amr::IndicatorCriterion, amr::RefinementCriterion<kDim>>;

  // level0Patches: patches per axis on level 0 (one p4est tree each) over [lower, upper];
  // `space`: where the state lives and the steps run; `scheme`: the numerics (the layout's halo at
  // least the scheme's).
  AmrSolver(MPI_Comm comm, PDE pde, PatchLayout<kDim> layout, Vec<int, kDim> level0Patches,
            Vec<double, kDim> lower, Vec<double, kDim> upper, DomainBoundary<kDim> boundary,
            AmrSettings settings, Criterion criterion, double cfl,
            MemorySpace space = MemorySpace::Host, PatchScheme scheme = {})
      : forest_(comm, level0Patches, periodicAxes(boundary), settings.minLevel), layout_(layout),
        lower_(lower), upper_(upper), boundary_(std::move(boundary)), settings_(settings),
        criterion_(std::move(criterion)), solver_(solverOnForest(pde, cfl, space, scheme)) {
    ranks_ = mpi::rankCount(comm);
    summarise();
  }

  // A forest written by amr::Forest::save (a checkpoint's), to continue a run on: keepPartition
  // where the rank count is the writer's.
  struct SavedForest {
    std::filesystem::path file;
    bool keepPartition = true;
  };

  // The solver on a saved forest; restore() then gives it the state.
  AmrSolver(MPI_Comm comm, PDE pde, PatchLayout<kDim> layout, Vec<int, kDim> level0Patches,
            Vec<double, kDim> lower, Vec<double, kDim> upper, DomainBoundary<kDim> boundary,
            AmrSettings settings, Criterion criterion, double cfl, const SavedForest& saved,
            MemorySpace space = MemorySpace::Host, PatchScheme scheme = {})
      : forest_(comm, level0Patches, periodicAxes(boundary), saved.file, saved.keepPartition),
        layout_(layout), lower_(lower), upper_(upper), boundary_(std::move(boundary)),
        settings_(settings), criterion_(std::move(criterion)),
        solver_(solverOnForest(pde, cfl, space, scheme)) {
    ranks_ = mpi::rankCount(comm);
    summarise();
  }

  // This rank's patches' state (one per leaf), the time and the step count of a checkpoint, and
  // the flags that waited there for a coming regrid (pendingFlags), if any.
  void restore(const PatchStore<kDim>& state, double time, long long step,
               std::optional<std::vector<amr::AdaptFlag>> pending = std::nullopt) {
    if (pending && pending->size() != forest_.leaves().size())
      throw std::invalid_argument("AmrSolver::restore: " + std::to_string(pending->size()) +
                                  " regrid flags for " + std::to_string(forest_.leaves().size()) +
                                  " patches");
    solver_.restore(state, time, step);
    pending_.reset();
    if (pending)
      pending_.emplace(std::move(*pending));
  }

  // Sets the initial data and adapts the mesh to it, repeatedly, until the mesh settles (at
  // most one round per level). makeInitial(layout, geometry) gives the conserved state at a
  // point for that mesh, of which geometry holds this rank's patches (a Sedov blast spreads its
  // energy over the cells of the mesh it gets, on every rank: SedovBlast::placeOn).
  template <class MakeInitial>
  void initialise(MakeInitial&& makeInitial) {
    pending_.reset();
    for (int round = 0; round <= settings_.maxLevel - settings_.minLevel; ++round) {
      solver_.initialise(makeInitial(layout_, solver_.geometry()));
      if (!adapt(FlagsFrom::CurrentState))
        return;
    }
    solver_.initialise(makeInitial(layout_, solver_.geometry()));
  }

  // One step; every regridInterval steps the mesh adapts afterwards.
  void advance(double dt) {
    step([&] { solver_.advance(dt); });
  }
  void advanceTo(double time) {
    step([&] { solver_.advanceTo(time); });
  }

  double stableDt() { return solver_.stableDt(); }
  double time() const { return solver_.time(); }

  // Adapts the mesh to the current data and moves the data onto it (flags waiting for a coming
  // step's regrid are dropped: they were the old mesh's). Returns whether the mesh changed.
  bool regrid() {
    pending_.reset();
    return adapt(FlagsFrom::CurrentState);
  }

  // The flags (one per leaf of this rank) that a coming step's regrid adapts the mesh to, taken
  // by a step before it (regridLead()); null between a regrid and the next flags. A checkpoint
  // keeps them.
  const std::vector<amr::AdaptFlag>* pendingFlags() const {
    return pending_ ? &pending_->flags : nullptr;
  }

  const amr::Forest<kDim>& forest() const { return forest_; }
  MPI_Comm comm() const { return forest_.comm(); }
  PatchSolver<PDE>& solver() { return solver_; }
  const PatchSolver<PDE>& solver() const { return solver_; }
  double regridSeconds() const { return regridTimes_.total(); }
  const RegridTimes& regridTimes() const { return regridTimes_; }
  // Over all ranks, as of the last adapt.
  int finestLevel() const { return finestLevel_; }
  long long globalPatches() const { return globalPatches_; }
  long long globalCells() const { return globalPatches_ * layout_.interiorCells(); }
  // This rank's first patch in the forest's order over all ranks.
  long long firstGlobalPatch() const { return firstGlobalPatch_; }

private:
  // What the solver needs to know of this rank's leaves (PatchSolver's constructor and remesh).
  struct ForestPlans {
    std::vector<PatchGeometry<kDim>> geometry;
    HaloPlanSource<kDim> halo;
    std::vector<RefluxOp<kDim>> reflux;
    GhostPatches ghosts;
  };

  // Collective (the ghosts' plans are). The solver plans the halos its back end fills.
  ForestPlans plansOnForest(const amr::Forest<kDim>& forest) const {
    ForestPlans plans;
    plans.geometry = amr::leafGeometry(forest, layout_, lower_, upper_);
    auto planner = amr::forestHaloPlanner(forest, layout_, boundary_);
    plans.reflux = planner->refluxPlan();
    if (mpi::rankCount(forest.comm()) > 1)
      plans.ghosts = amr::ghostPatches(forest, layout_, *planner, plans.reflux);
    plans.halo = std::move(planner);
    return plans;
  }

  // The solver on the forest as constructed.
  PatchSolver<PDE> solverOnForest(const PDE& pde, double cfl, MemorySpace space,
                                  const PatchScheme& scheme) const {
    ForestPlans plans = plansOnForest(forest_);
    return PatchSolver<PDE>(pde, layout_, std::move(plans.geometry), std::move(plans.halo), cfl,
                            std::move(plans.reflux), space, std::move(plans.ghosts), scheme);
  }

  // The counts over all ranks that the getters above report.
  void summarise() {
    long long patches = (long long)forest_.leaves().size();
    int finest = 0;
    for (const auto& leaf : forest_.leaves())
      finest = std::max(finest, leaf.level);
    globalPatches_ = patches;
    finestLevel_ = finest;
    firstGlobalPatch_ = 0;
    if (ranks_ == 1)
      return;
    MPI_Allreduce(&patches, &globalPatches_, 1, MPI_LONG_LONG, MPI_SUM, comm());
    MPI_Allreduce(&finest, &finestLevel_, 1, MPI_INT, MPI_MAX, comm());
    MPI_Exscan(&patches, &firstGlobalPatch_, 1, MPI_LONG_LONG, MPI_SUM, comm());
    int rank = 0;
    MPI_Comm_rank(comm(), &rank);
    if (rank == 0)
      firstGlobalPatch_ = 0; // MPI_Exscan leaves rank 0's result undefined
  }

  static Vec<bool, kDim> periodicAxes(const DomainBoundary<kDim>& boundary) {
    Vec<bool, kDim> periodic;
    for (int a = 0; a < kDim; ++a)
      periodic[a] = boundary.kind[a][0] == BoundaryKind::Periodic;
    return periodic;
  }

  // The host's part of an adapt, in the order it runs: the forest adapted to the flags; the remap
  // plan, the repartition (several ranks) and the new patches' plans; their halo plans as the back
  // end reads them.
  static constexpr int kAdaptStages = 3;
  static_assert(kAdaptStages == std::tuple_size_v<decltype(RegridTimes::exposedStages)>);

  // How many steps a regrid's flags come before it, the flagging step included. Beside each
  // following step the host takes one stage of the adapt while the device steps, and beside the
  // regrid's step whatever is left: with a regridInterval of 4 or more one stage a step, with 3
  // the forest beside the first and the plans beside the regrid's, with 2 all beside the regrid's
  // step. With 1 the step flags and its regrid follows it.
  int regridLead() const { return std::clamp(settings_.regridInterval, 1, kAdaptStages + 1); }

  // One step taken by takeStep(), with the regrids around it: the mesh adapts after every
  // regridInterval-th step, to flags taken regridLead() steps before.
  template <class TakeStep>
  void step(TakeStep&& takeStep) {
    const int interval = settings_.regridInterval;
    const long long taken = solver_.step() + 1; // steps taken once this one is
    const bool flags = interval > 0 && (taken - 1 + regridLead()) % interval == 0;
    const auto* builtIn = std::get_if<amr::IndicatorCriterion>(&criterion_);
    if (flags && builtIn)
      solver_.flagNextStep(*builtIn); // on the state the step starts from, in its update
    takeStep(); // on a device, launched: it runs while the host does what follows
    // Without a regrid interval (flags given to restore()) the pending regrid comes at once.
    if (pending_)
      prepareBesideStep(interval <= 0 || taken % interval == 0);
    if (!flags)
      return;
    if (regridLead() > 1) {
      waitForDevice(); // the step's, as in adapt()
      ScopedTimer t(regridTimes_.flags);
      pending_.emplace(flagsOfThisMesh(FlagsFrom::Step));
    } else {
      adapt(FlagsFrom::Step);
    }
  }

  // Host work done after a step was launched: what of it came before the device finished the
  // step ran beside it, and cost the run nothing.
  struct BesideStep {
    std::unique_ptr<DeviceReached> stepDone; // none on the host back end: the step is done
    struct Stage {
      int index;
      DeviceReached::Clock::time_point start, end;
    };
    std::vector<Stage> stages; // taken beside the step, in order
    // Of a stage's host time, what ran beside the step (once the device has finished it).
    double secondsBesideStep(const Stage& s) const {
      return stepDone ? secondsBeside(*stepDone, s.start, s.end) : 0.0;
    }
  };

  // The pending regrid's host part beside the step just launched: its next stage, or all that is
  // left beside the regrid's step (`regrids`), after which the data moves onto the new patches.
  void prepareBesideStep(bool regrids) {
    PendingRegrid& pending = *pending_;
    BesideStep& beside = pending.beside.emplace_back();
    if (solver_.space() == MemorySpace::Device)
      beside.stepDone = std::make_unique<DeviceReached>();
    do {
      const auto start = DeviceReached::Clock::now();
      const int stage = pending.stagesDone;
      prepareNextStage();
      beside.stages.push_back({stage, start, DeviceReached::Clock::now()});
    } while (regrids && pending.stagesDone < kAdaptStages);
    if (!regrids)
      return;
    // The rest of the step is the step's (its clock times it).
    waitForDevice();
    for (const BesideStep& b : pending.beside)
      for (const auto& s : b.stages) {
        const double besideStep = b.secondsBesideStep(s);
        regridTimes_.overlapped += besideStep;
        regridTimes_.exposedStages[std::size_t(s.index)] +=
            std::chrono::duration<double>(s.end - s.start).count() - besideStep;
      }
    std::optional<PreparedAdapt> prepared = std::move(pending.prepared);
    pending_.reset();
    if (prepared)
      moveOntoNewPatches(std::move(*prepared));
  }

  // The next of the pending adapt's stages (kAdaptStages); nothing once the forest stays as it is.
  void prepareNextStage() {
    PendingRegrid& pending = *pending_;
    const int stage = pending.stagesDone++;
    if (stage == 0)
      pending.prepared = adaptForest(pending.flags);
    else if (pending.prepared && stage == 1)
      planForest(*pending.prepared);
    else if (pending.prepared && stage == 2)
      planHalos(*pending.prepared);
  }

  // Where an adapt's flags come from: the step just taken (a host callable has none there, and
  // sees the state after it), or the current state.
  enum class FlagsFrom { Step, CurrentState };

  std::vector<amr::AdaptFlag> flagsOfThisMesh(FlagsFrom from) {
    if (from == FlagsFrom::Step)
      if (std::optional<std::vector<amr::AdaptFlag>> ofStep = solver_.takeStepFlags())
        return std::move(*ofStep);
    // A built-in criterion reads what the kernels read; a user's looks at any halo cell.
    solver_.fillCurrentHalos(std::holds_alternative<amr::IndicatorCriterion>(criterion_)
                                 ? HaloCells::ReadByKernels
                                 : HaloCells::All);
    return refinementFlags();
  }

  // Adapts the mesh to flags of the state as it is now, all at once.
  bool adapt(FlagsFrom from) {
    // The last step's phases may still run on the device (their clock times them there): the
    // regrid's timers start after them, or its first phase would hold the step's tail.
    waitForDevice();
    std::vector<amr::AdaptFlag> flags;
    {
      ScopedTimer t(regridTimes_.flags);
      flags = flagsOfThisMesh(from);
    }
    std::optional<PreparedAdapt> prepared = adaptForest(std::move(flags));
    if (!prepared)
      return false;
    planForest(*prepared);
    planHalos(*prepared);
    moveOntoNewPatches(std::move(*prepared));
    return true;
  }

  // An adapt's host part, which needs nothing of the state: the forest adapted to the flags (a
  // forest of its own: until the data moves, the patches step, and a checkpoint saves them, on the
  // forest they have), the remap plan, on several ranks the adapted forest's repartition, and the
  // new patches' plans.
  struct PreparedAdapt {
    amr::Forest<kDim> forest;
    std::vector<PatchPlacement<kDim>> before, after; // this rank's leaves, before the repartition
    std::vector<RemapOp<kDim>> remap;
    std::optional<amr::LeafSplit> split; // several ranks: where the remapped patches go
    std::optional<ForestPlans> plans;
    std::unique_ptr<typename PatchSolver<PDE>::HaloParts> halo;
  };

  // A regrid's flags, taken by a step before it, and what the host has prepared of it since.
  struct PendingRegrid {
    explicit PendingRegrid(std::vector<amr::AdaptFlag> f) : flags(std::move(f)) {}
    std::vector<amr::AdaptFlag> flags;
    int stagesDone = 0;
    std::optional<PreparedAdapt> prepared; // after the first stage: none where the mesh stays
    std::vector<BesideStep> beside;
  };

  // The forest adapted to the flags (of this forest's leaves); none where the mesh stays as it
  // is. Collective.
  std::optional<PreparedAdapt> adaptForest(std::vector<amr::AdaptFlag> flags) {
    ScopedTimer t(regridTimes_.forest);
    if (settings_.buffer)
      bufferRefinement(flags);
    std::optional<amr::Forest<kDim>> adapted =
        forest_.adapted(flags, settings_.minLevel, settings_.maxLevel);
    std::vector<PatchPlacement<kDim>> before, after;
    int changed = 0;
    if (adapted) {
      before = amr::leafPlacements(forest_);
      after = amr::leafPlacements(*adapted);
      changed = before != after;
    }
    if (ranks_ > 1) // every rank repartitions and replans if any rank's patches changed
      MPI_Allreduce(MPI_IN_PLACE, &changed, 1, MPI_INT, MPI_LOR, comm());
    if (!changed) // a forest adapts on every rank or on none (Forest::adapted)
      return std::nullopt;
    return PreparedAdapt{std::move(*adapted), std::move(before), std::move(after), {}, {}, {}, {}};
  }

  // The remap plan, on several ranks the adapted forest repartitioned (collective: the leaves
  // move, their data later), and the adapted forest's plans.
  void planForest(PreparedAdapt& prepared) {
    {
      ScopedTimer t(regridTimes_.plans);
      prepared.remap = buildRemapPlan<kDim>(prepared.before, prepared.after);
    }
    if (ranks_ > 1) {
      ScopedTimer t(regridTimes_.partition);
      prepared.split =
          prepared.forest.repartition(std::vector<int>(prepared.forest.leaves().size(), 1));
    }
    ScopedTimer t(regridTimes_.plans);
    prepared.plans = plansOnForest(prepared.forest);
  }

  // The halo plans of planForest's plans, as the solver's back end reads them.
  void planHalos(PreparedAdapt& prepared) {
    ScopedTimer t(regridTimes_.plans);
    prepared.halo = planHalosOf(*prepared.plans);
  }

  // An adapt's data part: the adapted forest made the mesh, the state remapped onto its patches
  // (and partitioned), the solver moved onto them.
  void moveOntoNewPatches(PreparedAdapt prepared) {
    forest_ = std::move(prepared.forest);
    std::optional<PatchStore<kDim>> state;
    {
      ScopedTimer t(regridTimes_.remap);
      // Prolongation's slopes read the parents' face halos (a user's criterion filled them all).
      solver_.fillCurrentHalos(HaloCells::ReadByKernels);
      // On a device the remap runs while the host goes on: the timer holds its launch, and the
      // remesh's wait whatever of it is left.
      state.emplace(solver_.remapped(prepared.remap));
    }
    if (prepared.split) {
      ScopedTimer t(regridTimes_.migration);
      state.emplace(migrated(*state, *prepared.split, prepared.plans->ghosts.count));
    }
    ScopedTimer t(regridTimes_.remesh);
    ForestPlans& plans = *prepared.plans;
    // On one rank the patches the remap copies keep their eigenvalues; a partition moves them.
    std::span<const RemapOp<kDim>> copies;
    if (ranks_ == 1)
      copies = prepared.remap;
    solver_.remesh(std::move(plans.geometry), std::move(prepared.halo), std::move(plans.reflux),
                   std::move(plans.ghosts), std::move(*state), copies);
    waitForDevice(); // so that the timer holds the uploads, not the next step's halo fill
    summarise();
  }

  // The halo plans of `plans`, as the solver's back end reads them.
  std::unique_ptr<typename PatchSolver<PDE>::HaloParts> planHalosOf(ForestPlans& plans) const {
    return solver_.planHalos(std::move(plans.halo), int(plans.geometry.size()), plans.ghosts.count);
  }

  // The state of this rank's patches after the repartition `split`, from `state`, that of its
  // patches before it: only the patches that change rank leave their memory space. The store has
  // room for the new mesh's `ghosts` after them, as the solver keeps its state, so that the
  // solver takes it as it is rather than copying every patch into one of that size.
  PatchStore<kDim> migrated(const PatchStore<kDim>& state, const amr::LeafSplit& split,
                            int ghosts) {
    PatchStore<kDim> arrived(layout_, int(forest_.leaves().size()) + ghosts, solver_.space());
    mpi::migrateLeaves(comm(), split.ranges(), state.array().data(), arrived.array().data(),
                       layout_.patchStride(), solver_.space());
    return arrived;
  }

  void waitForDevice() const {
    if (solver_.space() == MemorySpace::Device)
      synchronizeDevice();
  }

  // What each patch asks of the next adapt (halos filled).
  std::vector<amr::AdaptFlag> refinementFlags() {
    if (const auto* builtIn = std::get_if<amr::IndicatorCriterion>(&criterion_))
      return solver_.refinementFlags(*builtIn);
    const auto& criterion = std::get<amr::RefinementCriterion<kDim>>(criterion_);
    const auto& leaves = forest_.leaves();
    const PatchStore<kDim>& state = solver_.hostState();
    std::vector<amr::AdaptFlag> flags(leaves.size());
    for (std::size_t p = 0; p < leaves.size(); ++p)
      flags[p] = criterion(amr::PatchView<kDim>{layout_, state.data() + p * layout_.patchStride(),
                                                solver_.geometry()[p], leaves[p].level});
    return flags;
  }

  // Every patch that touches (face, edge or corner, periodic images included) a patch flagged
  // to refine is flagged to refine as well, if it is not finer already. The ghost patches' flags
  // come from their owners: a patch at the edge of a rank refines for a neighbour on another.
  void bufferRefinement(std::vector<amr::AdaptFlag>& flags) {
    std::vector<amr::AdaptFlag> asked = flags;
    if (ranks_ > 1) {
      std::vector<double> own;
      for (amr::AdaptFlag flag : flags)
        own.push_back(static_cast<int>(flag));
      for (double ghostFlag : forest_.exchangeGhostValues(own, 1))
        asked.push_back(static_cast<amr::AdaptFlag>(int(ghostFlag)));
    }
    if (std::find(asked.begin(), asked.end(), amr::AdaptFlag::Refine) == asked.end())
      return; // most regrids: no lookups to make
    const std::vector<PatchPlacement<kDim>> placements = amr::placementsWithGhosts(forest_);
    const PlacementIndex<kDim> index(placements);
    const std::vector<unsigned char> touching = amr::leavesTouchingRefinement<kDim>(
        placements, index, asked, int(flags.size()), forest_.treesPerAxis(), forest_.periodic());
    for (std::size_t q = 0; q < flags.size(); ++q)
      if (touching[q])
        flags[q] = amr::AdaptFlag::Refine;
  }

  amr::Forest<kDim> forest_;
  PatchLayout<kDim> layout_;
  Vec<double, kDim> lower_, upper_;
  DomainBoundary<kDim> boundary_;
  AmrSettings settings_;
  Criterion criterion_;
  PatchSolver<PDE> solver_;
  int ranks_ = 1;
  long long globalPatches_ = 0;
  long long firstGlobalPatch_ = 0;
  int finestLevel_ = 0;
  RegridTimes regridTimes_;
  std::optional<PendingRegrid> pending_;
};

// Compiled once for the systems Tessera ships, in amr_solver_2d.cpp and amr_solver_3d.cpp, like
// their PatchSolvers (patch_solver.hpp).
#define TESSERA_EXTERN_AMR_SOLVER(System)                                                          \
  extern template class AmrSolver<System<2>>;                                                      \
  extern template class AmrSolver<System<3>>;
TESSERA_SHIPPED_SYSTEMS(TESSERA_EXTERN_AMR_SOLVER)
#undef TESSERA_EXTERN_AMR_SOLVER

} // namespace tessera
