#pragma once
// UnstructuredImplicit: backward-Euler pseudo-time stepping of an UnstructuredEuler's state to its
// steady state, with the multicolor point-implicit solver of engine/linalg (seed 002). Each step
// solves
//   (V_c / dtau_c I - dR/dq) dQ = R,  then q += dQ,
// R = V dq/dt = -(the Rusanov fluxes leaving each cell), linearised with the Rusanov coefficient
// held fixed (solvers/unstructured/euler_jacobian.hpp), and local pseudo-time steps dtau_c = CFL
// V_c / sum over c's faces of |S| lambda (the explicit solver's per-cell bound times CFL, so V_c /
// dtau_c = sum |S| lambda / CFL).
//
// CFL: switched evolution relaxation (Mulder and van Leer), CFL_k = s min(CFL_max, CFL_0
// max(1, |R_0| / |R_k|)): Newton-like steps as the residual falls, without a schedule to tune per
// case. Not below CFL_0 while a transient raises the residual above the first: the relaxed update
// keeps those steps physical, and on the transonic wing (examples/unstructured/wing, 36k
// tetrahedra) the floor took 594 iterations to 8 orders where SER's own CFL, down to 2, took 1059.
// |R| is the L2 norm of the density residual; the iteration stops once it has dropped by
// residualDrop relative to the first, or after maxIterations steps.
//
// No step leaves the gas: each cell's update is under-relaxed until its density and pressure
// change by at most 20% (solvers/unstructured/relaxed_update.hpp), and a step that had to cut some
// cell's update below a tenth cuts the scale s of the CFL numbers that follow tenfold; every step
// taken whole doubles it again, up to 1 (SU2's and FUN3D's adaptive CFL). Newton-Krylov's scale
// grows after any step not cut that lowered the residual, and past 1 (adaptCfl).
//
// At second order: the first steps may use the first-order residual (a start for flows whose
// first second-order steps are too violent: firstOrderIterations of them, or until the residual
// has dropped by firstOrderDrop), and the limiter is frozen once the residual stalls (after its
// first drop by 10, no halving in stallIterations steps or in twice the steps its halvings took,
// none of them back above a tenth of the first: residual_stall.hpp) or falls to
// freezeLimiterBelow, so that its switching near shocks cannot hold the convergence up
// (Venkatakrishnan 1995). Freezing changes the converged state (the factors are those of the
// state at the freeze), so it is left to a stall, and the factors are taken anew at each further
// drop of the residual by 1000 (refreshFrozenLimiter): the transonic NACA 0012 converges 8
// orders unfrozen on its 128 mesh.
//
// The matrix's block rows are the solver's cells, which must be numbered so that each color is
// contiguous: build the solver on colorContiguousMesh(mesh).mesh and pass its pattern.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <mpi.h>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/atomics/scatter_host.hpp"
#include "engine/device_array.hpp"
#include "engine/linalg/block_matrix.hpp"
#include "engine/linalg/block_pattern.hpp"
#include "engine/linalg/flexible_gmres.hpp"
#include "engine/linalg/multicolor_sweeps.hpp"
#include "engine/linalg/sweep_exchange.hpp"
#include "engine/linalg/vector_ops.hpp"
#include "engine/mpi/rank_count.hpp"
#include "engine/reduce.hpp"
#include "engine/unstructured/renumbering.hpp"
#include "solvers/unstructured/matrix_free_product.hpp"
#include "solvers/unstructured/relaxed_update.hpp"
#include "solvers/unstructured/residual_stall.hpp"
#include "solvers/unstructured/unstructured_euler.hpp"
#include "solvers/unstructured/unstructured_face_jacobian.hpp"
#include "solvers/unstructured/unstructured_implicit_device.hpp"

