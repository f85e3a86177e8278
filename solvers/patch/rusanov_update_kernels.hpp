#pragma once
// The fused first-order Rusanov update on the device, by column marching (see
// rusanov_update_device.hpp), and the per-patch eigenvalue reduction for the first step and after
// refluxing. Device code: include it from a .cu file only (solvers/patch/patch_kernels.hpp).
#include <cstddef>
#include <stdexcept>

#include "engine/atomics/warp_device.hpp"
#include "engine/gpu_runtime.hpp"
#include "numerics/flux/rusanov.hpp"
#include "patches/flux_register.hpp"
#include "solvers/patch/block_link_shifts.hpp"
#include "solvers/patch/patch_reduce_kernels.hpp"
#include "solvers/patch/refinement_flags.hpp"
#include "solvers/patch/rusanov_update_device.hpp"
#include "solvers/patch/rusanov_update_host.hpp"

namespace tessera {
namespace rusanov_kernels {

// How a block of the marching kernel covers patches. Threads are N along x times Rows. In 3D the
// rows are y rows of one tile of the xy plane of one patch; the plane is N / Rows tiles, marched
// along z one after another by the same block, so the block ends with the whole patch's
// eigenvalue. In 2D the plane is one x row and the Rows are Rows patches side by side.
template <int Dim, int N, int Rows>
struct MarchShape {
  static constexpr int kThreads = N * Rows;
  static constexpr int kTiles = Dim == 3 ? N / Rows : 1;
  static constexpr int kPatchesPerBlock = Dim == 3 ? 1 : Rows;
  // Shared plane: rows of x from -1 to N; in 3D a ring row below and above the tile for y faces.
  static constexpr int kPitch = N + 2;
  static constexpr int kRingRows = Dim == 3 ? 1 : 0;
  static constexpr int kPlaneCells = (Rows + 2 * kRingRows) * kPitch;
  // Halo ring cells of the tile in its plane: x ends of each row, and in 3D the y rows outside.
  // The upper ones come first, so that the extra faces they compute fall in as few warps as can.
  static constexpr int kUpperRingCells = Rows + (Dim == 3 ? N : 0);
  static constexpr int kRingCells = 2 * kUpperRingCells;
  static_assert(kRingCells <= kThreads, "one ring cell per thread at most");
  static_assert(Dim == 2 || N % Rows == 0, "a 3D plane is whole tiles");
  // Planes whose copies are in flight while one is computed, and the state buffers that takes:
  // those planes and the plane computed (the cell below is kept in registers). Two planes ahead
  // measured 2% faster at 16^3 but 10% slower at 32^3 on an H200, and with x on shuffles 5% (halo)
  // and 10% (linked) slower at 16^3 on an H100, the third buffer taking from the L1: the kernel
  // is bound by latency more than by loads in flight.
  static constexpr int kAhead = 1;
  static constexpr int kStateBuffers = kAhead + 1;
  // 512 resident threads per multiprocessor: at most 128 registers a thread, which the Euler
  // kernels need without spilling (768 threads, 80 registers, spilled and ran 25-30% slower).
  static constexpr int kMinBlocks = 512 / kThreads;
  // Split barriers (see fusedRusanovMarch) where a block has eight warps or more: with two (8^3)
  // they ran 5% slower on an H100, with four (2D) the same as plain ones.
  static constexpr bool kSplitBarriers = kThreads >= 256;
  // Along x, where kShuffleX, a row's cells trade their fluxes and faces by warp shuffles, and
  // only the row's ends meet the ring, in shared memory (one array of Rows cells per end): the
  // flux and eigenvalue of the ring cell below the row (x = -1), of the row's last cell and of the
  // ring cell above it (x = N), and the face between those two. That frees 25 KB a block of 16^3
  // for the L1, which the linked path reads its neighbours' cells through: on an H100 3D 16^3 ran
  // 2% faster (4.7% linked, 15% with the criterion) and 8^3 9% (24% linked). At 32^3 (8 rows, 4
  // tiles) the shuffles spilled 32 bytes a thread and ran 6-13% slower: there the x fluxes and
  // faces are in shared memory, like the y ones (benchmarks/RESULTS.md).
  static constexpr bool kShuffleX = N <= 16;
  enum XEnd { kLowerRingFlux, kLastCellFlux, kUpperRingFlux, kUpperFace, kXEnds };
  static_assert(!kShuffleX || (N <= kWarpSize && kWarpSize % N == 0),
                "a row is N lanes of one warp");
  // In-plane axes whose cells' fluxes and faces are in shared memory.
  static constexpr int kSharedAxes = Dim - 1 - (kShuffleX ? 1 : 0);

