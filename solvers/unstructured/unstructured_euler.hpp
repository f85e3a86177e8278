#pragma once
// UnstructuredEuler: explicit finite volumes for the 3D Euler equations on the mixed-element mesh
// of engine/unstructured, first or second order (UnstructuredScheme), on the host (OpenMP) or
// resident on the device. The state is conserved, cell-major ([cell][5]). One step:
//   residual R_c = -(sum of the face fluxes F.S leaving cell c) of the scheme
//                  (solvers/unstructured/unstructured_residual.hpp): face scatters of 15
//                  (gradients) and 5 values per face (the atomics library: whichever strategy is
//                  set, same sums);
//   dt = cfl * min_c V_c / sum_{faces f of c} |S_f| lambda_f, lambda_f the larger of the two sides'
//                  |u.n| + c (another face scatter, 1 value, then a min-reduction);
//   the stages of an explicit SSP Runge-Kutta method (numerics/time/runge_kutta.hpp), each a
//                  forward-Euler step q += dt / V_c R_c combined with the step's first state.
// Boundary faces take part in the same scatters with the outer state of their tag's condition
// (solvers/unstructured/unstructured_boundary.hpp). On the device the mesh is uploaded once and
// only dt comes back per step.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/atomics/face_scatter_plan.hpp"
#include "engine/atomics/scatter_host.hpp"
#include "engine/atomics/strategy.hpp"
#include "engine/atomics/tuner.hpp"
#include "engine/device_array.hpp"
#include "engine/reduce.hpp"
#include "engine/require_device.hpp"
#include "engine/unstructured/mesh.hpp"
#include "numerics/time/runge_kutta.hpp"
#include "physics/state_check.hpp"
#include "solvers/unphysical_state.hpp"
#include "solvers/unstructured/mesh_loop_plan.hpp"
#include "solvers/unstructured/mesh_loops.hpp"
#include "solvers/unstructured/unstructured_boundary.hpp"
#include "solvers/unstructured/unstructured_euler_device.hpp"
#include "solvers/unstructured/unstructured_face_flux.hpp"
#include "solvers/unstructured/unstructured_residual.hpp"
#include "solvers/unstructured/unstructured_scheme.hpp"
#include "solvers/unstructured/wall_forces.hpp"

namespace tessera {

// The solver's face scatters: the residual's fluxes (5 values per face), the wave-speed sums of
// the time-step bound (1 value per face) and, at second order, the gradients (15 values per face).
enum class EulerScatter { Residual, WaveSpeed, Gradient };

inline constexpr std::array kEulerScatters = {EulerScatter::Residual, EulerScatter::WaveSpeed,
                                              EulerScatter::Gradient};

constexpr std::string_view eulerScatterName(EulerScatter s) {
  switch (s) {
  case EulerScatter::Residual:
    return "residual";
  case EulerScatter::WaveSpeed:
    return "wave_speed";
  default:
    return "gradient";
  }
}

class UnstructuredEuler {
public:
  using State = Euler<3>::State;
  static constexpr int kNumVars = Euler<3>::kNumVars;

