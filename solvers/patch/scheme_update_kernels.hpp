#pragma once
// The fused update of any spatial scheme on the device, for one Runge-Kutta stage: the twin of
// schemeUpdateHost (scheme_update_host.hpp), computing the same face states, the same fluxes and
// the same differences in the same order. Device code: include it from a .cu file only.
//
// A block marches one tile of a patch along the last axis (z in 3D, y in 2D). Its threads own the
// tile's columns: N along x times Rows rows (3D: y rows of one patch, the patch's N / Rows tiles
// one after another; 2D: Rows patches side by side, one x row each). Per plane k of the march:
//  1. the block stages the plane's cells with a ring of two (x; in 3D also y) in shared memory,
//     conserved and reconstructed variables, each converted once;
//  2. each thread reconstructs its cell's face states along each in-plane axis once (threads of
//     the ring's cells next to the tile theirs too) into shared memory; after a barrier, the
//     threads share out the Riemann fluxes of the tile's in-plane faces evenly (a row has one
//     face more than cells), into the memory the staged plane no longer needs;
//  3. the marching axis needs no neighbour: each thread keeps its column's cell k - 1 in
//     registers (reconstructed variables), takes cell k from the staged plane and reads k + 1
//     straight from global memory, so the face k - 1/2 completes cell k - 1:
//     qOut = keep q0 + advance (q - dt/dx (dF_x + dF_y + dF_z)), in the host's order of
//     subtraction, written once, and the largest eigenvalue of the written state.
// Each cell is read twice (the plane, and the column ahead, which L1 or L2 usually still holds)
// and written once, each row with its x halo cells (copies of its end cells: row_end_copies.hpp);
// no temporaries in global memory. Cells whose reconstruction fell back to first order are
// counted once per axis, as on the host. Halo cells of a linked face (faceLinks,
// patches/face_links.hpp) come from the neighbour's interior; the kernel uses no edge or corner
// halo cell (it stages the plane's corners, read wherever the x face's cells are).
#include <cstddef>
#include <stdexcept>
#include <string>

#include "engine/gpu_runtime.hpp"
#include "numerics/reconstruct/cell_faces.hpp"
#include "patches/flux_register.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"
#include "physics/conservation_law.hpp"
#include "solvers/patch/block_link_shifts.hpp"
#include "solvers/patch/max_eigenvalue.hpp"
#include "solvers/patch/patch_reduce_kernels.hpp"
#include "solvers/patch/row_end_copies.hpp"
#include "solvers/patch/stage_weights.hpp"

namespace tessera {
namespace scheme_kernels {

// How a block covers patches: N x Rows threads; in 3D the tile is Rows y rows of one patch and
// the ring adds Halo rows on each side, in 2D the Rows rows are patches with no ring across them.
template <int Dim, int N, int Rows, int Halo>
struct TileShape {
  static constexpr int kThreads = N * Rows;
  static constexpr int kTiles = Dim == 3 ? N / Rows : 1;
  static constexpr int kPatchesPerBlock = Dim == 3 ? 1 : Rows;
  static constexpr int kPitch = N + 2 * Halo;       // x from -Halo to N - 1 + Halo
  static constexpr int kRing = Dim == 3 ? Halo : 0; // rows of ring in y
  static constexpr int kPlaneCells = (Rows + 2 * kRing) * kPitch;
  static constexpr int kXFaces = Rows * (N + 1);
  static constexpr int kYFaces = Dim == 3 ? (Rows + 1) * N : 0;
  static_assert(Dim == 2 || N % Rows == 0, "a 3D plane is whole tiles");
  // The first threads of those that take the faces beyond one a thread (step 3 of the march):
  // each axis has Rows or N extra faces, at most 32; x's go to the second-to-last 32 threads in
  // 3D (the last in 2D, which has no y faces), y's to the last 32: on 32-wide warps, two warps
  // compute three fluxes and none four; 64-wide ones (HIP) put both in the last wavefront.
  static constexpr int kYExtrasFrom = kThreads - 32;
  static constexpr int kXExtrasFrom = Dim == 3 ? kThreads - 64 : kThreads - 32;
  static_assert(kXExtrasFrom >= 0 && kXFaces - kThreads <= 32 && kYFaces - kThreads <= 32,
                "the extra faces of each axis fill at most one warp of their own");
  // 512 resident threads per multiprocessor: at most 128 registers a thread. Without the bound
  // the 3D Euler kernels took 170-176, one 256-thread block per multiprocessor.
  static constexpr int kMinBlocks = 512 / kThreads;

