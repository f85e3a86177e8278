#pragma once
// PatchSolver<PDE>: first-order Rusanov time stepping of a PDE on a set of patches (a uniform
// grid, or the leaves of a forest), host back end. Holds the state twice (current and next), the
// halo plan and the per-patch eigenvalues; one advance() is halo fill, fused update and swap, and
// leaves the eigenvalues for the next dt.
#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/parallel_for.hpp"
#include "engine/timer.hpp"
#include "patches/boundary.hpp"
#include "patches/flux_register.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_store.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "solvers/pde.hpp"
#include "solvers/rusanov_update_host.hpp"
#include "solvers/time_step.hpp"

namespace tessera {

struct StepTimes {
  double halo = 0.0;
  double update = 0.0;
  double reflux = 0.0;
};

template <ConservationLaw PDE>
class PatchSolver {
public:
  static constexpr int kDim = PDE::kDim;
  using State = typename PDE::State;

  // Patches of one layout with their geometry, the plan that fills their halos and, where
  // patches of different levels meet, the plan that corrects coarse cells by the fine fluxes.
  PatchSolver(PDE pde, PatchLayout<kDim> layout, std::vector<PatchGeometry<kDim>> geometry,
              HaloPlan<kDim> plan, double cfl, std::vector<RefluxOp<kDim>> refluxPlan = {})
      : pde_(pde), layout_(layout), parity_(reflectionParity()), cfl_(cfl) {
    setPatches(std::move(geometry), std::move(plan), std::move(refluxPlan));
    current_ = PatchStore<kDim>(layout_, numPatches(), MemorySpace::Host);
  }

  PatchSolver(PDE pde, const UniformPatchGrid<kDim>& grid, const DomainBoundary<kDim>& boundary,
              double cfl)
      : PatchSolver(pde, grid.layout(), grid.geometries(), buildUniformHaloPlan(grid, boundary),
                    cfl) {}

  // Sets every interior cell to conserved(centre of the cell) and computes the first eigenvalues.
  template <class ConservedAt>
  void initialise(ConservedAt&& conservedAt) {
    forEachPatchCell(numPatches(), layout_.interiorCells(), [&](int p, int n) {
      const CellIndex<kDim> c = layout_.interiorCell(n);
      Vec<double, kDim> x;
      for (int a = 0; a < kDim; ++a)
        x[a] = geometry_[p].cellCenter(a, c[a]);
      const State q = conservedAt(x);
      for (int v = 0; v < PDE::kNumVars; ++v)
        current_.at(p, v, c) = q[v];
    });
    maxEigenvaluesHost(pde_, layout_, numPatches(), current_.data(), patchLambda_.data());
  }

  // Replaces the patches (after an adapt): new geometry and plans, and the new state, whose
  // interior fill(data) writes. Time, step count and timers carry on.
  template <class FillState>
  void remesh(std::vector<PatchGeometry<kDim>> geometry, HaloPlan<kDim> plan,
              std::vector<RefluxOp<kDim>> refluxPlan, FillState&& fill) {
    PatchStore<kDim> fresh(layout_, int(geometry.size()), MemorySpace::Host);
    fill(fresh.data()); // may read the old state, still in place
    setPatches(std::move(geometry), std::move(plan), std::move(refluxPlan));
    current_ = std::move(fresh);
    maxEigenvaluesHost(pde_, layout_, numPatches(), current_.data(), patchLambda_.data());
  }

  // The largest stable step for the current state.
  double stableDt() const {
    return stableTimeStep<kDim>(cfl_, patchLambda_,
                                std::span<const PatchGeometry<kDim>>(geometry_));
  }