  // The scheme defaults to Tessera's first unstructured scheme, first-order Rusanov fluxes with
  // forward Euler steps; a case chooses its own (tools/tessera: second order by default). An auto
  // gradient is resolved for this mesh (resolvedFor; scheme() gives the result).
  // Throws std::invalid_argument naming the tag of a boundary face without a condition, and (for
  // MemorySpace::Device) std::runtime_error where no device can be used (requireDevice()).
  UnstructuredEuler(Euler<3> pde, unstructured::Mesh mesh, UnstructuredBoundary boundary,
                    double cfl, MemorySpace space = MemorySpace::Host,
                    UnstructuredScheme scheme = UnstructuredScheme::firstOrderRusanov(),
                    RungeKutta integrator = kForwardEuler)
      : pde_(pde), mesh_(std::move(mesh)), boundary_(std::move(boundary)), cfl_(cfl),
        space_(checkedSpace(space)), scheme_(resolvedFor(scheme, mesh_)), integrator_(integrator),
        kind_(toSpace(faceKinds(mesh_, boundary_.kindOfTag), space_)),
        plan_(mesh_, space_,
              scheme_.secondOrder() && scheme_.gradient == UnstructuredGradient::NodeLeastSquares
                  ? unstructured::GradientStencil::NodeNeighbours
                  : unstructured::GradientStencil::FaceNeighbours),
        area_(toSpace(unstructured::flattened(mesh_.faceArea), space_)),
        volume_(toSpace(mesh_.cellVolume, space_)), q_(std::size_t(kNumVars) * numCells(), space_),
        residual_(q_.size(), space_), speedSum_(std::size_t(numCells()), space_),
        cellStep_(std::size_t(numCells()), space_), w_(q_.size(), space_) {
    listWallFaces();
    if (integrator_.stages > 1)
      q0_ = DeviceArray<double>(q_.size(), space_);
    if (scheme_.secondOrder()) {
      grad_ = DeviceArray<double>(3 * q_.size(), space_);
      minMax_ = DeviceArray<double>(2 * q_.size(), space_);
      phi_ = DeviceArray<double>(q_.size(), space_);
      if (scheme_.gradient == UnstructuredGradient::GreenGauss)
        qNode_ = DeviceArray<double>(std::size_t(kNumVars) * std::size_t(mesh_.numNodes()), space_);
    }
  }

  // Sets every cell to conservedAt(its centroid).
  template <class ConservedAt>
  void initialise(ConservedAt&& conservedAt) {
    std::vector<double> q(q_.size());
    for (int c = 0; c < numCells(); ++c) {
      const auto& x = mesh_.cellCentroid[std::size_t(c)];
      const State s = conservedAt(Vec<double, 3>{{x[0], x[1], x[2]}});
      for (int v = 0; v < kNumVars; ++v)
        q[std::size_t(kNumVars * c + v)] = s[v];
    }
    q_.copyFromHost(q);
  }

  // A checkpoint's state ([cell][5] conserved) for the first cells (all of them on one rank; a
  // distributed solver's owned cells, whose halo copies its next exchange brings), with the time
  // and step count it had.
  void restore(std::span<const double> firstCells, double time, long long step) {
    if (firstCells.size() > q_.size() || firstCells.size() % kNumVars != 0)
      throw std::invalid_argument(
          "UnstructuredEuler::restore: " + std::to_string(firstCells.size()) + " values for " +
          std::to_string(numCells()) + " cells");
    std::vector<double> q = hostState();
    std::copy(firstCells.begin(), firstCells.end(), q.begin());
    q_.copyFromHost(q);
    time_ = time;
    step_ = step;
  }

  // Each face scatter has its own strategy: their K differ (5, 1 and 15), and so does the
  // fastest. Any strategy gives the same sums up to the order of the additions.
  void setStrategy(EulerScatter which, atomics::Strategy s) { strategySlot(which) = s; }
  void setStrategy(atomics::Strategy s) {
    for (EulerScatter which : kEulerScatters)
      setStrategy(which, s);
  }
  atomics::Strategy strategy(EulerScatter which) const {
    return const_cast<UnstructuredEuler*>(this)->strategySlot(which);
  }

  // Times one scatter on the current state with each candidate (into its own work array, which
  // every step overwrites) and keeps the fastest for it. Collective where the solver is a
  // distributed one's share: its residual exchanges halos, so the ranks agree on how often to run
  // each candidate (setHaloUpdates' slowestRank).
  atomics::TunerChoice tuneStrategy(EulerScatter which,
                                    std::span<const atomics::Strategy> candidates) {
    atomics::TunerChoice choice = atomics::tuneStrategy(
        candidates,
        [&](atomics::Strategy s) {
          if (which == EulerScatter::Residual)
            computeResidual({strategy(EulerScatter::Gradient), s});
          else if (which == EulerScatter::WaveSpeed)
            computeWaveSpeedSums(s);
          else
            computeResidual({s, strategy(EulerScatter::Residual)});
        },
        atomics::kTunerRepetitions, atomics::kTunerTimedSeconds, slowestRank_);
    setStrategy(which, choice.strategy);
    return choice;
  }