  // Doubles of shared memory: in plane cells, the state buffers and, for each of kSharedAxes
  // (x, then y), the cells' physical fluxes and eigenvalues along it and the face fluxes below the
  // cells; with a criterion, its quantity on three planes (kCriterionPlanes).
  static constexpr int kCriterionPlanes = 3;
  __host__ __device__ static constexpr std::size_t planeArrayDoubles(int numVars) {
    return std::size_t(kPlaneCells) *
           std::size_t(kStateBuffers * numVars + kSharedAxes * (2 * numVars + 1));
  }
  __host__ __device__ static constexpr std::size_t sharedDoubles(int numVars, bool flags = false) {
    return planeArrayDoubles(numVars) + (flags ? std::size_t(kCriterionPlanes) * kPlaneCells : 0);
  }
};

template <class PDE>
__device__ inline typename PDE::State loadState(const double* at, std::size_t varStride) {
  typename PDE::State s;
  for (int v = 0; v < PDE::kNumVars; ++v)
    s[v] = at[v * varStride];
  return s;
}

// Variable v of a plane cell lives at array[v * PlaneCells + cell].
template <class PDE, int PlaneCells>
__device__ inline typename PDE::State sharedState(const double* array, int cell) {
  typename PDE::State s;
  for (int v = 0; v < PDE::kNumVars; ++v)
    s[v] = array[v * PlaneCells + cell];
  return s;
}

template <class PDE, int PlaneCells>
__device__ inline void storeShared(const typename PDE::State& s, double* array, int cell) {
  for (int v = 0; v < PDE::kNumVars; ++v)
    array[v * PlaneCells + cell] = s[v];
}

// Starts the copy of one cell's state (one variable every varStride) into a plane buffer.
template <class PDE, int PlaneCells>
__device__ inline void copyStateAsync(const double* at, std::size_t varStride, double* array,
                                      int cell) {
  for (int v = 0; v < PDE::kNumVars; ++v)
    gpuCopyAsync(array + v * PlaneCells + cell, at + v * varStride);
}

// One cell's physical flux and eigenvalue along an axis, stored into the shared arrays of that
// axis.
template <class PDE, int PlaneCells>
__device__ inline void storeAxis(const AxisFlux<typename PDE::State>& a, double* flux,
                                 double* lambda, int cell) {
  storeShared<PDE, PlaneCells>(a.f, flux, cell);
  lambda[cell] = a.lambda;
}
template <class PDE, int PlaneCells>
__device__ inline AxisFlux<typename PDE::State> sharedAxis(const double* flux, const double* lambda,
                                                           int cell) {
  return {sharedState<PDE, PlaneCells>(flux, cell), lambda[cell]};
}

// The Rusanov flux of the face below `cell` along the in-plane axis whose cells lie `step` apart:
// the cell's own state and flux are given, the cell below is read from the plane; the face is
// stored as that cell's and returned.
template <class PDE, int PlaneCells>
__device__ inline typename PDE::State
lowerFace(const double* sq, const double* sf, const double* sl, double* faces, int cell, int step,
          const typename PDE::State& s, const AxisFlux<typename PDE::State>& own) {
  const int below = cell - step;
  const auto face =
      rusanovFaceFlux(sharedState<PDE, PlaneCells>(sq, below), s,
                      sharedState<PDE, PlaneCells>(sf, below), own.f, sl[below], own.lambda);
  storeShared<PDE, PlaneCells>(face, faces, cell);
  return face;
}

// The lane `delta` below's (Up) or above's (Down) state or axis flux within rows of `width`
// lanes.
template <class State>
__device__ inline State shuffledState(const State& s, int delta, int width, bool up) {
  State r;
  for (int v = 0; v < State::size(); ++v)
    r[v] = up ? atomics::warp::shuffleUp(s[v], delta, width)
              : atomics::warp::shuffleDown(s[v], delta, width);
  return r;
}

// One cell's new state: Q_new = partial - r (F_above - F_below) along the marching axis. Its
// eigenvalue comes before its stores (storeNewState): 16^3 ran 1.5% faster on an H100 than with
// the stores first.
template <class State>
__device__ inline State completedState(const State& partial, const State& faceAbove,
                                       const State& faceBelow, double ratio) {
  State updated;
  for (int v = 0; v < State::size(); ++v)
    updated[v] = partial[v] - ratio * (faceAbove[v] - faceBelow[v]);
  return updated;
}

// Stores a cell's new state at `out` (one variable every varStride) if `writes`, and where
// haloShift is not 0 (the first and last cells of a row) also at out + haloShift, the row's halo
// cell beyond it (see rusanov_update_device.hpp). The copy is written out here rather than
// through copyRowEnd (row_end_copies.hpp), whose test inside the loop over the variables made
// this kernel 1.2% slower on an H100.
template <class State>
__device__ inline void storeNewState(const State& updated, double* out, std::size_t varStride,
                                     bool writes, int haloShift) {
  if (!writes)
    return;
  for (int v = 0; v < State::size(); ++v)
    out[v * varStride] = updated[v];
  if (haloShift != 0)
    for (int v = 0; v < State::size(); ++v)
      out[v * varStride + haloShift] = updated[v];
}

// Stores one face's flux into the register; `upper` picks which of the two (choosing per
// element keeps both states in registers rather than taking the address of one).
template <class PDE>
__device__ inline void storeRegister(double* fluxRegister, std::size_t at, std::size_t varStride,
                                     bool upper, const typename PDE::State& lowerFace,
                                     const typename PDE::State& upperFace) {
  for (int v = 0; v < PDE::kNumVars; ++v)
    fluxRegister[at + v * varStride] = upper ? upperFace[v] : lowerFace[v];
}

// The fused update by column marching. Each thread owns the column (i[, j]) of one patch and
// marches the last axis from the halo plane below to the halo plane above. The states of the
// planes arrive by asynchronous copies into a ring of shared plane buffers, kAhead planes ahead
// of the one computed, so that many loads are in flight without holding registers; each thread
// copies its own cell and, for ring threads, one halo ring cell of the plane. Per plane k:
//  1. the cell's physical fluxes and eigenvalues along every axis (once per cell); the in-plane
//     ones go to shared memory, and ring threads do the same for their ring cell along the axis
//     that needs it. Where MarchShape::kShuffleX, the cells keep their x ones: only a row's last
//     cell and the x ring cells put theirs at the row's ends (MarchShape::XEnd). Between arriving
//     at the first barrier and waiting there, the marching face k - 1/2, which needs only the
//     cell below (its state, marching flux and eigenvalue are kept in registers);
//  2. after the first barrier, each in-plane face is computed once: every cell its lower face
//     along each in-plane axis (with kShuffleX, along x with the flux of the lane below, or of
//     the ring for the row's first cell), and the upper ring threads the tile's upper boundary
//     faces; the faces go to shared memory (with kShuffleX, of the x ones only the rows' upper
//     ones). Between arriving at the second barrier and waiting there, the marching face
//     completes plane k - 1: Q_new = partial - r_m (F(k - 1/2) - F(k - 3/2)), written once, and
//     its eigenvalue;
//  3. after the second barrier, the cell's upper faces are its neighbours' lower faces (with
//     kShuffleX, along x the lane above's), giving plane k's partial update Q - r_x dF_x
//     [- r_y dF_y] (the host's order: x, y, then z).
// Where MarchShape::kSplitBarriers and without a criterion, the barriers are split
// (GpuSplitBarrier): the work between a thread's arrival and its wait reads and writes only its
// registers and global memory, and takes some of the time that the ring threads' extra fluxes
// and faces keep the other warps waiting (3D 16^3: 58.9% of the copy against 57.2% with plain
// barriers on an H100, benchmarks/RESULTS.md). Otherwise both parts of the marching face come
// before the first barrier, so that little stays live across the barriers.
// The next plane's fluxes and faces may overwrite this plane's at once: each is read only between
// the two barriers that follow its write. The state buffer refilled at plane k held plane k - 1,
// which every thread finished reading before it arrived at the second barrier of plane k - 1.
// Halo cells of a linked face (faceLinks, patches/face_links.hpp) come from the neighbour's
// interior instead: the kernel reads no edge or corner halo cell, so those are all it needs. The
// x faces with a slot in xFaces (patches/x_face_buffer.hpp) come from that buffer: the x-end ring
// threads read a plane's cell N apart (3D; 1 in 2D) and a variable's face N^(Dim-1) apart there.
//
// With Flags, the kernel also evaluates a built-in criterion on its input (UpdateCriterion): each
// thread puts the criterion's quantity of its cell (and ring cell) of plane k into one of three
// shared planes in step 1, and after the first barrier evaluates the indicator of its cell of
// plane k - 1, whose neighbours along every axis are then in those planes; the patch's largest
// indicator is reduced like its eigenvalue and gives its flag. The indicators read no edge or
// corner halo cell either.
template <class PDE, int N, int Rows, bool Flags>
__global__ void __launch_bounds__(N* Rows, (MarchShape<PDE::kDim, N, Rows>::kMinBlocks))
    fusedRusanovMarch(PDE pde, PatchLayout<PDE::kDim> layout,
                      const PatchGeometry<PDE::kDim>* __restrict__ geometry, int numPatches,
                      const int* __restrict__ patches, const int* __restrict__ faceLinks,
                      XFaceBufferView xFaces, const double* __restrict__ q,
                      double* __restrict__ qNew, double dt, double* __restrict__ patchLambda,
                      double* __restrict__ fluxRegister, amr::IndicatorCriterion criterion,
                      amr::AdaptFlag* __restrict__ flags, const int* __restrict__ refluxFaces) {
  using State = typename PDE::State;
  using Shape = MarchShape<PDE::kDim, N, Rows>;
  constexpr int kDim = PDE::kDim, kMarch = kDim - 1, kCells = Shape::kPlaneCells;
  constexpr int kPitch = Shape::kPitch, kVars = PDE::kNumVars, kAhead = Shape::kAhead;
  // The x-face buffer's strides (patches/x_face_buffer.hpp) along the marching axis and between
  // variables.
  constexpr int kBufferPlane = int(xFaceAxisStride(N, kMarch));
  constexpr std::size_t kBufferVarStride = xFaceVariableStride<kDim>(N);
  extern __shared__ double shared[];
  // Plane p (from -1, the halo plane below, to N) is in state buffer (p + 1) % kStateBuffers.
  const auto planeBuffer = [](int p) {
    return shared + ((p + 1) % Shape::kStateBuffers) * kVars * kCells;
  };
  // The x arrays where not Shape::kShuffleX; the y ones in 3D only.
  double* const sfx = shared + Shape::kStateBuffers * kVars * kCells;
  double* const slx = sfx + kVars * kCells;
  double* const sgx = slx + kCells;
  double* const sfy = Shape::kShuffleX ? sfx : sgx + kVars * kCells;
  double* const sly = sfy + kVars * kCells;
  double* const sgy = sly + kCells;
  // The criterion's quantity of plane p (from -1 to N) is in plane (p + 1) % kCriterionPlanes.
  double* const su = shared + Shape::planeArrayDoubles(kVars);
  const auto quantities = [su](int p) { return su + ((p + 1) % Shape::kCriterionPlanes) * kCells; };

  const int tid = int(threadIdx.x), i = tid % N, row = tid / N;
  // In 2D a block's last rows may lie past the last patch: they compute on a copy of it (every
  // thread must meet every barrier) and write nothing.
  // The k-th patch of the launch: patches[k], or k itself without a list.
  const auto patchAt = [patches](int k) { return patches ? patches[k] : k; };
  const int patchOfRow = kDim == 3 ? int(blockIdx.x) : int(blockIdx.x) * Rows + row;
  const bool writes = patchOfRow < numPatches;
  const int patch = patchAt(writes ? patchOfRow : numPatches - 1);
  const std::size_t vs = layout.varStride();
  const int planeStride = layout.axisStride(kMarch);
  const double* const qPatch = q + layout.varOffset(patch, 0);
  double* const qNewPatch = qNew + layout.varOffset(patch, 0);
  const FluxRegisterLayout<kDim> reg{N, kVars};
  const std::size_t regVar = std::size_t(reg.faceCells());
  const PatchGeometry<kDim> g = geometry[patch];
  const double rx = dt / g.dx[0], rm = dt / g.dx[kMarch];
  const double ry = kDim == 3 ? dt / g.dx[1] : 0.0;
  // The faces whose layers refluxing corrects, and then completes the eigenvalue of; the faces
  // whose fluxes go to the register (every face where no plan says).
  const int faces = refluxFaces ? refluxFaces[patch] : kEveryFaceRegistered<kDim>;
  const int refluxed = correctedFaces(faces);
  const int registered = fluxRegister && writes ? faces : 0;

  // This thread's ring cell, if any: its offset at plane 0, its shared cell and its axis. Upper
  // ring cells (x = N, the y row above the tile) compute the face between them and the tile.
  const bool ringThread = tid < Shape::kRingCells;
  const bool upperRing = tid < Shape::kUpperRingCells;
  int ringI = -1, ringRow = 0, ringAxis = 0;
  if (ringThread) {
    const int u = tid % Shape::kUpperRingCells;
    if (u < Rows) { // x end of row u
      ringI = upperRing ? N : -1;
      ringRow = u;
    } else { // the y row above or below the tile
      ringI = u - Rows;
      ringRow = upperRing ? Rows : -1;
      ringAxis = 1;
    }
  }
  const int ringPatch =
      kDim == 3 ? patch : patchAt(min(int(blockIdx.x) * Rows + ringRow, numPatches - 1));
  const double* const qRingPatch = q + layout.varOffset(ringPatch, 0);
  const int ringCell = (ringRow + Shape::kRingRows) * kPitch + ringI + 1;
  const int cell = (row + Shape::kRingRows) * kPitch + i + 1;
  // The first and last cells of a row also write their value into the row's halo cell beyond:
  // the row's stores then cover whole 32-byte sectors (rusanov_update_device.hpp).
  const int rowEndShift = i == 0 ? -1 : i == N - 1 ? 1 : 0;

  // Where each face's halo cells are read, for each of the block's patches: faceLinkShift.
  __shared__ std::ptrdiff_t linkShift[Shape::kPatchesPerBlock][2 * kDim];
  loadBlockLinkShifts<kDim>(linkShift, layout, faceLinks, patches, numPatches, Shape::kThreads);
  __shared__ int xFaceSlot[Shape::kPatchesPerBlock][2];
  loadBlockXFaceSlots<kDim>(xFaceSlot, xFaces.slots, patches, numPatches, Shape::kThreads);
  // The two barriers of each plane: after the cells' fluxes, after the faces (see above). With
  // the criterion, the registers its quantities take leave none for work between arrival and
  // wait (it spilled 56 bytes a thread and ran 30% slower).
  constexpr bool kSplit = Shape::kSplitBarriers && !Flags;
  // Where Shape::kShuffleX, the row's ends (MarchShape::XEnd), laid out like the plane's arrays
  // with a row's end for a cell: kVars + 1 arrays of Rows doubles each, the last the eigenvalues.
  constexpr int kEndRows = Shape::kShuffleX ? Rows : 1;
  __shared__ double xEnds[Shape::kXEnds][(kVars + 1) * kEndRows];
  const auto endFlux = [](int end) { return xEnds[end]; };
  const auto endLambda = [](int end) { return xEnds[end] + kVars * kEndRows; };
  __shared__ GpuSplitBarrier fluxesStored, facesStored;
  if (kSplit && tid == 0) {
    fluxesStored.initialize(Shape::kThreads);
    facesStored.initialize(Shape::kThreads);
  }
  __syncthreads();
  const int ownRow = kDim == 3 ? 0 : row, ringOwnRow = kDim == 3 ? 0 : ringRow;

  double lambda = 0.0;
  double largestIndicator = amr::indicatorFloor(criterion);
  for (int tile = 0; tile < Shape::kTiles; ++tile) {
    const int j = tile * Rows + row; // 3D: this column's y
    CellIndex<kDim> first{}, ringFirst{};
    first[0] = i;
    ringFirst[0] = ringI;
    if constexpr (kDim == 3) {
      first[1] = j;
      ringFirst[1] = tile * Rows + ringRow;
    }
    first[kMarch] = -1;
    const double* const column = qPatch + layout.cellOffset(first);
    double* const columnNew = qNewPatch + layout.cellOffset(first);
    // The ring cell's column from plane 0: an x end of the row, or in 3D a y row, which lies in
    // the halo for the first and last tiles only; an x end may be in the x-face buffer.
    const double* ring = nullptr;
    bool ringInBuffer = false;
    if (ringThread) {
      const int face = ringI < 0                        ? 0
                       : ringI >= N                     ? 1
                       : kDim == 3 && ringFirst[1] < 0  ? 2
                       : kDim == 3 && ringFirst[1] >= N ? 3
                                                        : -1;
      const int slot = face == 0 || face == 1 ? xFaceSlot[ringOwnRow][face] : -1;
      ringInBuffer = slot >= 0;
      if (ringInBuffer) {
        ring = xFaces.values + xFaceBufferIndex(layout, slot, 0, ringFirst);
      } else {
        ring = qRingPatch + layout.cellOffset(ringFirst) +
               (face < 0 ? 0 : linkShift[ringOwnRow][face]);
      }
    }
    const int marchFace = kDim == 3 ? i + N * j : i; // the column's cell on a marching face

    // Starts the copies of plane p (if there is one) as one group; empty groups keep the count of
    // groups per plane fixed. Only the column needs the halo plane above.
    const auto copyPlane = [&](int p) {
      const std::ptrdiff_t shift = p < 0    ? linkShift[ownRow][2 * kMarch]
                                   : p == N ? linkShift[ownRow][2 * kMarch + 1]
                                            : 0;
      if (p <= N)
        copyStateAsync<PDE, kCells>(column + (p + 1) * planeStride + shift, vs, planeBuffer(p),
                                    cell);
      // The buffer's strides are constants, so that choosing them costs no registers (strides
      // held in registers made the kernel 6% slower on an H200, with or without a buffer).
      if (ringThread && p >= 0 && p < N) {
        if (ringInBuffer)
          copyStateAsync<PDE, kCells>(ring + p * kBufferPlane, kBufferVarStride, planeBuffer(p),
                                      ringCell);
        else
          copyStateAsync<PDE, kCells>(ring + p * planeStride, vs, planeBuffer(p), ringCell);
      }
      gpuCopyAsyncCommit();
    };
    for (int p = -1; p < kAhead; ++p)
      copyPlane(p);
    gpuCopyAsyncWait<kAhead>();
    State below = sharedState<PDE, kCells>(planeBuffer(-1), cell), faceBelow{}, partialBelow{};
    AxisFlux<State> mBelow = axisFluxOf(pde, below, kMarch);
    // The indicator of the column's cell at plane k, its neighbours in the quantity planes (only
    // the column's own cell on the planes above and below).
    const auto indicatorAt = [&](int k) {
      const auto at = [&](const CellIndex<kDim>& c) {
        const int r = kDim == 3 ? c[1] - tile * Rows : row;
        return quantities(c[kMarch])[(r + Shape::kRingRows) * kPitch + c[0] + 1];
      };
      return amr::cellIndicator<kDim>(criterion, at, columnCell<kDim>(i, j, k));
    };
    if constexpr (Flags)
      quantities(-1)[cell] = criterionValue(pde, criterion, below);

#pragma unroll 1
    for (int k = 0; k < N; ++k) {
      copyPlane(k + kAhead);
      gpuCopyAsyncWait<kAhead>(); // plane k has arrived, as far as this thread copied it
      const double* const sq = planeBuffer(k);
      const State s = sharedState<PDE, kCells>(sq, cell);

      // Every axis's flux and eigenvalue of the cell at once: they share its primitive variables.
      const auto own = axisFluxesOf(pde, s);
      // The marching face k - 1/2 needs only the cell below; it completes plane k - 1 (or is the
      // patch's lower face).
      State face;
      const auto marchingFace = [&] {
        face =
            rusanovFaceFlux(below, s, mBelow.f, own[kMarch].f, mBelow.lambda, own[kMarch].lambda);
      };
      const auto completeBelow = [&] {
        if (k > 0) {
          const State completed = completedState(partialBelow, face, faceBelow, rm);
          lambda = columnCellMax<kDim>(lambda, detail::maxEigenvalueAllAxes(pde, completed),
                                       refluxed, N, i, j, k - 1);
          storeNewState(completed, columnNew + k * planeStride, vs, writes, rowEndShift);
        } else if (registersFace(registered, 2 * kMarch)) {
          storeRegister<PDE>(fluxRegister, reg.index(patch, kMarch, 0, 0, marchFace), regVar, false,
                             face, face);
        }
        faceBelow = face;
        below = s;
        mBelow = own[kMarch];
      };
      if constexpr (!kSplit) { // before the barrier, so that little stays live across it
        marchingFace();
        completeBelow();
      }
      if constexpr (!Shape::kShuffleX)
        storeAxis<PDE, kCells>(own[0], sfx, slx, cell);
      else if (i == N - 1)
        storeAxis<PDE, kEndRows>(own[0], endFlux(Shape::kLastCellFlux),
                                 endLambda(Shape::kLastCellFlux), row);
      if constexpr (kDim == 3)
        storeAxis<PDE, kCells>(own[1], sfy, sly, cell);
      if (ringThread) {
        const auto ringState = sharedState<PDE, kCells>(sq, ringCell);
        if (ringAxis == 0) {
          const auto ringFlux = axisFluxOf(pde, ringState, 0);
          if constexpr (Shape::kShuffleX) {
            const int end = upperRing ? Shape::kUpperRingFlux : Shape::kLowerRingFlux;
            storeAxis<PDE, kEndRows>(ringFlux, endFlux(end), endLambda(end), ringRow);
          } else {
            storeAxis<PDE, kCells>(ringFlux, sfx, slx, ringCell);
          }
        } else if constexpr (kDim == 3)
          storeAxis<PDE, kCells>(axisFluxOf(pde, ringState, 1), sfy, sly, ringCell);
        if constexpr (Flags)
          quantities(k)[ringCell] = criterionValue(pde, criterion, ringState);
      }
      if constexpr (Flags)
        quantities(k)[cell] = criterionValue(pde, criterion, s);
      if constexpr (kSplit) { // the marching face while the ring threads compute their fluxes
        auto arrival = fluxesStored.arrive();
        marchingFace();
        fluxesStored.wait(static_cast<GpuSplitBarrier::Token&&>(arrival));
      } else {
        __syncthreads();
      }
      if constexpr (Flags) {
        if (k > 0)
          largestIndicator = std::fmax(largestIndicator, indicatorAt(k - 1));
      }

      State xBelow;
      if constexpr (Shape::kShuffleX) {
        // The cell below along x: its state from the plane; its flux and eigenvalue from the lane
        // below, or the ring's for the row's first cell.
        AxisFlux<State> left{shuffledState(own[0].f, 1, N, true),
                             atomics::warp::shuffleUp(own[0].lambda, 1, N)};
        if (i == 0)
          left = sharedAxis<PDE, kEndRows>(endFlux(Shape::kLowerRingFlux),
                                           endLambda(Shape::kLowerRingFlux), row);
        xBelow = rusanovFaceFlux(sharedState<PDE, kCells>(sq, cell - 1), s, left.f, own[0].f,
                                 left.lambda, own[0].lambda);
      } else {
        xBelow = lowerFace<PDE, kCells>(sq, sfx, slx, sgx, cell, 1, s, own[0]);
      }
      State yBelow{};
      if constexpr (kDim == 3)
        yBelow = lowerFace<PDE, kCells>(sq, sfy, sly, sgy, cell, kPitch, s, own[1]);
      if (upperRing) { // the ring cell's flux along its axis is back in shared memory
        const auto ringState = sharedState<PDE, kCells>(sq, ringCell);
        if (ringAxis == 0 && !Shape::kShuffleX) {
          lowerFace<PDE, kCells>(sq, sfx, slx, sgx, ringCell, 1, ringState,
                                 sharedAxis<PDE, kCells>(sfx, slx, ringCell));
        } else if (ringAxis == 0) { // the row's upper face, between its last cell and the ring's
          const auto last = sharedAxis<PDE, kEndRows>(endFlux(Shape::kLastCellFlux),
                                                      endLambda(Shape::kLastCellFlux), ringRow);
          const auto end = sharedAxis<PDE, kEndRows>(endFlux(Shape::kUpperRingFlux),
                                                     endLambda(Shape::kUpperRingFlux), ringRow);
          const State upper = rusanovFaceFlux(sharedState<PDE, kCells>(sq, ringCell - 1), ringState,
                                              last.f, end.f, last.lambda, end.lambda);
          storeShared<PDE, kEndRows>(upper, endFlux(Shape::kUpperFace), ringRow);
        } else if constexpr (kDim == 3)
          lowerFace<PDE, kCells>(sq, sfy, sly, sgy, ringCell, kPitch, ringState,
                                 sharedAxis<PDE, kCells>(sfy, sly, ringCell));
      }
      if constexpr (kSplit) { // plane k - 1 completed while the ring threads compute their faces
        auto arrival = facesStored.arrive();
        completeBelow();
        facesStored.wait(static_cast<GpuSplitBarrier::Token&&>(arrival));
      } else {
        __syncthreads();
      }

      // The cell's upper x face is its neighbour's lower face: the lane above's, or the ring's.
      State xAbove;
      if constexpr (Shape::kShuffleX) {
        xAbove = shuffledState(xBelow, 1, N, false);
        if (i == N - 1)
          xAbove = sharedState<PDE, kEndRows>(endFlux(Shape::kUpperFace), row);
      } else {
        xAbove = sharedState<PDE, kCells>(sgx, cell + 1);
      }
      for (int v = 0; v < kVars; ++v)
        partialBelow[v] = s[v] - rx * (xAbove[v] - xBelow[v]);
      if ((i == 0 || i == N - 1) && registersFace(registered, i == N - 1)) {
        const int t = kDim == 3 ? j + N * k : k;
        storeRegister<PDE>(fluxRegister, reg.index(patch, 0, i == N - 1, 0, t), regVar, i == N - 1,
                           xBelow, xAbove);
      }
      if constexpr (kDim == 3) {
        const State yAbove = sharedState<PDE, kCells>(sgy, cell + kPitch);
        for (int v = 0; v < kVars; ++v)
          partialBelow[v] = partialBelow[v] - ry * (yAbove[v] - yBelow[v]);
        if ((j == 0 || j == N - 1) && registersFace(registered, 2 + (j == N - 1)))
          storeRegister<PDE>(fluxRegister, reg.index(patch, 1, j == N - 1, 0, i + N * k), regVar,
                             j == N - 1, yBelow, yAbove);
      }
    }

    // The halo plane above closes the last plane and is the patch's upper face.
    gpuCopyAsyncWait<0>();
    const State above = sharedState<PDE, kCells>(planeBuffer(N), cell);
    if constexpr (Flags) {
      quantities(N)[cell] = criterionValue(pde, criterion, above);
      largestIndicator = std::fmax(largestIndicator, indicatorAt(N - 1));
      __syncthreads(); // the next tile's planes take the quantity planes
    }
    const auto mAbove = axisFluxOf(pde, above, kMarch);
    const State face =
        rusanovFaceFlux(below, above, mBelow.f, mAbove.f, mBelow.lambda, mAbove.lambda);
    const State completed = completedState(partialBelow, face, faceBelow, rm);
    lambda = columnCellMax<kDim>(lambda, detail::maxEigenvalueAllAxes(pde, completed), refluxed, N,
                                 i, j, N - 1);
    storeNewState(completed, columnNew + N * planeStride, vs, writes, rowEndShift);
    if (registersFace(registered, 2 * kMarch + 1))
      storeRegister<PDE>(fluxRegister, reg.index(patch, kMarch, 1, 0, marchFace), regVar, true,
                         face, face);
  }

  // One eigenvalue per patch: over the block in 3D, over each row's N threads in 2D.
  const int group = kDim == 3 ? Shape::kThreads : N;
  const double patchMax = groupMax(lambda, group, shared);
  if (tid % group == 0 && writes)
    patchLambda[patch] = patchMax;
  if constexpr (Flags) {
    const double patchIndicator = groupFmax(largestIndicator, group, shared);
    if (tid % group == 0 && writes)
      flags[patch] = amr::flagFor(criterion, patchIndicator);
  }
}

template <class PDE, int N, int Rows, bool Flags>
void launchMarch(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                 const PatchGeometry<PDE::kDim>* geometry, int numPatches, const int* patches,
                 const int* faceLinks, XFaceBufferView xFaces, const double* q, double* qNew,
                 double dt, double* patchLambda, double* fluxRegister,
                 const UpdateCriterion* criterion, const int* refluxFaces) {
  using Shape = MarchShape<PDE::kDim, N, Rows>;
  const auto kernel = &fusedRusanovMarch<PDE, N, Rows, Flags>;
  const std::size_t bytes = sizeof(double) * Shape::sharedDoubles(PDE::kNumVars, Flags);
  // Beyond 48 KiB of shared memory a kernel must opt in.
  TESSERA_GPU_CHECK(gpuFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                        gpuFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
  const int blocks = (numPatches + Shape::kPatchesPerBlock - 1) / Shape::kPatchesPerBlock;
  kernel<<<blocks, Shape::kThreads, bytes>>>(
      pde, layout, geometry, numPatches, patches, faceLinks, xFaces, q, qNew, dt, patchLambda,
      fluxRegister, criterion ? criterion->criterion : amr::IndicatorCriterion{},
      criterion ? criterion->flags : nullptr, refluxFaces);
  TESSERA_GPU_CHECK_LAUNCH();
}

// One block per patch; each thread strides over the interior cells. A patch that keeps an old
// patch's eigenvalue (keptFrom) reads nothing else.
template <class PDE>
__global__ void patchMaxEigenvalues(PDE pde, PatchLayout<PDE::kDim> layout,
                                    const double* __restrict__ q, double* __restrict__ patchLambda,
                                    const int* __restrict__ keptFrom,
                                    const double* __restrict__ keptLambda) {
  extern __shared__ double shared[];
  const int patch = int(blockIdx.x);
  if (keptFrom && keptFrom[patch] >= 0) { // the whole block returns
    if (threadIdx.x == 0)
      patchLambda[patch] = keptLambda[keptFrom[patch]];
    return;
  }
  const double* const qPatch = q + layout.varOffset(patch, 0);
  double lambda = 0.0;
  for (int c = int(threadIdx.x); c < layout.interiorCells(); c += int(blockDim.x)) {
    const auto s =
        loadState<PDE>(qPatch + layout.cellOffset(layout.interiorCell(c)), layout.varStride());
    lambda = maxNaNWins(lambda, detail::maxEigenvalueAllAxes(pde, s));
  }
  const double patchMax = groupMax(lambda, int(blockDim.x), shared);
  if (threadIdx.x == 0)
    patchLambda[patch] = patchMax;
}

} // namespace rusanov_kernels

template <class PDE>
void rusanovUpdateDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout,
                         const PatchGeometry<PDE::kDim>* geometry, int numPatches, const double* q,
                         double* qNew, double dt, double* patchLambda, double* fluxRegister,
                         const int* patches, const int* faceLinks, const UpdateCriterion* criterion,
                         const int* refluxFaces, XFaceBufferView xFaces) {
  if (layout.halo < 1 || layout.numVars != PDE::kNumVars)
    throw std::invalid_argument("rusanovUpdateDevice: the layout needs a halo and the PDE's "
                                "variables");
  if (numPatches <= 0)
    return;
  withMarchShape<PDE::kDim>(layout.cellsPerAxis, "rusanovUpdateDevice", [&]<int N, int Rows>() {
    if (criterion)
      rusanov_kernels::launchMarch<PDE, N, Rows, true>(pde, layout, geometry, numPatches, patches,
                                                       faceLinks, xFaces, q, qNew, dt, patchLambda,
                                                       fluxRegister, criterion, refluxFaces);
    else
      rusanov_kernels::launchMarch<PDE, N, Rows, false>(pde, layout, geometry, numPatches, patches,
                                                        faceLinks, xFaces, q, qNew, dt, patchLambda,
                                                        fluxRegister, nullptr, refluxFaces);
  });
}

template <class PDE>
void maxEigenvaluesDevice(const PDE& pde, const PatchLayout<PDE::kDim>& layout, int count,
                          const double* q, double* patchLambda, const int* keptFrom,
                          const double* keptLambda) {
  if (count <= 0)
    return;
  constexpr int kThreads = 256;
  rusanov_kernels::patchMaxEigenvalues<PDE><<<count, kThreads, kThreads * sizeof(double)>>>(
      pde, layout, q, patchLambda, keptFrom, keptLambda);
  TESSERA_GPU_CHECK_LAUNCH();
}

} // namespace tessera