  void advance(double dt) {
    {
      ScopedTimer t(times_.halo);
      fillHalos(plan_, layout_, parity_, current_.data());
    }
    {
      ScopedTimer t(times_.update);
      rusanovUpdateHost(pde_, layout_, std::span<const PatchGeometry<kDim>>(geometry_),
                        current_.data(), next_.data(), dt, patchLambda_.data(),
                        refluxPlan_.empty() ? nullptr : fluxRegister_.data());
    }
    if (!refluxPlan_.empty()) {
      ScopedTimer t(times_.reflux);
      reflux<kDim>(refluxPlan_, layout_, geometry_, fluxRegister_.data(), dt, next_.data());
      maxEigenvaluesHost(pde_, layout_, std::span<const int>(refluxedPatches_), next_.data(),
                         patchLambda_.data());
    }
    std::swap(current_, next_);
    time_ += dt;
    ++step_;
  }

  // Advances to exactly `time` (an output or end time): time_ + (time - time_) may round off it.
  void advanceTo(double time) {
    advance(time - time_);
    time_ = time;
  }

  // Fills the halos of the current state (advance() does this itself; output and tests may want
  // the halos too).
  void fillCurrentHalos() { fillHalos(plan_, layout_, parity_, current_.data()); }

  // Sum over interior cells of each conserved variable times the cell volume.
  State conservedTotals() const {
    State total = State::filled(0.0);
    for (int p = 0; p < numPatches(); ++p)
      for (int v = 0; v < PDE::kNumVars; ++v) {
        double sum = 0.0;
        for (int n = 0; n < layout_.interiorCells(); ++n)
          sum += current_.at(p, v, layout_.interiorCell(n));
        total[v] += sum * geometry_[p].cellVolume();
      }
    return total;
  }

  const PDE& pde() const { return pde_; }
  const PatchLayout<kDim>& layout() const { return layout_; }
  int numPatches() const { return int(geometry_.size()); }
  long long numCells() const { return (long long)numPatches() * layout_.interiorCells(); }
  std::span<const PatchGeometry<kDim>> geometry() const { return geometry_; }
  const PatchStore<kDim>& state() const { return current_; }
  PatchStore<kDim>& state() { return current_; }
  double time() const { return time_; }
  long long step() const { return step_; }
  const StepTimes& times() const { return times_; }

private:
  // Everything that follows from the patches, except the current state (its caller's).
  void setPatches(std::vector<PatchGeometry<kDim>> geometry, HaloPlan<kDim> plan,
                  std::vector<RefluxOp<kDim>> refluxPlan) {
    geometry_ = std::move(geometry);
    plan_ = std::move(plan);
    refluxPlan_ = std::move(refluxPlan);
    next_ = PatchStore<kDim>(layout_, numPatches(), MemorySpace::Host);
    patchLambda_.assign(numPatches(), 0.0);
    const FluxRegisterLayout<kDim> registers{layout_.cellsPerAxis, PDE::kNumVars};
    fluxRegister_.assign(refluxPlan_.empty() ? 0 : numPatches() * registers.patchStride(), 0.0);
    refluxedPatches_.clear();
    for (const RefluxOp<kDim>& op : refluxPlan_)
      refluxedPatches_.push_back(op.coarsePatch);
    std::sort(refluxedPatches_.begin(), refluxedPatches_.end());
    refluxedPatches_.erase(std::unique(refluxedPatches_.begin(), refluxedPatches_.end()),
                           refluxedPatches_.end());
  }

  static ReflectionParity reflectionParity() {
    ReflectionParity parity(kDim * PDE::kNumVars);
    for (int a = 0; a < kDim; ++a)
      for (int v = 0; v < PDE::kNumVars; ++v)
        parity[a * PDE::kNumVars + v] = PDE::reflectionParity(v, a);
    return parity;
  }

  PDE pde_;
  PatchLayout<kDim> layout_;
  std::vector<PatchGeometry<kDim>> geometry_;
  HaloPlan<kDim> plan_;
  std::vector<RefluxOp<kDim>> refluxPlan_;
  std::vector<int> refluxedPatches_; // coarse patches the reflux plan corrects
  ReflectionParity parity_;
  PatchStore<kDim> current_{layout_, 0, MemorySpace::Host}, next_{layout_, 0, MemorySpace::Host};
  std::vector<double> patchLambda_;
  std::vector<double> fluxRegister_;
  double cfl_;
  double time_ = 0.0;
  long long step_ = 0;
  StepTimes times_;
};

} // namespace tessera