namespace tessera {

// How each pseudo-time step's linear system is solved: the multicolor sweeps alone (with the
// first-order matrix: defect correction at second order), or Newton-Krylov: flexible GMRES on
// the system with the residual's own Jacobian, applied without a matrix by differences of the
// residual, right-preconditioned by the sweeps.
enum class LinearSolver { Sweeps, Gmres };

struct ImplicitSettings {
  double cfl = 10.0;     // CFL_0
  double cflMax = 1.0e5; // the largest CFL number of the SER ramp
  int sweeps = 15;       // multicolor sweeps per step (seed 002: 15 usually suffice)
  double residualDrop = 1e-8;
  int maxIterations = 200;
  // Limiter freezing: once the relative residual is at or below this, the second-order residual
  // keeps the limiter factors it has (UnstructuredEuler::freezeLimiter), so that the limiter's
  // switching near shocks cannot stall the convergence. 0: never.
  double freezeLimiterBelow = 0.0;
  // The same once the residual, having dropped by 10 from the first, has not halved in this
  // many steps (a stall). 0: never.
  int stallIterations = 100;
  // Second-order schemes: a start at first order, for flows whose first second-order steps are
  // too violent; it ends after this many steps, or once the residual has dropped by this factor
  // from the first, whichever of the two that is set comes first (0: not set; neither set, no
  // start).
  int firstOrderIterations = 0;
  double firstOrderDrop = 0.0;
  // The first-order flux the matrix linearises. Roe's, beside a Roe or HLLC residual, models its
  // dissipation wave by wave and takes steps about twice as long as Rusanov's (RESULTS.md).
  JacobianFlux jacobian = JacobianFlux::Rusanov;
  atomics::Strategy jacobianStrategy = atomics::Strategy::GlobalAtomic; // the K = 25 scatter
  LinearSolver linearSolver = LinearSolver::Sweeps;
  // Newton-Krylov: Krylov vectors per step (one cycle, no restart) and the linear residual's drop
  // that ends it (an inexact Newton step).
  int krylovVectors = 20;
  double krylovTolerance = 0.05;
};

// Newton-Krylov's preconditioner sweeps grow, where GMRES stalls, to at most this many times
// ImplicitSettings::sweeps (UnstructuredImplicit::preconditionerSweeps).
inline constexpr int kMostPreconditionerSweeps = 4;

// How the matrix's rows are spread over MPI ranks
// (solvers/unstructured/distributed_unstructured_implicit.hpp): this rank owns the first ownedRows
// rows, the rest are halo rows whose updates the sweep exchange brings from their owners, color by
// color; the residual norm sums over all ranks. The default is one rank that owns every row.
template <class Update>
struct ImplicitRows {
  MPI_Comm comm = MPI_COMM_SELF;
  int ownedRows = -1; // all
  linalg::SweepExchange<Update>* sweepExchange = nullptr;
};

// The state of the iteration as measured before a step.
struct PseudoTimeStep {
  int iteration = 0;             // steps taken so far
  double residual = 0.0;         // L2 norm of the density residual
  double relativeResidual = 1.0; // residual / the first one measured
  double cfl = 0.0;              // the CFL number of the step from this state
  double relaxation = 1.0;       // the smallest under-relaxation factor of the step before
  // Newton-Krylov: the Krylov vectors and GMRES's relative linear residual of the step before
  // (0 and 0 for the sweeps, and before the first step), and the sweeps of the preconditioner of
  // the step from this state (0 for the sweeps).
  int krylovVectors = 0;
  double linearResidual = 0.0;
  int preconditionerSweeps = 0;
  bool firstOrder = false; // measured with the first-order residual of the start
  bool limiterFrozen = false;
  bool limiterRefreshed = false; // the frozen factors taken anew from this state (its residual's)
  // Newton-Krylov: the residual that round-off alone leaves in this state (0 for the sweeps).
  double roundOffFloor = 0.0;
};

// Where the iteration stands beyond the state, what a checkpoint keeps so that a restart
// continues it: the step count, the first residual (the CFL ramp divides by it), the CFL scale and
// what decides its next change, the stall detector's window, the limiter's freezing and whether
// the first-order start is over.
struct ImplicitProgress {
  int iteration = 0;
  double firstResidual = -1.0;
  double cflScale = 1.0;
  StallWindow stall;
  bool limiterFrozen = false;
  // Newton-Krylov: the residual the last step started from (-1: none, or not known), and whether
  // that step grows the CFL scale if the next residual is lower.
  double lastResidual = -1.0;
  bool growPending = false;
  double frozenResidual = -1.0; // where the frozen factors were taken (-1: not known)
  bool refreshesOver = false;   // the last refresh of the frozen factors has been
  bool firstOrderDone = false;  // the first-order start is over
  // Newton-Krylov: the sweeps per preconditioning, raised where GMRES stalled (0: the setting's).
  int preconditionerSweeps = 0;
};

// A mesh with its cells renumbered so that each color is contiguous (unstructured::renumbered
// with linalg::colorContiguousCells' newToOld: cell n is the old cell newToOld[n]) and the block
// pattern of its face neighbours in that numbering.
struct ColorContiguousMesh {
  unstructured::Mesh mesh;
  linalg::BlockPattern pattern;
};

inline ColorContiguousMesh colorContiguousMesh(const unstructured::Mesh& mesh) {
  linalg::ColoredCells colored = linalg::colorContiguousCells(mesh);
  return {unstructured::renumbered(mesh, colored.newToOld), std::move(colored.pattern)};
}

template <class Precision>
class UnstructuredImplicit {
public:
  using Offdiagonal = typename Precision::Offdiagonal;
  using Update = typename Precision::Update;