  // The largest stable step of the current state. Throws UnphysicalStateError naming the first
  // cell without positive density and pressure (or with a non-finite state).
  double stableDt() {
    if (space_ == MemorySpace::Host) {
      computeWaveSpeedSums(waveSpeedStrategy_);
      const double* q = q_.data();
      const double* volume = volume_.data();
      const double* speedSum = speedSum_.data();
      double* cellStep = cellStep_.data();
      const int cells = numCells();
#pragma omp parallel for schedule(static)
      for (int c = 0; c < cells; ++c)
        cellStep[c] = cellStableStep(pde_, q + kNumVars * c, volume[c], speedSum[c]);
    } else if constexpr (kDeviceBuilt) {
      computeWaveSpeedSums(waveSpeedStrategy_);
      eulerCellStepsDevice(numCells(), pde_, q_.data(), volume_.data(), speedSum_.data(),
                           cellStep_.data());
    }
    const double smallest = reduce(cellStep_, ReduceKind::Min);
    if (!(smallest > 0.0))
      throwUnphysical();
    return cfl_ * smallest;
  }

  // One step of the integrator. Between stages afterStage(state) runs: a distributed solver
  // brings its halo cells' states there (setHaloUpdates).
  void advance(double dt) {
    if (integrator_.stages > 1)
      q0_.copyFrom(q_);
    for (int s = 0; s < integrator_.stages; ++s) {
      if (s > 0 && haloStates_)
        haloStates_(q_.data());
      computeResidual(strategies());
      const RungeKuttaStage stage = integrator_.stage[s];
      if (space_ == MemorySpace::Host) {
        double* q = q_.data();
        const double* q0 = integrator_.stages > 1 ? q0_.data() : q;
        const double* volume = volume_.data();
        const double* residual = residual_.data();
        const int cells = numCells();
#pragma omp parallel for schedule(static)
        for (int c = 0; c < cells; ++c)
          rungeKuttaStage(stage, dt / volume[c], q0 + kNumVars * c, residual + kNumVars * c,
                          q + kNumVars * c);
      } else if constexpr (kDeviceBuilt) {
        rungeKuttaStageDevice(numCells(), stage, volume_.data(),
                              integrator_.stages > 1 ? q0_.data() : q_.data(), residual_.data(), dt,
                              q_.data());
      }
    }
    time_ += dt;
    ++step_;
  }

  // Advances to exactly `time` (an output or end time): time_ + (time - time_) may round off it.
  void advanceTo(double time) {
    advance(time - time_);
    time_ = time;
  }

  // The residual of the current state, V dq/dt per cell ([cell][5]), in host memory.
  std::vector<double> residual() {
    computeResidual(strategies());
    std::vector<double> r(residual_.size());
    residual_.copyToHost(r);
    return r;
  }

  // Sum over cells of each conserved variable times the cell volume, compensated (Neumaier), so
  // that a conservation check sees the state's change rather than the round-off of a plain sum
  // (up to N epsilon relative over N cells).
  State conservedTotals() const {
    return conservedTotals(numCells());
  }
  // The same over cells [0, cells): a distributed solver's owned cells.
  State conservedTotals(int cells) const {
    const std::vector<double>& q = hostState();
    State total = State::filled(0.0), lost = State::filled(0.0);
    for (int c = 0; c < cells; ++c)
      for (int v = 0; v < kNumVars; ++v) {
        const double term = mesh_.cellVolume[std::size_t(c)] * q[std::size_t(kNumVars * c + v)];
        const double sum = total[v] + term;
        lost[v] += std::fabs(total[v]) >= std::fabs(term) ? (total[v] - sum) + term
                                                          : (term - sum) + total[v];
        total[v] = sum;
      }
    for (int v = 0; v < kNumVars; ++v)
      total[v] += lost[v];
    return total;
  }

