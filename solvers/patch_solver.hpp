#pragma once
// PatchSolver<PDE>: first-order Rusanov time stepping of a PDE on a uniform patch grid, host back
// end. Holds the state twice (current and next), the halo plan and the per-patch eigenvalues; one
// advance() is halo fill, fused update and swap, and leaves the eigenvalues for the next dt.
#include "engine/device_array.hpp"
#include "engine/parallel_for.hpp"
#include "engine/timer.hpp"
#include "patches/boundary.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_store.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "solvers/pde.hpp"
#include "solvers/rusanov_update_host.hpp"
#include "solvers/time_step.hpp"

#include <span>
#include <utility>
#include <vector>

namespace tessera {

struct StepTimes {
  double halo = 0.0;
  double update = 0.0;
};

template <ConservationLaw PDE>
class PatchSolver {
public:
  static constexpr int kDim = PDE::kDim;
  using State = typename PDE::State;

  PatchSolver(PDE pde, UniformPatchGrid<kDim> grid, const DomainBoundary<kDim>& boundary,
              double cfl)
      : pde_(pde), grid_(std::move(grid)), geometry_(grid_.geometries()),
        plan_(buildUniformHaloPlan(grid_, boundary)), parity_(reflectionParity()),
        current_(grid_.layout(), grid_.numPatches(), MemorySpace::Host),
        next_(grid_.layout(), grid_.numPatches(), MemorySpace::Host),
        patchLambda_(grid_.numPatches(), 0.0), cfl_(cfl) {}

  // Sets every interior cell to conserved(centre of the cell) and computes the first eigenvalues.
  template <class ConservedAt>
  void initialise(ConservedAt&& conservedAt) {
    const PatchLayout<kDim>& layout = grid_.layout();
    forEachPatchCell(grid_.numPatches(), layout.interiorCells(), [&](int p, int n) {
      const CellIndex<kDim> c = layout.interiorCell(n);
      Vec<double, kDim> x;
      for (int a = 0; a < kDim; ++a)
        x[a] = geometry_[p].cellCenter(a, c[a]);
      const State q = conservedAt(x);
      for (int v = 0; v < PDE::kNumVars; ++v)
        current_.at(p, v, c) = q[v];
    });
    maxEigenvaluesHost(pde_, layout, grid_.numPatches(), current_.data(), patchLambda_.data());
  }

  // The largest stable step for the current state.
  double stableDt() const {
    return stableTimeStep<kDim>(cfl_, patchLambda_,
                                std::span<const PatchGeometry<kDim>>(geometry_));
  }

  void advance(double dt) {
    {
      ScopedTimer t(times_.halo);
      fillHalos(plan_, grid_.layout(), parity_, current_.data());
    }
    {
      ScopedTimer t(times_.update);
      rusanovUpdateHost(pde_, grid_.layout(), std::span<const PatchGeometry<kDim>>(geometry_),
                        current_.data(), next_.data(), dt, patchLambda_.data());
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
  void fillCurrentHalos() { fillHalos(plan_, grid_.layout(), parity_, current_.data()); }

  // Sum over interior cells of each conserved variable times the cell volume.
  State conservedTotals() const {
    State total = State::filled(0.0);
    const PatchLayout<kDim>& layout = grid_.layout();
    for (int p = 0; p < grid_.numPatches(); ++p)
      for (int v = 0; v < PDE::kNumVars; ++v) {
        double sum = 0.0;
        for (int n = 0; n < layout.interiorCells(); ++n)
          sum += current_.at(p, v, layout.interiorCell(n));
        total[v] += sum * geometry_[p].cellVolume();
      }
    return total;
  }

  const PDE& pde() const { return pde_; }
  const UniformPatchGrid<kDim>& grid() const { return grid_; }
  std::span<const PatchGeometry<kDim>> geometry() const { return geometry_; }
  const PatchStore<kDim>& state() const { return current_; }
  PatchStore<kDim>& state() { return current_; }
  double time() const { return time_; }
  long long step() const { return step_; }
  const StepTimes& times() const { return times_; }

private:
  static ReflectionParity reflectionParity() {
    ReflectionParity parity(kDim * PDE::kNumVars);
    for (int a = 0; a < kDim; ++a)
      for (int v = 0; v < PDE::kNumVars; ++v)
        parity[a * PDE::kNumVars + v] = PDE::reflectionParity(v, a);
    return parity;
  }

  PDE pde_;
  UniformPatchGrid<kDim> grid_;
  std::vector<PatchGeometry<kDim>> geometry_;
  HaloPlan<kDim> plan_;
  ReflectionParity parity_;
  PatchStore<kDim> current_, next_;
  std::vector<double> patchLambda_;
  double cfl_;
  double time_ = 0.0;
  long long step_ = 0;
  StepTimes times_;
};

} // namespace tessera