  // Throws std::invalid_argument where the pattern does not have exactly one block per interior
  // face side (a pattern of another numbering, or two cells sharing two faces).
  UnstructuredImplicit(UnstructuredEuler& solver, const linalg::BlockPattern& pattern,
                       ImplicitSettings settings, ImplicitRows<Update> rows = {})
      : solver_(solver), settings_(settings), rows_(withOwnedRows(rows, solver.numCells())),
        matrix_(pattern, solver.space()),
        slots_(toSpace(faceSlots(solver.mesh(), pattern), solver.space())),
        dq_(std::size_t(5) * std::size_t(solver.numCells()), solver.space()),
        squares_(std::size_t(rows_.ownedRows), solver.space()),
        relaxation_(std::size_t(rows_.ownedRows), solver.space()),
        b_(newtonKrylov() ? ownedValues() : 0, solver.space()),
        x_(newtonKrylov() ? ownedValues() : 0, solver.space()),
        q0_(newtonKrylov() ? std::size_t(5) * std::size_t(solver.numCells()) : 0, solver.space()) {}

  // The residual of the current state (the right-hand side of the next step), its norm and the
  // CFL number of the next step.
  PseudoTimeStep measure() {
    const bool secondOrder = solver_.scheme().secondOrder();
    const bool startSet = settings_.firstOrderIterations > 0 || settings_.firstOrderDrop > 0.0;
    // The start ends at the first of its ends that is set: its count of steps (known before the
    // residual), its drop (seen in the first-order residual, which then gives way to the scheme's).
    bool firstOrderStart = secondOrder && startSet && !p_.firstOrderDone;
    if (firstOrderStart && settings_.firstOrderIterations > 0 &&
        p_.iteration >= settings_.firstOrderIterations)
      firstOrderStart = endFirstOrderStart();
    double norm = residualNorm(firstOrderStart);
    if (firstOrderStart && settings_.firstOrderDrop > 0.0 &&
        norm <= settings_.firstOrderDrop * p_.firstResidual) {
      firstOrderStart = endFirstOrderStart();
      norm = residualNorm(false);
    }
    const bool limited =
        secondOrder && !firstOrderStart && solver_.scheme().limiter != UnstructuredLimiter::None;
    const bool refreshed = limited && p_.limiterFrozen && refreshFrozenLimiter(norm);
    p_.stall.observe(norm, p_.firstResidual, p_.iteration);
    PseudoTimeStep s;
    s.iteration = p_.iteration;
    s.residual = norm;
    s.relativeResidual = p_.firstResidual > 0.0 ? norm / p_.firstResidual : 0.0;
    // Newton-Krylov: a step that raised the residual halves the CFL's scale (the next steps are
    // shorter). A refresh's residual is another function's: no step raised it.
    // A step that was not cut and lowered it doubles the scale, past SER's ramp (adaptCfl).
    if (newtonKrylov() && !refreshed && p_.lastResidual > 0.0 &&
        norm > kRiseAbove * p_.lastResidual)
      p_.cflScale = std::max(kSmallestScale, 0.5 * p_.cflScale);
    else if (p_.growPending && !refreshed && p_.lastResidual > 0.0 && norm < p_.lastResidual)
      p_.cflScale = std::min(settings_.cflMax / settings_.cfl, 2.0 * p_.cflScale);
    p_.growPending = false;
    p_.lastResidual = norm;
    ramp_ = norm > 0.0
                ? std::min(settings_.cflMax, settings_.cfl * std::max(1.0, p_.firstResidual / norm))
                : settings_.cflMax;
    s.cfl = std::min(settings_.cflMax, p_.cflScale * ramp_);
    s.relaxation = lastRelaxation_;
    cellStep_ = solver_.localStableSteps(); // of the measured state, which the step starts from
    if (newtonKrylov())
      roundOffFloor_ = roundOffFloor();
    s.roundOffFloor = roundOffFloor_;
    s.krylovVectors = lastGmres_.vectors;
    s.linearResidual = lastGmres_.relativeResidual;
    s.preconditionerSweeps = newtonKrylov() ? preconditionerSweeps() : 0;
    s.firstOrder = firstOrderStart;
    s.limiterRefreshed = refreshed;
    const bool stalled = p_.stall.stalled(p_.iteration, settings_.stallIterations);
    const bool lowEnough =
        settings_.freezeLimiterBelow > 0.0 && s.relativeResidual <= settings_.freezeLimiterBelow;
    if (limited && !p_.limiterFrozen && (stalled || lowEnough)) {
      p_.limiterFrozen = true;
      p_.frozenResidual = norm;
      p_.stall.restart(norm, p_.iteration);
    }
    solver_.freezeLimiter(p_.limiterFrozen);
    s.limiterFrozen = p_.limiterFrozen;
    return s;
  }