  // The current state in host memory ([cell][5] conserved): a device solver copies it over on
  // each call.
  const std::vector<double>& hostState() const {
    hostMirror_.resize(q_.size());
    q_.copyToHost(hostMirror_);
    return hostMirror_;
  }

  // What an implicit solver (solvers/unstructured/unstructured_implicit.hpp) builds on, in the
  // solver's memory space: the residual of the current state and each cell's own stable step V_c /
  // sum |S| lambda (both computed by the call, which throws as stableDt does on an unphysical
  // state), the state it updates, the cell volumes, the faces and their scatter plan.
  const double* currentResidual() {
    computeResidual(strategies());
    return residual_.data();
  }
  const double* localStableSteps() {
    stableDt();
    return cellStep_.data();
  }
  double* stateData() {
    return q_.data();
  }
  const double* volumes() const {
    return volume_.data();
  }
  UnstructuredFaces faces() const {
    const atomics::FaceTopology t = plan_.scatter().topology();
    return {t.owner, t.neighbour, area_.data(), kind_.data()};
  }
  const atomics::FaceScatterPlan& scatterPlan() const {
    return plan_.scatter();
  }

  // Where a distributed solver brings its halo cells' values from their owners: their states
  // between Runge-Kutta stages, their limited gradients ([cell][5][3]) inside each second-order
  // residual, after the owned cells' are computed. The residual is then collective, and
  // slowestRank gives the ranks one time to decide from where the tuner decides by time.
  void setHaloUpdates(std::function<void(double*)> states, std::function<void(double*)> gradients,
                      atomics::SlowestRank slowestRank) {
    haloStates_ = std::move(states);
    haloGradients_ = std::move(gradients);
    slowestRank_ = std::move(slowestRank);
  }
  // Collective where the solver is distributed: the halo cells' states from their owners (after an
  // implicit solver changed the owned states, say); nothing on one rank.
  void exchangeHaloStates() {
    if (haloStates_)
      haloStates_(q_.data());
  }

  // Limiter freezing: while frozen, the residual applies the limiter factors of the last one
  // computed rather than new ones, so that the limiter's switching cannot stall a steady
  // residual (Venkatakrishnan 1995). Meaningful once a second-order residual has been computed.
  void freezeLimiter(bool frozen) {
    limiterFrozen_ = frozen && scheme_.secondOrder();
  }
  bool limiterFrozen() const {
    return limiterFrozen_;
  }

  // While forced, a second-order scheme's residual is its first-order one (no gradients): the
  // start of an implicit run that asks for one.
  void forceFirstOrder(bool forced) {
    firstOrderForced_ = forced;
  }

  // The faces of the last residual whose reconstructed states were no gas, so that their fluxes
  // fell back to the cells' own states (0 at first order).
  long long firstOrderFaces() {
    if (!reconstructs())
      return 0;
    DeviceArray<double> flag(std::size_t(mesh_.numFaces()), space_);
    const ResidualArrays a = arrays();
    if (space_ == MemorySpace::Host)
      flagFirstOrderFaces<unstructured::HostExecution>(plan_, pde_, faces(), a, flag.data());
    else if constexpr (kDeviceBuilt)
      flagFirstOrderFacesDevice(plan_, pde_, faces(), a, flag.data());
    return std::llround(reduce(flag, ReduceKind::Sum));
  }

