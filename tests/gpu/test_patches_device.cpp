// Device halo fill, refluxing (with the corrected patches' eigenvalues) and remap against their
// host twins (fillHalos, reflux and maxEigenvaluesHost, remapPatchData) on 2:1-balanced AMR
// arrangements written by hand: a level-0 grid of 2^Dim patches with one to three of them refined
// into their children. Every halo operation kind occurs (same level, coarser, finer, inflow,
// reflecting, periodic, outflow), in 2D and 3D, with halo widths 1 and 2; the fill for the update
// puts the coarse-fine x faces into an x-face buffer instead. The device's remap
// reads same-level faces through face links, as a solver runs it, with those halo cells NaN.
// Skipped where no device is visible.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <gtest/gtest.h>
#include <vector>

#include "engine/device_array.hpp"
#include "patches/face_links.hpp"
#include "patches/flux_register.hpp"
#include "patches/flux_register_device.hpp"
#include "patches/halo_plan.hpp"
#include "patches/halo_plan_device.hpp"
#include "patches/reflux_cell.hpp"
#include "patches/remap.hpp"
#include "patches/remap_device.hpp"
#include "patches/x_face_buffer.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/patch/max_eigenvalue.hpp"
#include "solvers/patch/reflux_device.hpp"
#include "solvers/patch/rusanov_update_host.hpp"
#include "tests/support/halo_op_cells.hpp"