  // Cells of the ring whose face states the tile's edge faces need: the x ends of each row, and
  // in 3D the y rows just outside the tile; at most one per thread.
  static constexpr int kRingCells = 2 * Rows + (Dim == 3 ? 2 * N : 0);
  static_assert(kRingCells <= kThreads, "one ring cell per thread at most");

  // Doubles of shared memory: the plane's conserved and reconstructed variables (the face fluxes
  // and the eigenvalue reduction reuse them once the face states are made), and every plane
  // cell's lower and upper face states along each in-plane axis.
  static constexpr std::size_t sharedDoubles(int numVars) {
    return std::size_t(numVars) * kPlaneCells * (2 + 2 * (Dim - 1));
  }
  static_assert(kXFaces + kYFaces <= 2 * kPlaneCells, "the face fluxes fit in the plane");
};

template <class PDE>
__device__ inline typename PDE::State readState(const double* at, std::size_t varStride) {
  typename PDE::State s;
  for (int v = 0; v < PDE::kNumVars; ++v)
    s[v] = at[v * varStride];
  return s;
}

template <class PDE>
__device__ inline typename PDE::State readShared(const double* array, int stride, int at) {
  typename PDE::State s;
  for (int v = 0; v < PDE::kNumVars; ++v)
    s[v] = array[v * stride + at];
  return s;
}

template <class PDE>
__device__ inline void writeShared(const typename PDE::State& s, double* array, int stride,
                                   int at) {
  for (int v = 0; v < PDE::kNumVars; ++v)
    array[v * stride + at] = s[v];
}

// The face states of plane cell `at` along the in-plane axis whose cells lie `step` apart, for
// Flux (cellFaces); a reconstruction that reads no neighbour (a halo of one) is not given any.
template <class Recon, class Flux, class PDE, int Cells>
__device__ inline CellFaces<PDE> stagedCellFaces(const PDE& pde, const double* sq, const double* sv,
                                                 int at, int step) {
  const auto v = readShared<PDE>(sv, Cells, at);
  if constexpr (Recon::kHalo == 1)
    return cellFaces<Recon, Flux>(pde, v, v, v, readShared<PDE>(sq, Cells, at));
  else
    return cellFaces<Recon, Flux>(pde, readShared<PDE>(sv, Cells, at - step), v,
                                  readShared<PDE>(sv, Cells, at + step),
                                  readShared<PDE>(sq, Cells, at));
}

// Stage s of cell `at`: qOut = keep q0 + advance * stepped, as schemeUpdatePatch writes it, and
// for the first (rowEnd -1) and last (rowEnd 1) cells of a row also into the Copies halo cells
// beyond it (row_end_copies.hpp); returns the largest eigenvalue of the new state.
template <class PDE, int Copies>
__device__ inline double completeCell(const PDE& pde, const typename PDE::State& stepped,
                                      const StageWeights& stage, double* qOut, std::size_t at,
                                      std::size_t varStride, bool writes, int rowEnd) {
  typename PDE::State result;
  for (int v = 0; v < PDE::kNumVars; ++v) {
    const std::size_t e = at + v * varStride;
    result[v] = stage.keep == 0.0 ? stage.advance * stepped[v]
                                  : stage.keep * stage.q0[e] + stage.advance * stepped[v];
    if (writes) {
      qOut[e] = result[v];
      detail::copyRowEnd(qOut + e, rowEnd, Copies, result[v]);
    }
  }
  return detail::maxEigenvalueAllAxes(pde, result);
}

// a or b, chosen per component: choosing between the two states themselves would take their
// address, which puts both in local memory.
template <class State>
__device__ inline State either(bool first, const State& a, const State& b) {
  State s;
  for (int v = 0; v < State::size(); ++v)
    s[v] = first ? a[v] : b[v];
  return s;
}

template <class PDE>
__device__ inline void storeRegister(double* fluxRegister, std::size_t at, std::size_t varStride,
                                     const typename PDE::State& face) {
  for (int v = 0; v < PDE::kNumVars; ++v)
    fluxRegister[at + v * varStride] = face[v];
}

template <class PDE, class Recon, class Flux, int N, int Rows>
__global__ void __launch_bounds__(N* Rows,
                                  (TileShape<PDE::kDim, N, Rows, Recon::kHalo>::kMinBlocks))
    schemeMarch(PDE pde, PatchLayout<PDE::kDim> layout,
                const PatchGeometry<PDE::kDim>* __restrict__ geometry, int numPatches,
                const int* __restrict__ patches, const double* __restrict__ q,
                double* __restrict__ qOut, StageWeights stage, double* __restrict__ patchLambda,
                double* __restrict__ fluxRegister, unsigned long long* __restrict__ fallbacks,
                const int* __restrict__ faceLinks, const int* __restrict__ refluxFaces) {
  using State = typename PDE::State;
  using Shape = TileShape<PDE::kDim, N, Rows, Recon::kHalo>;
  constexpr int kHalo = Recon::kHalo;
  constexpr int kDim = PDE::kDim, kMarch = kDim - 1, kVars = PDE::kNumVars;
  constexpr int kCells = Shape::kPlaneCells, kPitch = Shape::kPitch, kRing = Shape::kRing;
  extern __shared__ double shared[];
  double* const sq = shared;              // [var][plane cell]
  double* const sv = sq + kVars * kCells; // reconstructed variables
  // Face states [var][plane cell]: lower and upper along x, and in 3D along y.
  double* const slx = sv + kVars * kCells;
  double* const sux = slx + kVars * kCells;
  double* const sly = sux + kVars * kCells;
  double* const suy = sly + kVars * kCells;
  // The face fluxes reuse the staged plane once the face states are made: x [var][row][face],
  // N + 1 faces a row; 3D y [var][face row][i], Rows + 1 face rows.
  double* const sfx = shared;
  double* const sfy = sfx + kVars * Shape::kXFaces;

  const int tid = int(threadIdx.x), i = tid % N, row = tid / N;
  const auto patchAt = [patches](int k) { return patches ? patches[k] : k; };
  // 2D: a block's rows past the last patch compute on a copy of it and write nothing.
  const int patchOfRow = kDim == 3 ? int(blockIdx.x) : int(blockIdx.x) * Rows + row;
  const bool writes = patchOfRow < numPatches;
  const int patch = patchAt(writes ? patchOfRow : numPatches - 1);
  const std::size_t vs = layout.varStride();
  const int planeStride = layout.axisStride(kMarch);
  const PatchGeometry<kDim> g = geometry[patch];
  const double rx = stage.dt / g.dx[0], rm = stage.dt / g.dx[kMarch];
  const double ry = kDim == 3 ? stage.dt / g.dx[1] : 0.0;
  // The faces whose layers refluxing corrects, and then completes the eigenvalue of; the faces
  // whose fluxes go to the register (every face where no plan says).
  const int faces = refluxFaces ? refluxFaces[patch] : kEveryFaceRegistered<kDim>;
  const int refluxed = correctedFaces(faces);
  const int registered = fluxRegister && writes ? faces : 0;
  const FluxRegisterLayout<kDim> reg{N, kVars};
  const std::size_t regVar = std::size_t(reg.faceCells());
  const int cell = (row + kRing) * kPitch + i + kHalo; // this thread's plane cell
  // The first and last cells of a row also write the row's halo cells beyond them, so that the
  // row's stores cover whole 32-byte sectors (row_end_copies.hpp); computed where stored, since
  // registers are scarce.
  const auto rowEnd = [](int x) { return x == 0 ? -1 : x == N - 1 ? 1 : 0; };
  // This thread's ring cell, if any, and the axis whose face states it needs: the x ends of row
  // r (cells -1 and N), or in 3D the y rows -1 and Rows.
  int ringCell = -1, ringStep = 1;
  if (tid < Shape::kRingCells) {
    const int u = tid % (Shape::kRingCells / 2);
    const bool upper = tid >= Shape::kRingCells / 2;
    if (u < Rows) {
      ringCell = (u + kRing) * kPitch + (upper ? N : -1) + kHalo;
    } else {
      ringCell = ((upper ? Rows : -1) + kRing) * kPitch + (u - Rows) + kHalo;
      ringStep = kPitch;
    }
  }
  // Where each face's halo cells are read, for each of the block's patches: faceLinkShift.
  __shared__ std::ptrdiff_t linkShift[Shape::kPatchesPerBlock][2 * kDim];
  loadBlockLinkShifts<kDim>(linkShift, layout, faceLinks, patches, numPatches, Shape::kThreads);
  __syncthreads();
  const int ownRow = kDim == 3 ? 0 : row;
  // The marching axis's halo planes, read from shared memory where used (registers are scarce).
  const std::ptrdiff_t* const marchShift = linkShift[ownRow] + 2 * kMarch;
  double lambda = 0.0;
  unsigned long long fell = 0;

  for (int tile = 0; tile < Shape::kTiles; ++tile) {
    const int j = tile * Rows + row; // 3D: this column's y
    // Offset of cell (x, y, plane) of the patch that plane row r (ring included) lies in.
    const auto offsetOf = [&](int x, int r, int plane) {
      return layout.cellOffset(columnCell<kDim>(x, tile * Rows + r, plane));
    };
    const std::size_t ownPatch = layout.varOffset(patch, 0);
    const double* const column = q + ownPatch + offsetOf(i, row, 0);

    // The column's cell below the plane in registers (its reconstructed variables); the cell at
    // the plane is read from the staged plane, the one above straight from global memory. A halo
    // of one reads no neighbour: the cell itself stands in for it.
    State vBelow = reconstructedVariables<Recon>(
        pde, readState<PDE>(column - planeStride + marchShift[0], vs));
    // Cell -1's upper face state; the face below plane k and the partial update of plane k - 1.
    State upperBelow;
    {
      const State vFar =
          kHalo > 1 ? reconstructedVariables<Recon>(
                          pde, readState<PDE>(column - 2 * planeStride + marchShift[0], vs))
                    : vBelow;
      upperBelow =
          cellFaces<Recon, Flux>(pde, vFar, vBelow,
                                 reconstructedVariables<Recon>(pde, readState<PDE>(column, vs)),
                                 readState<PDE>(column - planeStride + marchShift[0], vs))
              .upper;
    }
    State faceBelow{}, partialBelow{};

#pragma unroll 1
    for (int k = 0; k < N; ++k) {
      // The column's cell above the plane, its load in flight while the plane is staged.
      const State qAbove =
          readState<PDE>(column + (k + 1) * planeStride + (k + 1 == N ? marchShift[1] : 0), vs);
      // 1. Stage plane k with its ring (the previous plane's face fluxes, which share the
      //    memory, are read).
      __syncthreads();
      for (int c = tid; c < kCells; c += Shape::kThreads) {
        const int x = c % kPitch - kHalo, r = c / kPitch - kRing;
        const int p = kDim == 3 ? patch : patchAt(min(int(blockIdx.x) * Rows + r, numPatches - 1));
        const int y = kDim == 3 ? tile * Rows + r : 0;
        const int face = x < 0 ? 0 : x >= N ? 1 : y < 0 ? 2 : y >= N ? 3 : -1;
        const std::ptrdiff_t shift = face < 0 ? 0 : linkShift[kDim == 3 ? 0 : r][face];
        const State s = readState<PDE>(q + layout.varOffset(p, 0) + offsetOf(x, r, k) + shift, vs);
        writeShared<PDE>(s, sq, kCells, c);
        writeShared<PDE>(reconstructedVariables<Recon>(pde, s), sv, kCells, c);
      }
      __syncthreads();

      // The marching face k - 1/2 completes plane k - 1 (or is the patch's lower face); first, so
      // that the partial update and face carried from plane k - 1 leave the registers early.
      const State vAt = readShared<PDE>(sv, kCells, cell);
      const CellFaces<PDE> own =
          cellFaces<Recon, Flux>(pde, vBelow, vAt, reconstructedVariables<Recon>(pde, qAbove),
                                 readShared<PDE>(sq, kCells, cell));
      fell += own.firstOrder;
      const State face = faceFlux<Recon, Flux>(pde, upperBelow, own.lower, kMarch);
      upperBelow = own.upper;
      vBelow = vAt;
      if (k > 0) {
        State done;
        for (int v = 0; v < kVars; ++v)
          done[v] = partialBelow[v] - rm * (face[v] - faceBelow[v]);
        lambda = columnCellMax<kDim>(lambda,
                                     completeCell<PDE, kHalo>(pde, done, stage, qOut,
                                                              ownPatch + offsetOf(i, row, k - 1),
                                                              vs, writes, rowEnd(i)),
                                     refluxed, N, i, j, k - 1);
      } else if (registersFace(registered, 2 * kMarch)) {
        storeRegister<PDE>(fluxRegister, reg.index(patch, kMarch, 0, 0, kDim == 3 ? i + N * j : i),
                           regVar, face);
      }
      faceBelow = face;

      // 2. Face states, once per cell and in-plane axis: the thread's own cell, and its ring cell.
      {
        const auto x = stagedCellFaces<Recon, Flux, PDE, kCells>(pde, sq, sv, cell, 1);
        writeShared<PDE>(x.lower, slx, kCells, cell);
        writeShared<PDE>(x.upper, sux, kCells, cell);
        fell += x.firstOrder;
        if constexpr (kDim == 3) {
          const auto y = stagedCellFaces<Recon, Flux, PDE, kCells>(pde, sq, sv, cell, kPitch);
          writeShared<PDE>(y.lower, sly, kCells, cell);
          writeShared<PDE>(y.upper, suy, kCells, cell);
          fell += y.firstOrder;
        }
        if (ringCell >= 0) {
          const auto ring =
              stagedCellFaces<Recon, Flux, PDE, kCells>(pde, sq, sv, ringCell, ringStep);
          writeShared<PDE>(ring.lower, ringStep == 1 ? slx : sly, kCells, ringCell);
          writeShared<PDE>(ring.upper, ringStep == 1 ? sux : suy, kCells, ringCell);
        }
      }

      // Plane k's update starts from its state, read before the face fluxes take the memory.
      partialBelow = readShared<PDE>(sq, kCells, cell);
      __syncthreads();

      // 3. The in-plane faces: x faces [row][face], face f between the row's cells f - 1 and f;
      //    in 3D y faces [face row][i], face row f between the tile's rows f - 1 and f. A row has
      //    one face more than cells: every thread takes face `tid` of each axis, the extra faces go
      //    to threads of their own (TileShape::kXExtrasFrom; 3% of the stage over the loops that
      //    gave them all to the first warp).
      const auto xFace = [&](int f) {
        const int upperCell = (f / (N + 1) + kRing) * kPitch + f % (N + 1) + kHalo;
        writeShared<PDE>(faceFlux<Recon, Flux>(pde, readShared<PDE>(sux, kCells, upperCell - 1),
                                               readShared<PDE>(slx, kCells, upperCell), 0),
                         sfx, Shape::kXFaces, f);
      };
      xFace(tid);
      if (tid >= Shape::kXExtrasFrom &&
          tid < Shape::kXExtrasFrom + Shape::kXFaces - Shape::kThreads)
        xFace(Shape::kThreads + tid - Shape::kXExtrasFrom);
      if constexpr (kDim == 3) {
        const auto yFace = [&](int f) {
          const int upperCell = (f / N + kRing) * kPitch + f % N + kHalo;
          writeShared<PDE>(faceFlux<Recon, Flux>(pde,
                                                 readShared<PDE>(suy, kCells, upperCell - kPitch),
                                                 readShared<PDE>(sly, kCells, upperCell), 1),
                           sfy, Shape::kYFaces, f);
        };
        yFace(tid);
        if (tid >= Shape::kYExtrasFrom &&
            tid < Shape::kYExtrasFrom + Shape::kYFaces - Shape::kThreads)
          yFace(Shape::kThreads + tid - Shape::kYExtrasFrom);
      }
      __syncthreads();

      // The cell's in-plane differences, x then y, as on the host.
      const State xBelow = readShared<PDE>(sfx, Shape::kXFaces, row * (N + 1) + i);
      const State xAbove = readShared<PDE>(sfx, Shape::kXFaces, row * (N + 1) + i + 1);
      for (int v = 0; v < kVars; ++v)
        partialBelow[v] = partialBelow[v] - rx * (xAbove[v] - xBelow[v]);
      if ((i == 0 || i == N - 1) && registersFace(registered, i == N - 1))
        storeRegister<PDE>(fluxRegister,
                           reg.index(patch, 0, i == N - 1, 0, kDim == 3 ? j + N * k : k), regVar,
                           either(i == N - 1, xAbove, xBelow));
      if constexpr (kDim == 3) {
        const State yBelow = readShared<PDE>(sfy, Shape::kYFaces, row * N + i);
        const State yAbove = readShared<PDE>(sfy, Shape::kYFaces, (row + 1) * N + i);
        for (int v = 0; v < kVars; ++v)
          partialBelow[v] = partialBelow[v] - ry * (yAbove[v] - yBelow[v]);
        if ((j == 0 || j == N - 1) && registersFace(registered, 2 + (j == N - 1)))
          storeRegister<PDE>(fluxRegister, reg.index(patch, 1, j == N - 1, 0, i + N * k), regVar,
                             either(j == N - 1, yAbove, yBelow));
      }
    }

    // The face above the last plane closes it and is the patch's upper face.
    const State qTop = readState<PDE>(column + N * planeStride + marchShift[1], vs);
    const State vTop = reconstructedVariables<Recon>(pde, qTop);
    const State vFar =
        kHalo > 1 ? reconstructedVariables<Recon>(
                        pde, readState<PDE>(column + (N + 1) * planeStride + marchShift[1], vs))
                  : vTop;
    const State face = faceFlux<Recon, Flux>(
        pde, upperBelow, cellFaces<Recon, Flux>(pde, vBelow, vTop, vFar, qTop).lower, kMarch);
    State done;
    for (int v = 0; v < kVars; ++v)
      done[v] = partialBelow[v] - rm * (face[v] - faceBelow[v]);
    lambda = columnCellMax<kDim>(lambda,
                                 completeCell<PDE, kHalo>(pde, done, stage, qOut,
                                                          ownPatch + offsetOf(i, row, N - 1), vs,
                                                          writes, rowEnd(i)),
                                 refluxed, N, i, j, N - 1);
    if (registersFace(registered, 2 * kMarch + 1))
      storeRegister<PDE>(fluxRegister, reg.index(patch, kMarch, 1, 0, kDim == 3 ? i + N * j : i),
                         regVar, face);
  }

  if (fallbacks && writes && fell)
    atomicAdd(fallbacks, fell);
  // One eigenvalue per patch: over the block in 3D, over each row's N threads in 2D.
  const double patchMax = groupMax(lambda, kDim == 3 ? Shape::kThreads : N, shared);
  if (tid % (kDim == 3 ? Shape::kThreads : N) == 0 && writes)
    patchLambda[patch] = patchMax;
}

} // namespace scheme_kernels

// The launch for one (reconstruction, Riemann solver); see schemeUpdateHost for the arguments.
// Block shapes as the first-order kernel's (withMarchShape).
template <class Recon, class Flux, class PDE>
void schemeUpdateDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                        const PatchGeometry<PDE::kDim>* geometry, int numPatches, const double* q,
                        double* qOut, const StageWeights& stage, double* patchLambda,
                        double* fluxRegister, const int* patches, unsigned long long* fallbacks,
                        const int* faceLinks, const int* refluxFaces) {
  if (layout.halo < Recon::kHalo || layout.numVars != PDE::kNumVars)
    throw std::invalid_argument("schemeUpdateDevice: " + std::string(Recon::kName) +
                                " needs a halo of " + std::to_string(Recon::kHalo) +
                                " and the PDE's variables");
  if (numPatches <= 0)
    return;
  withMarchShape<PDE::kDim>(layout.cellsPerAxis, "schemeUpdateDevice", [&]<int N, int Rows>() {
    using Shape = scheme_kernels::TileShape<PDE::kDim, N, Rows, Recon::kHalo>;
    const auto kernel = &scheme_kernels::schemeMarch<PDE, Recon, Flux, N, Rows>;
    const std::size_t bytes = sizeof(double) * Shape::sharedDoubles(PDE::kNumVars);
    TESSERA_GPU_CHECK(gpuFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                          gpuFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
    const int blocks = (numPatches + Shape::kPatchesPerBlock - 1) / Shape::kPatchesPerBlock;
    kernel<<<blocks, Shape::kThreads, bytes>>>(pde, layout, geometry, numPatches, patches, q, qOut,
                                               stage, patchLambda, fluxRegister, fallbacks,
                                               faceLinks, refluxFaces);
    TESSERA_GPU_CHECK_LAUNCH();
  });
}

} // namespace tessera