  // Down by residualDrop, or (Newton-Krylov) to round-off.
  bool converged(const PseudoTimeStep& s) const {
    return s.relativeResidual <= settings_.residualDrop || s.residual < s.roundOffFloor;
  }

  // Measures, and takes one step unless converged; returns the measurement before the step.
  PseudoTimeStep iterate() {
    const PseudoTimeStep s = measure();
    if (!converged(s))
      step(s.cfl);
    return s;
  }

  // Steps until converged or maxIterations steps, calling onStep(each measurement); returns the
  // last one.
  template <class OnStep>
  PseudoTimeStep solve(OnStep&& onStep) {
    for (;;) {
      const PseudoTimeStep s = measure();
      onStep(s);
      if (converged(s) || s.iteration >= settings_.maxIterations)
        return s;
      step(s.cfl);
    }
  }

  // Collective: where the limiter is frozen, the relative residual of the current state with the
  // limiter live, the scheme's own residual, of which the frozen steps' convergence says nothing
  // (a limiter frozen for its switching may leave it at 1e-3 of the first); -1 where the limiter
  // is live. The factors stay frozen, taken anew from this state; the next measure() computes its
  // right-hand side anew.
  double liveRelativeResidual() {
    if (!p_.limiterFrozen || p_.firstResidual <= 0.0)
      return -1.0;
    solver_.freezeLimiter(false);
    const double norm = residualNorm(false);
    solver_.freezeLimiter(true);
    return norm / p_.firstResidual;
  }

  // Where the iteration stands beyond the state (a checkpoint keeps it; restore gives it back
  // with the state restored). A frozen limiter's factors are not kept: the first residual after a
  // restore computes them anew and keeps those.
  int iteration() const { return p_.iteration; }
  const ImplicitProgress& progress() const { return p_; }
  void restore(const ImplicitProgress& progress) { p_ = progress; }

  const ImplicitSettings& settings() const { return settings_; }
  // The strategy of the K = 25 scatter of the diagonal blocks (a tuned one, say), from the next
  // step on.
  void setJacobianStrategy(atomics::Strategy strategy) { settings_.jacobianStrategy = strategy; }
  // The flux the matrix linearises, from the next step on.
  void setJacobian(JacobianFlux flux) { settings_.jacobian = flux; }

  // One backward-Euler step at the given CFL number from the state measure() saw (iterate() and
  // solve() take their steps through it).
  void step(double cfl) { backwardEulerStep(cfl); }

private:
  static constexpr bool kDeviceBuilt = compiledDeviceBackend() != Backend::Host;

