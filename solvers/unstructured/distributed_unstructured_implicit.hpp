#pragma once
// DistributedUnstructuredImplicit: UnstructuredImplicit's backward-Euler pseudo-time iteration on
// MPI ranks, with the distributed multicolor sweep of seed 002 (section 2).
//
// Every rank colors the global mesh the same way (greedy, in global cell order), so that a halo
// cell has its owner's color. A rank numbers its owned cells color by color, within a color the
// cells that other ranks hold as halo cells first (the boundary rows), and its halo cells after
// them, in no color: no sweep visits them. A sweep runs a color's boundary rows, sends their
// updates to the ranks that hold them (start), runs the color's interior rows while the messages
// travel, and receives the color's halo rows (finish) before the next color reads them. The
// sweeps then compute what one rank computes with the same coloring, up to the order in which
// a row's products add; the residual norm and so the CFL ramp are global sums.
//
// After each step the halo cells' states are exchanged: their updates already equal their
// owners', so this only guards against drift.
#include <mpi.h>
#include <span>
#include <utility>
#include <vector>

#include "engine/linalg/block_pattern.hpp"
#include "engine/linalg/sweep_exchange.hpp"
#include "engine/mpi/halo_exchange.hpp"
#include "engine/mpi/halo_plan.hpp"
#include "engine/unstructured/coloring.hpp"
#include "engine/unstructured/partition.hpp"
#include "solvers/unstructured/distributed_unstructured_euler.hpp"
#include "solvers/unstructured/unstructured_implicit.hpp"

namespace tessera {

// A rank's local mesh numbered for the distributed sweeps, the block pattern of its rows (colors
// over the owned rows), and per color the plan of the halo rows' updates.
struct ColorOrderedShare {
  unstructured::LocalMesh local;
  linalg::BlockPattern pattern;
  std::vector<mpi::HaloPlan> colorPlans;
};

// Collective: partitions the global mesh over comm's ranks (METIS), with the halo the scheme reads,
// and numbers this rank's share as described above.
inline ColorOrderedShare colorOrderedShare(MPI_Comm comm, const unstructured::Mesh& global,
                                           const UnstructuredScheme& scheme) {
  const unstructured::LocalMesh local = DistributedUnstructuredEuler::partitioned(
      comm, global, DistributedUnstructuredEuler::haloCells(scheme));
  const unstructured::Coloring globalColors = unstructured::colorCells(global);
  const int cells = local.mesh.numCells();
  unstructured::Coloring colors;
  colors.numColors = globalColors.numColors;
  for (int c = 0; c < cells; ++c)
    colors.color.push_back(globalColors.color[std::size_t(local.globalCell[std::size_t(c)])]);
  std::vector<bool> sent(std::size_t(cells), false);
  for (int c : local.halo.sendItems.indices)
    sent[std::size_t(c)] = true;
  linalg::ColoredCells colored =
      linalg::colorContiguousCells(local.mesh, sent, colors, local.numOwned);
  ColorOrderedShare share{
      unstructured::renumbered(local, colored.newToOld), std::move(colored.pattern), {}};
  std::vector<int> colorOfRow(static_cast<std::size_t>(cells));
  for (int row = 0; row < cells; ++row)
    colorOfRow[std::size_t(row)] = colors.color[std::size_t(colored.newToOld[std::size_t(row)])];
  share.colorPlans = mpi::splitByClass(share.local.halo, colorOfRow, colors.numColors);
  return share;
}

// The sweep exchange of a ColorOrderedShare: one halo exchange of 5 updates per row and color.
template <class Update>
class ColorHaloExchange final : public linalg::SweepExchange<Update> {
public:
  ColorHaloExchange(MPI_Comm comm, const std::vector<mpi::HaloPlan>& colorPlans,
                    MemorySpace space) {
    for (const mpi::HaloPlan& plan : colorPlans)
      exchanges_.emplace_back(comm, plan, 5, space);
  }
  void start(int color, const Update* dq) override { exchanges_[std::size_t(color)].start(dq); }
  void finish(int color, Update* dq) override { exchanges_[std::size_t(color)].finish(dq); }

private:
  std::vector<mpi::BasicHaloExchange<Update>> exchanges_;
};

template <class Precision>
class DistributedUnstructuredImplicit {
public:
  using Update = typename Precision::Update;

