#pragma once
// DistributedUnstructuredEuler: UnstructuredEuler on MPI ranks. Every rank partitions the global
// mesh the same way (METIS, engine/unstructured/partition.hpp) and steps its local mesh, its owned
// cells followed by halo cells copied from their owners. One step:
//   dt = the minimum over ranks of each rank's stable step (a halo cell's bound only counts the
//        faces its rank holds, so it is never below the owner's: the minimum is the one-rank dt);
//   advance every local cell (the halo cells' new values are meaningless), with an exchange of the
//        halo cells' states between Runge-Kutta stages and, at second order, of their limited
//        gradients inside each residual (computed for the owned cells, whose neighbours are all
//        held);
//   exchange: each halo cell gets its owner's new state.
// An owned cell sees all its faces and its neighbours' current states and gradients, so its update
// is the one-rank update up to the order in which its face fluxes add. Green-Gauss gradients read
// node values, so their halo holds every cell that shares a node with an owned cell.
//
// The state lives in the solver's memory space. On the device the exchange packs the halo values
// there and stages the messages through host memory for MPI, which need not be GPU-aware
// (engine/mpi/halo_exchange.hpp).
#include <cmath>
#include <cstddef>
#include <mpi.h>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/mpi/first_message.hpp"
#include "engine/mpi/halo_exchange.hpp"
#include "engine/mpi/longest_over_ranks.hpp"
#include "engine/unstructured/partition.hpp"
#include "solvers/unstructured/unstructured_euler.hpp"

namespace tessera {

class DistributedUnstructuredEuler {
public:
  using State = UnstructuredEuler::State;
  static constexpr int kNumVars = UnstructuredEuler::kNumVars;

  // Collective over comm. boundary maps the global mesh's tags; the local meshes' partition faces
  // (which only close halo cells) get an outflow condition of their own.
  DistributedUnstructuredEuler(MPI_Comm comm, Euler<3> pde, const unstructured::Mesh& global,
                               UnstructuredBoundary boundary, double cfl,
                               MemorySpace space = MemorySpace::Host,
                               UnstructuredScheme scheme = UnstructuredScheme::firstOrderRusanov(),
                               RungeKutta integrator = kForwardEuler)
      : DistributedUnstructuredEuler(
            comm, pde, partitioned(comm, global, haloCells(resolvedFor(scheme, global))),
            global.numCells(), std::move(boundary), cfl, space, resolvedFor(scheme, global),
            integrator) {}

  // The same on a local mesh made already (unstructured::localMesh with haloCells(scheme), perhaps
  // renumbered), for a scheme resolved on the global mesh (resolvedFor): a rank's share alone
  // could resolve an auto gradient differently from another's. Throws std::invalid_argument for an
  // auto gradient.
  DistributedUnstructuredEuler(MPI_Comm comm, Euler<3> pde, unstructured::LocalMesh local,
                               int numGlobalCells, UnstructuredBoundary boundary, double cfl,
                               MemorySpace space = MemorySpace::Host,
                               UnstructuredScheme scheme = UnstructuredScheme::firstOrderRusanov(),
                               RungeKutta integrator = kForwardEuler)
      : comm_(comm), numGlobalCells_(numGlobalCells), local_(std::move(local)),
        solver_(pde, local_.mesh, withPartitionFaces(std::move(boundary), local_.partitionTag), cfl,
                space, resolvedOnTheGlobalMesh(scheme), integrator),
        halo_(comm, local_.halo, kNumVars, solver_.space()),
        gradientHalo_(comm, local_.halo, 3 * kNumVars, solver_.space()) {
    solver_.setHaloUpdates(
        [this](double* q) { halo_.exchange(q); },
        [this](double* grad) { gradientHalo_.exchange(grad); },
        [this](double seconds) { return mpi::longestOverRanks(comm_, seconds); });
  }

  // The solver hands its own address to its local solver's halo updates: it stays where it is.
  DistributedUnstructuredEuler(const DistributedUnstructuredEuler&) = delete;
  DistributedUnstructuredEuler& operator=(const DistributedUnstructuredEuler&) = delete;

  // Sets every local cell (owned and halo) to conservedAt(its centroid): the halo cells start
  // equal to their owners without an exchange.
  template <class ConservedAt>
  void initialise(ConservedAt&& conservedAt) {
    solver_.initialise(std::forward<ConservedAt>(conservedAt));
  }

  // Collective: the owned cells' states ([owned cell][5], local order) of a checkpoint, the time
  // and step count it had; then the halo exchange.
  void restore(std::span<const double> owned, double time, long long step) {
    if (owned.size() != std::size_t(kNumVars) * std::size_t(local_.numOwned))
      throw std::invalid_argument(
          "DistributedUnstructuredEuler::restore: " + std::to_string(owned.size()) +
          " values for " + std::to_string(local_.numOwned) + " owned cells");
    solver_.restore(owned, time, step);
    exchangeHalos();
  }