  // Each interior face's two off-diagonal blocks: (owner, neighbour), (neighbour, owner).
  static std::vector<int> faceSlots(const unstructured::Mesh& mesh,
                                    const linalg::BlockPattern& pattern) {
    if (pattern.numRows() != mesh.numCells())
      throw std::invalid_argument("implicit solver: the block pattern has a row count other than "
                                  "the mesh's cell count");
    std::vector<int> slots(2 * std::size_t(mesh.numFaces()), -1);
    std::vector<char> taken(std::size_t(pattern.numBlocks()), 0);
    int written = 0;
    for (int f = 0; f < mesh.numFaces(); ++f) {
      const int o = mesh.owner[std::size_t(f)], n = mesh.neighbour[std::size_t(f)];
      if (n < 0)
        continue;
      for (const auto& [side, block] :
           {std::pair{0, pattern.blockIndex(o, n)}, std::pair{1, pattern.blockIndex(n, o)}}) {
        if (block < 0 || taken[std::size_t(block)]) {
          std::string message = "implicit solver: face ";
          message += std::to_string(f);
          message += block < 0 ? " joins cells the block pattern does not couple"
                               : " couples two cells another face already couples";
          throw std::invalid_argument(message);
        }
        taken[std::size_t(block)] = 1;
        slots[2 * std::size_t(f) + std::size_t(side)] = block;
        ++written;
      }
    }
    if (written != pattern.numBlocks())
      throw std::invalid_argument(
          "implicit solver: the block pattern couples cells without a face");
    return slots;
  }

  static ImplicitRows<Update> withOwnedRows(ImplicitRows<Update> rows, int cells) {
    if (rows.ownedRows < 0)
      rows.ownedRows = cells;
    if (rows.ownedRows > cells)
      throw std::invalid_argument("implicit solver: " + std::to_string(rows.ownedRows) +
                                  " owned rows of " + std::to_string(cells));
    return rows;
  }

  // A frozen limiter's factors taken anew from the current state, once its residual has dropped by
  // kRefreshDrop since they were (and is not yet converged): a freeze inside the start's transient
  // keeps the factors of a state far from the steady one, and the steady state with them missed
  // the unfrozen lift by 2% on the NACA 0012 512 mesh (RESULTS.md); each refresh takes them from a
  // state nearer to it. Refreshing is a fixed-point iteration on the factors, which converges to
  // the unfrozen steady state only while the factors settle: a refresh whose new residual is not
  // below kRefreshProgress of the last refresh's is the last (the limiter's switching, for which
  // it was frozen, is back), and its factors stay. norm becomes the residual with the new factors;
  // true where refreshed.
  bool refreshFrozenLimiter(double& norm) {
    if (p_.frozenResidual < 0.0) { // restored from a checkpoint that does not say
      p_.frozenResidual = norm;
      return false;
    }
    if (p_.refreshesOver || norm > kRefreshDrop * p_.frozenResidual ||
        norm <= settings_.residualDrop * p_.firstResidual)
      return false;
    solver_.freezeLimiter(false);
    norm = residualNorm(false);
    solver_.freezeLimiter(true);
    p_.refreshesOver = norm >= kRefreshProgress * p_.frozenResidual;
    p_.frozenResidual = norm;
    p_.stall.restart(norm, p_.iteration);
    return true;
  }

  // Ends the first-order start; false, the start's state from here on. The residual itself
  // changes: the stall detector and Newton-Krylov's rise test start anew.
  bool endFirstOrderStart() {
    p_.firstOrderDone = true;
    p_.stall.reset();
    p_.lastResidual = -1.0;
    return false;
  }

  // The residual of the current state, first order or the scheme's, into rhs_; its norm, which
  // the first measurement keeps as the first residual.
  double residualNorm(bool firstOrder) {
    solver_.forceFirstOrder(firstOrder);
    rhs_ = solver_.currentResidual();
    const double norm = densityResidualNorm();
    if (p_.firstResidual < 0.0)
      p_.firstResidual = norm;
    return norm;
  }

  // Over the owned rows of every rank.
  double densityResidualNorm() {
    const int cells = rows_.ownedRows;
    if (solver_.space() == MemorySpace::Host) {
      const double* r = rhs_;
      double* squares = squares_.data();
#pragma omp parallel for schedule(static)
      for (int c = 0; c < cells; ++c)
        squares[c] = r[5 * c] * r[5 * c];
    } else if constexpr (kDeviceBuilt) {
      densityResidualSquaresDevice(cells, rhs_, squares_.data());
    }
    return std::sqrt(squaresSummedOverRanks());
  }