  // The force and moment (about `centre`) on each slip-wall tag, summed over the wall faces whose
  // owner is among the first ownedCells cells (all: -1), in increasing tag order. Of the current
  // state; fromLastResidual: of the state of the last residual evaluation instead, which saves
  // computing another (an implicit iteration's measurement has just computed it).
  std::vector<TagForce> wallForces(const Vector3& centre, int ownedCells = -1,
                                   bool fromLastResidual = false) {
    if (!fromLastResidual)
      computeResidual(strategies());
    const std::size_t listed = wallFaceList_.size();
    DeviceArray<double> out(6 * listed, space_);
    const Vec<double, 3> reference{{centre[0], centre[1], centre[2]}};
    if (listed > 0) {
      if (space_ == MemorySpace::Host) {
        withUnstructuredFlux(scheme_.flux, [&]<class RiemannSolver>() {
          unstructured::HostExecution::forEach(
              int(listed),
              WallFaceForce<RiemannSolver>{musclFlux<RiemannSolver>(), wallFaces_.data(),
                                           wallCentroid_.data(), reference, out.data()});
        });
      } else if constexpr (kDeviceBuilt) {
        wallFaceForcesDevice(scheme_, musclFluxParts(), int(listed), wallFaces_.data(),
                             wallCentroid_.data(), reference, out.data());
      }
    }
    std::vector<double> values(out.size());
    out.copyToHost(values);
    std::vector<TagForce> forces;
    for (const auto& [tag, kind] : boundary_.kindOfTag)
      if (kind == FaceKind::SlipWall)
        forces.push_back({tag, {}, {}});
    for (std::size_t i = 0; i < listed; ++i) {
      const std::size_t f = std::size_t(wallFaceList_[i]);
      if (ownedCells >= 0 && mesh_.owner[f] >= ownedCells)
        continue;
      TagForce& sum = *std::find_if(forces.begin(), forces.end(),
                                    [&](const TagForce& t) { return t.tag == mesh_.faceTag[f]; });
      for (std::size_t a = 0; a < 3; ++a) {
        sum.force[a] += values[6 * i + a];
        sum.moment[a] += values[6 * i + 3 + a];
      }
    }
    return forces;
  }

  // The slip-wall faces (mesh indices, in the order wallForces lists them) whose owner is among
  // the first ownedCells cells (all: -1), and the reconstructed inner state of each ([face][5]
  // conserved) of the current state (fromLastResidual: of the last residual's, as wallForces).
  struct WallSurface {
    std::vector<int> faces;
    std::vector<double> states;
  };
  WallSurface wallSurface(int ownedCells = -1, bool fromLastResidual = false) {
    if (!fromLastResidual)
      computeResidual(strategies());
    const std::size_t listed = wallFaceList_.size();
    DeviceArray<double> out(5 * listed, space_);
    if (listed > 0) {
      const InnerFaceStates body{musclFluxParts(), wallFaces_.data(), out.data()};
      if (space_ == MemorySpace::Host)
        unstructured::HostExecution::forEach(int(listed), body);
      else if constexpr (kDeviceBuilt)
        innerFaceStatesDevice(int(listed), body);
    }
    std::vector<double> states(out.size());
    out.copyToHost(states);
    WallSurface surface;
    for (std::size_t i = 0; i < listed; ++i) {
      const int f = wallFaceList_[i];
      if (ownedCells >= 0 && mesh_.owner[std::size_t(f)] >= ownedCells)
        continue;
      surface.faces.push_back(f);
      surface.states.insert(surface.states.end(), states.begin() + std::ptrdiff_t(5 * i),
                            states.begin() + std::ptrdiff_t(5 * i + 5));
    }
    return surface;
  }

  // The unlimited least-squares gradients of the current state's primitive variables
  // ([cell][5][3]: rho, u, v, w, p), in host memory: what vorticity and schlieren output show.
  std::vector<double> primitiveGradients() {
    DeviceArray<double> grad(3 * q_.size(), space_);
    const PrimitiveCells primitives{pde_, q_.data(), w_.data()};
    const atomics::Strategy s = gradientStrategy_;
    if (space_ == MemorySpace::Host) {
      unstructured::HostExecution::forEach(numCells(), primitives);
      unstructured::leastSquaresGradientHost(plan_, unstructured::LoopMode::Face, s, w_.data(),
                                             grad.data());
    } else if constexpr (kDeviceBuilt) {
      primitiveCellsDevice(numCells(), primitives);
      unstructured::leastSquaresGradientDevice(plan_, unstructured::LoopMode::Face, s, w_.data(),
                                               grad.data());
    }
    std::vector<double> values(grad.size());
    grad.copyToHost(values);
    return values;
  }