  // Collective: the global stable step; an unphysical state on any rank throws
  // UnphysicalStateError on every rank with the same message.
  double stableDt() {
    double local = INFINITY, global = 0.0;
    std::string problem;
    try {
      local = solver_.stableDt();
    } catch (const UnphysicalStateError& e) {
      problem = e.what();
    }
    problem = mpi::firstMessage(comm_, problem);
    if (!problem.empty())
      throw UnphysicalStateError(problem);
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MIN, comm_);
    return global;
  }

  // Collective: one step of dt, then the halo exchange.
  void advance(double dt) {
    solver_.advance(dt);
    halo_.exchange(solver_.stateData());
  }

  // Collective: advances to exactly `time` (an output or end time), then the halo exchange.
  void advanceTo(double time) {
    solver_.advanceTo(time);
    halo_.exchange(solver_.stateData());
  }

  // Collective: the force and moment on each slip-wall tag (UnstructuredEuler::wallForces), summed
  // over the ranks' owned cells' wall faces.
  std::vector<TagForce> wallForces(const Vector3& centre, bool fromLastResidual = false) {
    std::vector<TagForce> forces = solver_.wallForces(centre, local_.numOwned, fromLastResidual);
    std::vector<double> values;
    for (const TagForce& t : forces) {
      values.insert(values.end(), t.force.begin(), t.force.end());
      values.insert(values.end(), t.moment.begin(), t.moment.end());
    }
    MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_SUM, comm_);
    for (std::size_t i = 0; i < forces.size(); ++i)
      for (std::size_t a = 0; a < 3; ++a) {
        forces[i].force[a] = values[6 * i + a];
        forces[i].moment[a] = values[6 * i + 3 + a];
      }
    return forces;
  }

  // This rank's part of the walls' surface: the wall faces of its owned cells and their inner
  // states (UnstructuredEuler::wallSurface).
  UnstructuredEuler::WallSurface wallSurface(bool fromLastResidual = false) {
    return solver_.wallSurface(local_.numOwned, fromLastResidual);
  }

  // Collective: each halo cell gets its owner's current state.
  void exchangeHalos() { halo_.exchange(solver_.stateData()); }

  // Collective: the owned cells' volume-weighted totals (compensated on each rank) summed over
  // the ranks.
  State conservedTotals() const {
    const State local = solver_.conservedTotals(local_.numOwned);
    State global = State::filled(0.0);
    MPI_Allreduce(local.v, global.v, kNumVars, MPI_DOUBLE, MPI_SUM, comm_);
    return global;
  }

  // The owned cells' states ([owned cell][5] conserved), in host memory.
  std::vector<double> ownedState() const {
    const std::vector<double>& q = solver_.hostState();
    return {q.begin(), q.begin() + std::ptrdiff_t(kNumVars) * local_.numOwned};
  }

  const unstructured::LocalMesh& localMesh() const { return local_; }
  // The rank's local solver (owned and halo cells): for tuning its scatters and for output.
  UnstructuredEuler& solver() { return solver_; }
  const UnstructuredEuler& solver() const { return solver_; }
  int numGlobalCells() const { return numGlobalCells_; }
  double time() const { return solver_.time(); }
  long long step() const { return solver_.step(); }

  // The halo a resolved scheme reads: node neighbours for Green-Gauss and node-neighbour
  // least-squares gradients, face neighbours else.
  static unstructured::HaloCells haloCells(const UnstructuredScheme& scheme) {
    return readsNodeNeighbours(scheme) ? unstructured::HaloCells::NodeNeighbours
                                       : unstructured::HaloCells::FaceNeighbours;
  }

  // This rank's share of the global mesh, partitioned by METIS over comm's ranks.
  static unstructured::LocalMesh
  partitioned(MPI_Comm comm, const unstructured::Mesh& global,
              unstructured::HaloCells reach = unstructured::HaloCells::FaceNeighbours) {
    int rank = 0, ranks = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &ranks);
    return unstructured::localMesh(global, unstructured::partitionCells(global, ranks), rank,
                                   reach);
  }

private:
  static const UnstructuredScheme& resolvedOnTheGlobalMesh(const UnstructuredScheme& scheme) {
    if (scheme.secondOrder() && scheme.gradient == UnstructuredGradient::Auto)
      throw std::invalid_argument("DistributedUnstructuredEuler: an auto gradient must be resolved "
                                  "on the global mesh (resolvedFor) before the mesh is shared out");
    return scheme;
  }

  static UnstructuredBoundary withPartitionFaces(UnstructuredBoundary boundary, int partitionTag) {
    boundary.kindOfTag[partitionTag] = FaceKind::Outflow;
    return boundary;
  }

  MPI_Comm comm_;
  int numGlobalCells_;
  unstructured::LocalMesh local_;
  UnstructuredEuler solver_;
  mpi::HaloExchange halo_, gradientHalo_;
};

} // namespace tessera