  // The sum of squares_ over the owned rows of every rank.
  double squaresSummedOverRanks() {
    double sum = reduce(squares_, ReduceKind::Sum);
    if (mpi::rankCount(rows_.comm) > 1)
      MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, rows_.comm);
    return sum;
  }

  void backwardEulerStep(double cfl) {
    const double* cellStep = cellStep_;
    const EulerFaceJacobianDiagonal diagonalPart{solver_.pde(), solver_.faces(),
                                                 solver_.stateData(), solver_.farfield(),
                                                 settings_.jacobian};
    const EulerFaceJacobianOffdiagonal<Offdiagonal> offdiagonalPart{
        solver_.pde(), solver_.faces(),       solver_.stateData(), solver_.farfield(),
        slots_.data(), matrix_.offdiagonal(), settings_.jacobian};
    const atomics::FaceScatterPlan& plan = solver_.scatterPlan();
    const atomics::Strategy strategy = settings_.jacobianStrategy;
    // One evaluation of each face's Jacobians fills both kinds of block, except under the gather,
    // which evaluates each face twice: then the off-diagonal blocks take a pass of their own.
    const bool onePass = atomics::evaluatesEachFaceOnce(strategy);
    const EulerFaceJacobianBlocks<Offdiagonal> bothParts{offdiagonalPart};
    const int cells = solver_.numCells(), faces = plan.numFaces();
    if (solver_.space() == MemorySpace::Host) {
      double* diagonal = matrix_.diagonal();
      const double* volume = solver_.volumes();
#pragma omp parallel for schedule(static)
      for (int c = 0; c < cells; ++c)
        pseudoTimeDiagonal(volume[c], cfl * cellStep[c], diagonal + 25 * c);
      if (onePass) {
        atomics::scatterFacesHost<25>(plan, strategy, bothParts, diagonal);
      } else {
        atomics::scatterFacesHost<25>(plan, strategy, diagonalPart, diagonal);
#pragma omp parallel for schedule(static)
        for (int f = 0; f < faces; ++f)
          offdiagonalPart(f);
      }
    } else if constexpr (kDeviceBuilt) {
      pseudoTimeDiagonalDevice(cells, solver_.volumes(), cellStep, cfl, matrix_.diagonal());
      if (onePass) {
        eulerJacobianBlocksDevice(plan, strategy, bothParts, matrix_.diagonal());
      } else {
        eulerJacobianDiagonalDevice(plan, strategy, diagonalPart, matrix_.diagonal());
        eulerJacobianOffdiagonalDevice(faces, offdiagonalPart);
      }
    }
    matrix_.factorizeDiagonal();
    if (settings_.linearSolver == LinearSolver::Gmres)
      newtonKrylovStep(cfl, cellStep);
    else
      linalg::multicolorSweeps(matrix_, rhs_, dq_.data(), settings_.sweeps, rows_.sweepExchange);
    const RelaxedCellUpdate<Update> update{solver_.pde(), dq_.data(), solver_.stateData(),
                                           relaxation_.data(), rows_.ownedRows};
    if (solver_.space() == MemorySpace::Host) {
#pragma omp parallel for schedule(static)
      for (int c = 0; c < cells; ++c)
        update(c);
    } else if constexpr (kDeviceBuilt) {
      relaxedUpdateDevice(cells, update);
    }
    adaptCfl();
    ++p_.iteration;
  }