namespace tessera {
namespace {

constexpr int kCellsPerAxis = 8;

class PatchesDevice : public ::testing::Test {
protected:
  void SetUp() override {
    if (!deviceAvailable())
      GTEST_SKIP() << "no GPU visible";
  }
};

// A pseudo-random value in [1, 2) for each index: distinct values, slopes of both signs (so the
// limiter takes both branches), and far from zero (so relative comparisons are meaningful).
double valueFor(std::size_t i) {
  return 1.0 + std::fabs(std::fmod(std::sin(double(i) * 12.9898 + 0.5) * 43758.5453, 1.0));
}

template <int Dim>
Vec<int, Dim> level0PatchesPerAxis() {
  return Vec<int, Dim>::filled(2);
}

// The level-0 grid of 2^Dim patches, each patch at a position in `refined` replaced by its
// children on level 1 (listed where the parent would be, so patch numbers mix the levels).
template <int Dim>
std::vector<PatchPlacement<Dim>> arrangement(const std::vector<Vec<int, Dim>>& refined) {
  std::vector<PatchPlacement<Dim>> patches;
  for (int n = 0; n < (1 << Dim); ++n) {
    Vec<int, Dim> at;
    for (int a = 0; a < Dim; ++a)
      at[a] = (n >> a) & 1;
    if (std::find(refined.begin(), refined.end(), at) == refined.end()) {
      patches.push_back({0, at});
      continue;
    }
    for (int k = 0; k < (1 << Dim); ++k) {
      Vec<int, Dim> child;
      for (int a = 0; a < Dim; ++a)
        child[a] = 2 * at[a] + ((k >> a) & 1);
      patches.push_back({1, child});
    }
  }
  return patches;
}

template <int Dim>
std::vector<double> inflowState(double base) {
  std::vector<double> s(Dim + 2);
  for (int v = 0; v < Dim + 2; ++v)
    s[v] = base + 0.25 * v;
  return s;
}

// Boundary sets that together cover every kind on both sides of some axis.
template <int Dim>
std::vector<DomainBoundary<Dim>> boundarySets() {
  DomainBoundary<Dim> periodicReflectingInflow, outflowReflectingInflow;
  periodicReflectingInflow.kind[0] = {BoundaryKind::Periodic, BoundaryKind::Periodic};
  periodicReflectingInflow.kind[1] = {BoundaryKind::Reflecting, BoundaryKind::Inflow};
  periodicReflectingInflow.inflowState[1][1] = inflowState<Dim>(1.5);
  outflowReflectingInflow.kind[0] = {BoundaryKind::Outflow, BoundaryKind::Reflecting};
  outflowReflectingInflow.kind[1] = {BoundaryKind::Inflow, BoundaryKind::Outflow};
  outflowReflectingInflow.inflowState[1][0] = inflowState<Dim>(1.25);
  if constexpr (Dim == 3) {
    periodicReflectingInflow.kind[2] = {BoundaryKind::Inflow, BoundaryKind::Outflow};
    periodicReflectingInflow.inflowState[2][0] = inflowState<Dim>(1.75);
    outflowReflectingInflow.kind[2] = {BoundaryKind::Periodic, BoundaryKind::Periodic};
  }
  return {periodicReflectingInflow, outflowReflectingInflow};
}

template <int Dim>
ReflectionParity eulerParity() {
  constexpr int nv = Euler<Dim>::kNumVars;
  ReflectionParity parity(Dim * nv);
  for (int a = 0; a < Dim; ++a)
    for (int v = 0; v < nv; ++v)
      parity[a * nv + v] = Euler<Dim>::reflectionParity(v, a);
  return parity;
}

// Interior cells from valueFor, halo cells NaN: a halo cell no operation writes stays NaN.
template <int Dim>
std::vector<double> interiorOnlyData(const PatchLayout<Dim>& layout, int numPatches) {
  std::vector<double> data(numPatches * layout.patchStride(), std::nan(""));
  for (int p = 0; p < numPatches; ++p)
    for (int v = 0; v < layout.numVars; ++v)
      for (int n = 0; n < layout.interiorCells(); ++n) {
        const std::size_t i = layout.index(p, v, layout.interiorCell(n));
        data[i] = valueFor(i);
      }
  return data;
}

::testing::AssertionResult relativelyClose(double device, double host, std::size_t i) {
  if (std::isnan(host))
    return ::testing::AssertionFailure() << "the host twin left element " << i << " unwritten";
  if (!(std::fabs(device - host) <= 1e-12 * std::fabs(host)))
    return ::testing::AssertionFailure()
           << "element " << i << ": device " << device << ", host " << host;
  return ::testing::AssertionSuccess();
}

template <int Dim>
void checkHaloFill(int halo, const DomainBoundary<Dim>& boundary) {
  const PatchLayout<Dim> layout{kCellsPerAxis, halo, Euler<Dim>::kNumVars};
  const auto patches = arrangement<Dim>({Vec<int, Dim>{}});
  const HaloPlan<Dim> plan =
      buildHaloPlan<Dim>(layout, patches, level0PatchesPerAxis<Dim>(), boundary);
  bool used[4] = {};
  for (const HaloOp<Dim>& op : plan.ops)
    used[int(op.source)] = true;
  ASSERT_TRUE(used[0] && used[1] && used[2] && used[3]) << "an op kind is missing from the plan";

  const ReflectionParity parity = eulerParity<Dim>();
  std::vector<double> host = interiorOnlyData(layout, int(patches.size()));
  DeviceArray<double> device = toDevice(host);
  fillHalos(plan, layout, parity, host.data());
  const DeviceHaloPlan<Dim> devicePlan(plan, layout, parity);
  devicePlan.fill(device.data());

  const std::vector<double> fromDevice = toHost(device);
  for (std::size_t i = 0; i < host.size(); ++i)
    ASSERT_TRUE(relativelyClose(fromDevice[i], host[i], i));

  // A fill for the update: the coarse-fine x faces (with a halo of 1) go to an x-face buffer,
  // every cell of it written once with the host twin's halo value, their halo cells unwritten
  // (NaN); every other cell as before.
  XFaceSlots<Dim> slots(int(patches.size()));
  const std::vector<int> opSlots = slots.assign(plan, layout);
  if (halo == 1)
    ASSERT_GT(slots.count(), 0) << "no coarse-fine x face";
  else
    ASSERT_EQ(slots.count(), 0) << "a face two cells deep is buffered";
  const std::size_t bufferSize = std::size_t(slots.count()) * layout.numVars * xFaceCells(layout);
  DeviceArray<double> split = toDevice(interiorOnlyData(layout, int(patches.size())));
  DeviceArray<double> buffer =
      toDevice(std::vector<double>(std::max<std::size_t>(bufferSize, 1), std::nan("")));
  DeviceHaloPlan<Dim>(plan, layout, parity, opSlots).fill(split.data(), buffer.data());
  const std::vector<double> splitHost = toHost(split), bufferHost = toHost(buffer);
  std::vector<char> buffered(host.size(), 0);
  std::vector<int> writes(bufferSize, 0);
  for (std::size_t o = 0; o < plan.ops.size(); ++o) {
    const int slot = opSlots[o];
    if (slot < 0)
      continue;
    const HaloOp<Dim>& op = plan.ops[o];
    test::forEachCellOf(op, [&](const CellIndex<Dim>& c) {
      for (int v = 0; v < layout.numVars; ++v) {
        const std::size_t i = layout.index(op.dstPatch, v, c);
        const std::size_t b = xFaceBufferIndex(layout, slot, v, c);
        buffered[i] = 1;
        ++writes[b];
        EXPECT_TRUE(relativelyClose(bufferHost[b], host[i], i)) << "in the buffer";
        EXPECT_TRUE(std::isnan(splitHost[i])) << "halo cell " << i << " written beside the buffer";
      }
    });
  }
  for (std::size_t b = 0; b < bufferSize; ++b)
    ASSERT_EQ(writes[b], 1) << "buffer element " << b;
  for (std::size_t i = 0; i < host.size(); ++i) {
    if (!buffered[i]) {
      ASSERT_TRUE(relativelyClose(splitHost[i], host[i], i));
    }
  }
}

TEST_F(PatchesDevice, HaloFillMatchesTheHostTwin2D) {
  for (int halo : {1, 2})
    for (const auto& boundary : boundarySets<2>())
      checkHaloFill<2>(halo, boundary);
}

TEST_F(PatchesDevice, HaloFillMatchesTheHostTwin3D) {
  for (int halo : {1, 2})
    for (const auto& boundary : boundarySets<3>())
      checkHaloFill<3>(halo, boundary);
}

TEST_F(PatchesDevice, EmptyHaloPlanLaunchesNothing) {
  const DeviceHaloPlan<2> empty;
  empty.fill(nullptr);
  const DeviceRefluxPlan<2> noReflux;
  refluxDevice(Euler<2>{}, PatchLayout<2>{kCellsPerAxis, 1, 4}, noReflux.view(), nullptr, nullptr,
               1.0, nullptr, nullptr);
  EXPECT_EQ(noReflux.numCoarsePatches(), 0);
  EXPECT_EQ(noReflux.refluxFaces(), nullptr);
}

// Unequal domain lengths per axis, so dt/dx differs between the axes' corrections.
template <int Dim>
std::vector<PatchGeometry<Dim>> geometryOf(const std::vector<PatchPlacement<Dim>>& patches) {
  const double length[3] = {1.0, 1.5, 0.75};
  std::vector<PatchGeometry<Dim>> geometry(patches.size());
  for (std::size_t p = 0; p < patches.size(); ++p)
    for (int a = 0; a < Dim; ++a) {
      geometry[p].dx[a] =
          length[a] / double((level0PatchesPerAxis<Dim>()[a] * kCellsPerAxis) << patches[p].level);
      geometry[p].origin[a] = patches[p].index[a] * kCellsPerAxis * geometry[p].dx[a];
    }
  return geometry;
}

// The largest eigenvalue of patch p's interior cells outside the layers of the faces `left`
// names (faceLayersOf's bits): what the update leaves in the eigenvalue of a refluxed patch.
template <int Dim>
double eigenvalueOutside(const std::vector<double>& q, const PatchLayout<Dim>& layout, int p,
                         int left) {
  const Euler<Dim> pde;
  double lambda = 0.0;
  for (int c = 0; c < layout.interiorCells(); ++c) {
    const CellIndex<Dim> cell = layout.interiorCell(c);
    if (left & faceLayersOf(cell, layout.cellsPerAxis))
      continue;
    typename Euler<Dim>::State s;
    for (int v = 0; v < Euler<Dim>::kNumVars; ++v)
      s[v] = q[layout.index(p, v, cell)];
    lambda = std::max(lambda, detail::maxEigenvalueAllAxes(pde, s));
  }
  return lambda;
}

// Refluxing with the corrected patches' eigenvalues (refluxDevice) against reflux and the host's
// eigenvalues of the corrected patches, reading only the faces of the flux register that the
// plan registers (the others poisoned). The coarse patch at (1, 0[, 0]) has finer neighbours
// across its lower x and upper y faces (and upper z in 3D; a periodic x adds its upper x face), so
// two (three) operations correct the cells along their edge (at their corner); the fastest cell
// of the grid sits there, so the patch's eigenvalue is right only if refluxing takes the
// corrected cell's.
template <int Dim>
void checkReflux(const DomainBoundary<Dim>& boundary) {
  const Euler<Dim> pde;
  const PatchLayout<Dim> layout{kCellsPerAxis, 1, Euler<Dim>::kNumVars};
  Vec<int, Dim> diagonal{}, coarse{}, behind{};
  diagonal[0] = diagonal[1] = 1;
  coarse[0] = 1;
  behind[0] = behind[Dim - 1] = 1;
  std::vector<Vec<int, Dim>> refined{Vec<int, Dim>{}, diagonal};
  if constexpr (Dim == 3)
    refined.push_back(behind);
  const auto patches = arrangement<Dim>(refined);
  const int numPatches = int(patches.size());
  const std::vector<RefluxOp<Dim>> plan =
      buildRefluxPlan<Dim>(patches, level0PatchesPerAxis<Dim>(), boundary);
  ASSERT_FALSE(plan.empty());
  const int corrected = int(
      std::find(patches.begin(), patches.end(), PatchPlacement<Dim>{0, coarse}) - patches.begin());
  ASSERT_LT(corrected, numPatches);

  const FluxRegisterLayout<Dim> registers{kCellsPerAxis, layout.numVars};
  std::vector<double> fluxRegister(numPatches * registers.patchStride());
  for (std::size_t i = 0; i < fluxRegister.size(); ++i)
    fluxRegister[i] = 0.1 * (valueFor(i + 7919) - 1.5);
  // Density and momenta in [1, 2), energy 20 more: a pressure well above zero.
  std::vector<double> host(numPatches * layout.patchStride());
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = valueFor(i) + (i % layout.patchStride() / layout.varStride() == Dim + 1 ? 20.0 : 0.0);
  CellIndex<Dim> corner = CellIndex<Dim>::filled(kCellsPerAxis - 1);
  corner[0] = 0; // on the x face towards (0, 0[, 0]), the y face towards the diagonal[, the z one]
  host[layout.index(corrected, 1, corner)] = 12.0;
  host[layout.index(corrected, Dim + 1, corner)] += 100.0;
  const std::vector<PatchGeometry<Dim>> geometry = geometryOf(patches);
  const double dt = 0.37 * geometry[0].minSpacing();

  // What the update leaves: each refluxed patch's eigenvalue outside its refluxed layers.
  std::vector<int> refluxFaces(patches.size(), 0), coarsePatches;
  for (const RefluxOp<Dim>& op : plan) {
    refluxFaces[std::size_t(op.coarsePatch)] |= 1 << (2 * op.axis + op.side);
    coarsePatches.push_back(op.coarsePatch);
  }
  std::sort(coarsePatches.begin(), coarsePatches.end());
  coarsePatches.erase(std::unique(coarsePatches.begin(), coarsePatches.end()), coarsePatches.end());
  // The corner's faces: x lower, y upper[, z upper] (a periodic x adds the x upper face).
  const int cornerFaces = 1 << 0 | 1 << 3 | (Dim == 3 ? 1 << 5 : 0);
  EXPECT_EQ(refluxFaces[std::size_t(corrected)] & cornerFaces, cornerFaces);
  std::vector<double> lambda(patches.size()), hostLambda(patches.size());
  maxEigenvaluesHost(pde, layout, numPatches, host.data(), hostLambda.data());
  for (int p = 0; p < numPatches; ++p)
    lambda[std::size_t(p)] = eigenvalueOutside(host, layout, p, refluxFaces[std::size_t(p)]);

  DeviceArray<double> device = toDevice(host), deviceLambda = toDevice(lambda);
  const DeviceArray<PatchGeometry<Dim>> deviceGeometry = toDevice(geometry);
  reflux<Dim>(plan, layout, geometry, fluxRegister.data(), dt, host.data());
  maxEigenvaluesHost(pde, layout, std::span<const int>(coarsePatches), host.data(),
                     hostLambda.data());
  const DeviceRefluxPlan<Dim> devicePlan(plan, numPatches);
  EXPECT_EQ(devicePlan.numCoarsePatches(), int(coarsePatches.size()));
  std::vector<int> deviceMasks(patches.size());
  copyBytes(deviceMasks.data(), MemorySpace::Host, devicePlan.refluxFaces(), MemorySpace::Device,
            deviceMasks.size() * sizeof(int));
  // The device register holds only the faces the plan registers (an update writes no others):
  // the rest poisoned, refluxing must read none of them.
  int unregistered = 0;
  for (int p = 0; p < numPatches; ++p)
    for (int face = 0; face < 2 * Dim; ++face) {
      if (registersFace(deviceMasks[std::size_t(p)], face))
        continue;
      ++unregistered;
      for (int v = 0; v < layout.numVars; ++v)
        for (int t = 0; t < registers.faceCells(); ++t)
          fluxRegister[registers.index(p, face / 2, face % 2, v, t)] = std::nan("");
    }
  EXPECT_GT(unregistered, 0);
  const DeviceArray<double> deviceRegister = toDevice(fluxRegister);
  refluxDevice(pde, layout, devicePlan.view(), deviceGeometry.data(), deviceRegister.data(), dt,
               device.data(), deviceLambda.data());

  const std::vector<double> fromDevice = toHost(device);
  for (std::size_t i = 0; i < host.size(); ++i)
    ASSERT_TRUE(relativelyClose(fromDevice[i], host[i], i));
  for (int p = 0; p < numPatches; ++p)
    EXPECT_EQ(correctedFaces(deviceMasks[std::size_t(p)]), refluxFaces[std::size_t(p)]) << p;
  // The fastest cell is a corrected one: the eigenvalue left by the update is smaller.
  EXPECT_GT(hostLambda[std::size_t(corrected)], 1.2 * lambda[std::size_t(corrected)]);
  const std::vector<double> deviceEigenvalues = toHost(deviceLambda);
  for (int p = 0; p < numPatches; ++p)
    EXPECT_TRUE(relativelyClose(deviceEigenvalues[std::size_t(p)], hostLambda[std::size_t(p)],
                                std::size_t(p)))
        << "eigenvalue of patch " << p;
}

TEST_F(PatchesDevice, RefluxMatchesTheHostTwin2D) {
  for (const auto& boundary : boundarySets<2>())
    checkReflux<2>(boundary);
}

TEST_F(PatchesDevice, RefluxMatchesTheHostTwin3D) {
  for (const auto& boundary : boundarySets<3>())
    checkReflux<3>(boundary);
}

template <int Dim>
void checkRemap(int halo) {
  const PatchLayout<Dim> layout{kCellsPerAxis, halo, Euler<Dim>::kNumVars};
  // Patch 0 is coarsened back (restriction), the last one refined (prolongation), the rest
  // copied.
  const Vec<int, Dim> last = Vec<int, Dim>::filled(1);
  const auto oldPatches = arrangement<Dim>({Vec<int, Dim>{}});
  const auto newPatches = arrangement<Dim>({last});
  const std::vector<RemapOp<Dim>> plan = buildRemapPlan<Dim>(oldPatches, newPatches);
  bool used[3] = {};
  for (const RemapOp<Dim>& op : plan)
    used[int(op.kind)] = true;
  ASSERT_TRUE(used[0] && used[1] && used[2]) << "a remap kind is missing from the plan";

  // The old data with its halos filled on the host; on the device as a solver fills them, without
  // the linked faces (read through the links), edges and corners, which stay NaN.
  std::vector<double> oldData = interiorOnlyData(layout, int(oldPatches.size()));
  std::vector<double> oldOnDevice = oldData;
  const auto boundary = boundarySets<Dim>()[0];
  const HaloPlan<Dim> oldPlan =
      buildHaloPlan<Dim>(layout, oldPatches, level0PatchesPerAxis<Dim>(), boundary);
  fillHalos(oldPlan, layout, eulerParity<Dim>(), oldData.data());
  HaloPlan<Dim> kernelOps = oldPlan;
  FaceLinks<Dim> links = unlinkedFaces<Dim>(int(oldPatches.size()));
  linkSameLevelFaces(kernelOps, layout, links);
  ASSERT_FALSE(links.unreadOps.ops.empty());
  fillHalos(kernelOps, layout, eulerParity<Dim>(), oldOnDevice.data());
  const DeviceArray<double> deviceOld = toDevice(oldOnDevice);
  const DeviceArray<int> deviceLinks = toDevice(links.neighbour);

  const std::size_t newSize = newPatches.size() * layout.patchStride();
  std::vector<double> host(newSize, std::nan(""));
  remapPatchData<Dim>(layout, oldPatches, oldData.data(), newPatches, host.data());
  DeviceArray<double> device = toDevice(std::vector<double>(newSize, std::nan("")));
  const DeviceArray<RemapOp<Dim>> devicePlan = toDevice(plan);
  remapPatchDataDevice(layout, devicePlan, deviceOld.data(), device.data(), deviceLinks.data());

  const std::vector<double> fromDevice = toHost(device);
  for (int p = 0; p < int(newPatches.size()); ++p)
    for (int v = 0; v < layout.numVars; ++v)
      for (int n = 0; n < layout.interiorCells(); ++n) {
        const std::size_t i = layout.index(p, v, layout.interiorCell(n));
        ASSERT_TRUE(relativelyClose(fromDevice[i], host[i], i));
      }
}

TEST_F(PatchesDevice, RemapMatchesTheHostTwin2D) {
  for (int halo : {1, 2})
    checkRemap<2>(halo);
}

TEST_F(PatchesDevice, RemapMatchesTheHostTwin3D) {
  for (int halo : {1, 2})
    checkRemap<3>(halo);
}

} // namespace
} // namespace tessera