  const UnstructuredBoundary& boundary() const {
    return boundary_;
  }
  const UnstructuredScheme& scheme() const {
    return scheme_;
  }
  const RungeKutta& integrator() const {
    return integrator_;
  }
  const Euler<3>::State& farfield() const {
    return boundary_.farfield;
  }

  const Euler<3>& pde() const {
    return pde_;
  }
  const unstructured::Mesh& mesh() const {
    return mesh_;
  }
  MemorySpace space() const {
    return space_;
  }
  int numCells() const {
    return mesh_.numCells();
  }
  double time() const {
    return time_;
  }
  long long step() const {
    return step_;
  }

private:
  static constexpr bool kDeviceBuilt = compiledDeviceBackend() != Backend::Host;

  static MemorySpace checkedSpace(MemorySpace space) {
    if (space == MemorySpace::Device)
      requireDevice();
    return space;
  }

  static void fillHost(DeviceArray<double>& array, double value) {
    double* data = array.data();
    const std::ptrdiff_t n = std::ptrdiff_t(array.size());
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i)
      data[i] = value;
  }

  ResidualStrategies strategies() const {
    return {gradientStrategy_, residualStrategy_};
  }

  atomics::Strategy& strategySlot(EulerScatter which) {
    switch (which) {
    case EulerScatter::Residual:
      return residualStrategy_;
    case EulerScatter::WaveSpeed:
      return waveSpeedStrategy_;
    default:
      return gradientStrategy_;
    }
  }

  // The slip-wall faces and their centroids (for wallForces and wallSurface).
  void listWallFaces() {
    std::vector<double> centroids;
    for (int f = 0; f < mesh_.numFaces(); ++f) {
      if (mesh_.neighbour[std::size_t(f)] >= 0)
        continue;
      const auto kind = boundary_.kindOfTag.find(mesh_.faceTag[std::size_t(f)]);
      if (kind == boundary_.kindOfTag.end() || kind->second != FaceKind::SlipWall)
        continue;
      wallFaceList_.push_back(f);
      const auto& x = mesh_.faceCentroid[std::size_t(f)];
      centroids.insert(centroids.end(), x.begin(), x.end());
    }
    wallFaces_ = toSpace(wallFaceList_, space_);
    wallCentroid_ = toSpace(centroids, space_);
  }

  // The residual's face flux on the current work arrays (second order: the last residual's
  // primitive variables and limited gradients).
  MusclFluxParts musclFluxParts() {
    return {pde_,
            faces(),
            plan_.view().faceOffset,
            w_.data(),
            reconstructs() ? grad_.data() : nullptr,
            boundary_.farfield};
  }
  template <class RiemannSolver>
  MusclFaceFlux<RiemannSolver> musclFlux() {
    const MusclFluxParts p = musclFluxParts();
    return {p.pde, p.faces, p.faceOffset, p.w, p.grad, p.farfield};
  }

  ResidualArrays arrays() {
    return {q_.data(),      w_.data(),   qNode_.data(),   grad_.data(),
            minMax_.data(), phi_.data(), residual_.data()};
  }

  bool reconstructs() const {
    return scheme_.secondOrder() && !firstOrderForced_;
  }

  // residual_ = the flux contributions of the current state, with the given strategies.
  void computeResidual(ResidualStrategies s) {
    UnstructuredScheme scheme = scheme_;
    if (!reconstructs())
      scheme.reconstruction = UnstructuredReconstruction::FirstOrder;
    const ResidualArrays a = arrays();
    const auto afterLimiter = [this](double* grad) {
      if (haloGradients_)
        haloGradients_(grad);
    };
    if (space_ == MemorySpace::Host) {
      unstructuredResidual<unstructured::HostExecution>(
          plan_, pde_, scheme, faces(), boundary_.farfield, s, a, limiterFrozen_, afterLimiter);
    } else if constexpr (kDeviceBuilt) {
      unstructuredResidualDevice(plan_, pde_, scheme, faces(), boundary_.farfield, s, a,
                                 limiterFrozen_, afterLimiter);
    }
  }