  // dq_ from FlexibleGmres on (V / dtau - dR/dq) dQ = R over the owned rows, with dR/dq v ~
  // (R(q + eps v) - R(q)) / eps (Knoll and Keyes 2004: eps = sqrt(machine epsilon) (1 + |q|) /
  // |v|), preconditioned by the sweeps of the matrix just assembled. In the solver's memory space;
  // on MPI ranks the perturbed owned states reach the halo cells before each residual, and the
  // norms and the Krylov vectors' dot products sum over the ranks.
  void newtonKrylovStep(double cfl, const double* cellStep) {
    const int owned = rows_.ownedRows;
    const MemorySpace space = solver_.space();
    const linalg::VectorSpace vectors{space, ownedValues(), rows_.comm};
    double* q = solver_.stateData();
    if (p_.lastResidual <= roundOffFloor_) { // steady to round-off: no step
      linalg::fill(vectors, 0.0, x_.data());
      linalg::converted(vectors, static_cast<const double*>(x_.data()), dq_.data());
      lastGmres_ = {0, 0.0};
      return;
    }
    // The solver's residual buffer is overwritten by the products' residuals.
    copyBytes(b_.data(), space, rhs_, space, b_.bytes());
    copyBytes(q0_.data(), space, q, space, q0_.bytes());
    const double qNorm = linalg::norm(vectors, q0_.data());
    const auto apply = [&](const double* v, double* w) {
      const double vNorm = linalg::norm(vectors, v);
      if (vNorm == 0.0) {
        linalg::fill(vectors, 0.0, w);
        return;
      }
      const double eps = 1.0e-8 * (1.0 + qNorm) / vNorm;
      linalg::axpy(vectors, eps, v, q); // q = q0 + eps v on the owned rows
      solver_.exchangeHaloStates();
      const MatrixFreeProduct product{solver_.volumes(),         cellStep,  cfl, v,
                                      solver_.currentResidual(), b_.data(), eps, w};
      if (space == MemorySpace::Host) {
#pragma omp parallel for schedule(static)
        for (int c = 0; c < owned; ++c)
          product(c);
      } else if constexpr (kDeviceBuilt) {
        matrixFreeProductDevice(owned, product);
      }
      copyBytes(q, space, q0_.data(), space, q0_.bytes()); // the halo cells' states too
    };
    const auto precondition = [&](const double* v, double* z) {
      linalg::multicolorSweeps(matrix_, v, dq_.data(), preconditionerSweeps(), rows_.sweepExchange);
      linalg::converted(vectors, static_cast<const Update*>(dq_.data()), z);
    };
    lastGmres_ = gmres_.solve(vectors, b_.data(), x_.data(), settings_.krylovVectors,
                              settings_.krylovTolerance, apply, precondition);
    // The halo rows keep the last sweeps' updates: the distributed solver's exchange after the
    // step gives the halo cells their owners' states.
    linalg::converted(vectors, static_cast<const double*>(x_.data()), dq_.data());
  }

  // Collective: the density residual's norm that round-off alone leaves: kRoundOff times the norm
  // of the density fluxes each cell's residual sums (DensityFluxScaleSquares). Below it the state
  // is steady to round-off, converged whatever the drop asked, and its residual has no direction a
  // Newton step should follow: at rest, where any density field at uniform pressure and any slow
  // vortex are steady too (the Jacobian singular), steps at Newton-Krylov's CFL of 1e5 drifted
  // along them by 1e-3 of the sound speed in 200 iterations on pyramids.
  double roundOffFloor() {
    const DensityFluxScaleSquares scale{solver_.stateData(), solver_.volumes(), cellStep_,
                                        squares_.data()};
    if (solver_.space() == MemorySpace::Host) {
#pragma omp parallel for schedule(static)
      for (int c = 0; c < rows_.ownedRows; ++c)
        scale(c);
    } else if constexpr (kDeviceBuilt) {
      densityFluxScaleSquaresDevice(rows_.ownedRows, scale);
    }
    return kRoundOff * std::sqrt(squaresSummedOverRanks());
  }

  // The CFL scale after a step, from its smallest relaxation factor over every rank and, for
  // Newton-Krylov, how far its linear solve got. A scale past the one that gives cfl_max on the
  // step's ramp is taken back to it first, so that a cut shortens the next step.
  void adaptCfl() {
    double smallest = rows_.ownedRows > 0 ? reduce(relaxation_, ReduceKind::Min) : 1.0;
    if (mpi::rankCount(rows_.comm) > 1)
      MPI_Allreduce(MPI_IN_PLACE, &smallest, 1, MPI_DOUBLE, MPI_MIN, rows_.comm);
    lastRelaxation_ = smallest;
    p_.cflScale = std::min(p_.cflScale, settings_.cflMax / ramp_);
    // GMRES that could not halve its residual in its vectors gives a step of no use (the system
    // too stiff for the preconditioner at this CFL, and the same state would give it again).
    const bool linearStalled = newtonKrylov() && lastGmres_.relativeResidual > kLinearStall;
    // The sweeps' scale grows back after a whole step, up to 1. Newton-Krylov's grows past SER's
    // ramp after any step not cut that lowered the residual, as SU2's adaptive CFL does (decided
    // in the next measure(), which sees the residual): on the transonic NACA 0012 a few cells near
    // the shock relax most steps of the start's transient, and growing on whole steps only held
    // the 1024 mesh's CFL at 20-80 for 700 iterations; growing on any step not cut, whether the
    // residual fell or not, made the 256 mesh's start violent on some round-off paths (47 to 369
    // iterations from run to run; RESULTS.md).
    if (linearStalled) // and a stronger preconditioner for the steps after it
      p_.preconditionerSweeps = std::min(kMostPreconditionerSweeps * settings_.sweeps,
                                         (3 * preconditionerSweeps() + 1) / 2);
    if (smallest < kCutBelow || linearStalled)
      p_.cflScale = std::max(kSmallestScale, p_.cflScale / 10.0);
    else if (newtonKrylov())
      p_.growPending = true;
    else if (smallest == 1.0)
      p_.cflScale = std::min(1.0, 2.0 * p_.cflScale);
  }