  // Collective over comm. boundary maps the global mesh's tags (DistributedUnstructuredEuler).
  DistributedUnstructuredImplicit(
      MPI_Comm comm, Euler<3> pde, const unstructured::Mesh& global, UnstructuredBoundary boundary,
      ImplicitSettings settings, MemorySpace space = MemorySpace::Host,
      UnstructuredScheme scheme = UnstructuredScheme::firstOrderRusanov())
      : share_(colorOrderedShare(comm, global, resolvedFor(scheme, global))),
        // Pseudo-time steps have CFL numbers of their own: the explicit CFL (0.9) goes unused.
        euler_(comm, pde, share_.local, global.numCells(), std::move(boundary), 0.9, space,
               resolvedFor(scheme, global)),
        sweepExchange_(comm, share_.colorPlans, euler_.solver().space()),
        implicit_(euler_.solver(), share_.pattern, settings,
                  ImplicitRows<Update>{comm, share_.local.numOwned, &sweepExchange_}) {}
  DistributedUnstructuredImplicit(const DistributedUnstructuredImplicit&) = delete;
  DistributedUnstructuredImplicit& operator=(const DistributedUnstructuredImplicit&) = delete;

  template <class ConservedAt>
  void initialise(ConservedAt&& conservedAt) {
    euler_.initialise(std::forward<ConservedAt>(conservedAt));
  }

  // Collective: steps until converged or settings.maxIterations steps, calling onStep(each
  // measurement); returns the last one (UnstructuredImplicit::solve).
  template <class OnStep>
  PseudoTimeStep solve(OnStep&& onStep) {
    for (;;) {
      const PseudoTimeStep s = measure();
      onStep(s);
      if (finished(s))
        return s;
      step(s.cfl);
    }
  }

  // The parts of solve(), for a caller that may stop in between (a checkpoint, a signal).
  // Collective: the residual of the current state and the CFL number of the next step.
  PseudoTimeStep measure() { return implicit_.measure(); }
  // Converged, or at settings.maxIterations.
  bool finished(const PseudoTimeStep& s) const {
    return implicit_.converged(s) || s.iteration >= implicit_.settings().maxIterations;
  }
  // Collective: one backward-Euler step from the state measure() saw, then the halo exchange.
  void step(double cfl) {
    implicit_.step(cfl);
    euler_.exchangeHalos();
  }

  // Collective: a checkpoint's owned states (ownedState's order) and the iteration's progress.
  void restore(std::span<const double> owned, const ImplicitProgress& progress) {
    euler_.restore(owned, 0.0, 0);
    implicit_.restore(progress);
  }
  int iteration() const { return implicit_.iteration(); }
  const ImplicitProgress& progress() const { return implicit_.progress(); }
  // Collective (UnstructuredImplicit::liveRelativeResidual).
  double liveRelativeResidual() { return implicit_.liveRelativeResidual(); }

  void setJacobianStrategy(atomics::Strategy strategy) { implicit_.setJacobianStrategy(strategy); }

  // The owned cells' states ([owned cell][5] conserved, local order), in host memory.
  std::vector<double> ownedState() const { return euler_.ownedState(); }
  const unstructured::LocalMesh& localMesh() const { return euler_.localMesh(); }
  int numColors() const { return share_.pattern.numColors(); }
  DistributedUnstructuredEuler& euler() { return euler_; }

private:
  ColorOrderedShare share_;
  DistributedUnstructuredEuler euler_;
  ColorHaloExchange<Update> sweepExchange_;
  UnstructuredImplicit<Precision> implicit_;
};

} // namespace tessera