  // speedSum_ = each cell's sum over its faces of |S| lambda, with strategy s.
  void computeWaveSpeedSums(atomics::Strategy s) {
    const EulerFaceSpeed speed{pde_, faces(), q_.data(), boundary_.farfield};
    if (space_ == MemorySpace::Host) {
      fillHost(speedSum_, 0.0);
      atomics::scatterFacesHost<1>(plan_.scatter(), s, speed, speedSum_.data());
    } else if constexpr (kDeviceBuilt) {
      eulerWaveSpeedSumsDevice(plan_.scatter(), s, speed, speedSum_.data());
    }
  }

  // The error path of stableDt. It names the first cell whose own state fails and the quantity
  // that does (physics/state_check.hpp: a conserved variable that is not finite, then density,
  // then pressure). A cell's step bound also fails where only a neighbour's state (or a
  // boundary's outer state) does, so the bound alone does not say which cell is at fault; where
  // no state fails, the cell with the smallest bound and its wave-speed sum are named.
  [[noreturn]] void throwUnphysical() const {
    const std::vector<double>& q = hostState();
    char message[320];
    for (std::size_t c = 0; c < std::size_t(numCells()); ++c) {
      State s;
      for (int v = 0; v < kNumVars; ++v)
        s[v] = q[kNumVars * c + std::size_t(v)];
      const std::string failed = unphysicalQuantity(pde_, s);
      if (failed.empty())
        continue;
      const auto& x = mesh_.cellCentroid[c];
      std::snprintf(message, sizeof message, "cell %zu at (%g, %g, %g): %s", c, x[0], x[1], x[2],
                    failed.c_str());
      throw UnphysicalStateError(message);
    }
    std::vector<double> steps(cellStep_.size()), sums(speedSum_.size());
    cellStep_.copyToHost(steps);
    speedSum_.copyToHost(sums);
    const std::size_t c = std::size_t(std::min_element(steps.begin(), steps.end()) - steps.begin());
    const auto& x = mesh_.cellCentroid[c];
    std::snprintf(message, sizeof message,
                  "cell %zu at (%g, %g, %g): its faces' wave speeds sum to %g (a boundary's outer "
                  "state is not a gas)",
                  c, x[0], x[1], x[2], sums[c]);
    throw UnphysicalStateError(message);
  }

  Euler<3> pde_;
  unstructured::Mesh mesh_;
  UnstructuredBoundary boundary_;
  double cfl_;
  MemorySpace space_;
  UnstructuredScheme scheme_;
  RungeKutta integrator_;
  atomics::Strategy residualStrategy_ = atomics::Strategy::GlobalAtomic;
  atomics::Strategy waveSpeedStrategy_ = atomics::Strategy::GlobalAtomic;
  atomics::Strategy gradientStrategy_ = atomics::Strategy::GlobalAtomic;
  DeviceArray<FaceKind> kind_;
  unstructured::MeshLoopPlan plan_;
  DeviceArray<double> area_, volume_;
  DeviceArray<double> q_, residual_, speedSum_, cellStep_;
  // The residual's work arrays (second order only: qNode_ for Green-Gauss, grad_, minMax_, phi_)
  // and the step's first state (Runge-Kutta methods of more than one stage).
  DeviceArray<double> w_, qNode_, grad_, minMax_, phi_, q0_;
  std::function<void(double*)> haloStates_, haloGradients_;
  atomics::SlowestRank slowestRank_;
  std::vector<int> wallFaceList_; // in host memory; wallFaces_ the same in the solver's
  DeviceArray<int> wallFaces_;
  DeviceArray<double> wallCentroid_;
  bool limiterFrozen_ = false;
  bool firstOrderForced_ = false;
  mutable std::vector<double> hostMirror_;
  double time_ = 0.0;
  long long step_ = 0;
};

} // namespace tessera