  // Newton-Krylov's sweeps per preconditioning: the setting's, then half as many again after each
  // step whose GMRES stalled, up to kMostPreconditionerSweeps times the setting. The sweeps carry
  // information a few cells per sweep, so how many a preconditioner needs grows with the mesh: on
  // the NACA 0012 1024 mesh 15, 30 and 45 sweeps took 964, 384 and 238 iterations (27 s at 45
  // against 60 s at 15, on an H200), while the 3D wing's GMRES never stalled at 15 and 30 cost it
  // 30% (RESULTS.md).
  int preconditionerSweeps() const {
    return p_.preconditionerSweeps > 0 ? p_.preconditionerSweeps : settings_.sweeps;
  }

  // Newton-Krylov's steps may take the CFL past SER's ramp (FUN3D's and SU2's adaptive CFL): the
  // ramp follows the residual's drop, which stalls in a transient that only long steps get through.
  bool newtonKrylov() const {
    return settings_.linearSolver == LinearSolver::Gmres;
  }
  std::size_t ownedValues() const {
    return std::size_t(5) * std::size_t(rows_.ownedRows);
  }

  UnstructuredEuler& solver_;
  ImplicitSettings settings_;
  ImplicitRows<Update> rows_;
  linalg::BlockMatrix<5, Precision> matrix_;
  DeviceArray<int> slots_;
  DeviceArray<Update> dq_;
  DeviceArray<double> squares_, relaxation_;
  const double* rhs_ = nullptr;
  const double* cellStep_ = nullptr; // each cell's stable step in the measured state
  // Newton-Krylov's vectors: the right-hand side and the solution (owned rows), the state it
  // linearises about (every row).
  linalg::FlexibleGmres gmres_;
  DeviceArray<double> b_, x_, q0_;
  ImplicitProgress p_;
  double lastRelaxation_ = 1.0;
  double ramp_ = 1.0;                     // SER's CFL of the last measure(), before the scale
  double roundOffFloor_ = 0.0;            // of the last measure() (Newton-Krylov)
  linalg::GmresResult lastGmres_{0, 0.0}; // of the last step (Newton-Krylov)
  // A step that cut some cell's update below kCutBelow cuts the CFL tenfold, to no less than
  // kSmallestScale of the ramp's.
  static constexpr double kCutBelow = 0.1;
  static constexpr double kSmallestScale = 1e-3;
  // Round-off's share of a residual, relative to the fluxes it sums (roundOffFloor).
  // Measured: at rest and in uniform flows on irregular meshes at most 4.9e-17; the transonic bump
  // converged to 1e-10 of its first residual, 3.6e-13.
  static constexpr double kRoundOff = 1e-15;
  // A frozen limiter's factors are refreshed at each drop of the residual by this factor.
  static constexpr double kRefreshDrop = 1e-3;
  // Refreshes go on while each one's residual is below this fraction of the last one's (on the
  // transonic bump the fraction is 0.1-0.8, test_limiter_freezing.cpp).
  static constexpr double kRefreshProgress = 0.9;
  // A Newton-Krylov step whose residual came out above kRiseAbove times the one it started from.
  static constexpr double kRiseAbove = 1.1;
  // A Newton-Krylov step whose GMRES left more than this of its linear residual.
  static constexpr double kLinearStall = 0.5;
};

} // namespace tessera
