// The device fused Rusanov update and the device per-patch eigenvalues against their host twins,
// on 2D and 3D patch grids of N = 8, 16 and 32 (one case with a halo of 2, of which the update
// reads 1), reflecting and periodic boundaries mixed: every interior cell of the new state and
// the x halo cells of its rows (copies of the rows' ends), every flux-register entry and every
// patch's eigenvalue (outputs poisoned with NaN before the run) agree to 1e-12 of each
// quantity's scale, also where only listed patches are updated (the others untouched) and where
// x faces are read from an x-face buffer (their halo cells NaN), and a NaN state gives a NaN
// eigenvalue. Skipped where no device is visible.
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "engine/device_array.hpp"
#include "patches/flux_register.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_store.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "solvers/initial_conditions.hpp"
#include "solvers/patch/rusanov_update_device.hpp"
#include "solvers/patch/rusanov_update_host.hpp"
#include "tests/support/filled_grid.hpp"
#include "tests/support/moved_x_faces.hpp"
#include "tests/support/scale_agreement.hpp"

namespace tessera {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Agreement to 1e-12 of the quantity's scale (tests/support/scale_agreement.hpp): a variable's
// largest magnitude, the flux register's, or an eigenvalue itself.
void expectClose(double device, double host, double scale, const char* what, std::size_t i) {
  ASSERT_TRUE(test::agreeToScale(device, host, scale))
      << what << " " << i << ": device " << device << ", host " << host;
}

// A small grid of patches holding `ic`, halos filled: x reflecting, y periodic, z reflecting.
// Few patches in 3D keep the host twin of 32^3 patches quick; 2D has room for more.
template <int Dim, class PDE, class Initial>
test::FilledGrid<Dim> filledGrid(const PDE& pde, const Initial& ic, int n, int halo) {
  DomainBoundary<Dim> boundary = DomainBoundary<Dim>::all(BoundaryKind::Reflecting);
  boundary.kind[1] = {BoundaryKind::Periodic, BoundaryKind::Periodic};
  Vec<int, Dim> patches;
  if constexpr (Dim == 2)
    patches = {{7, 5}};
  else
    patches = {{3, 2, 2}};
  return test::FilledGrid<Dim>(pde, ic, PatchLayout<Dim>{n, halo, PDE::kNumVars}, patches,
                               Vec<double, Dim>::filled(1.0), boundary);
}

template <class PDE, class Initial>
void expectUpdateMatchesHost(const PDE& pde, const Initial& ic, int n, int halo) {
  constexpr int kDim = PDE::kDim;
  const auto filled = filledGrid<kDim>(pde, ic, n, halo);
  const auto& layout = filled.grid.layout();
  const int numPatches = filled.grid.numPatches();
  const std::size_t registerSize =
      numPatches * FluxRegisterLayout<kDim>{n, PDE::kNumVars}.patchStride();

  const double dt = 0.2 * filled.geometry[0].dx[0];
  std::vector<double> hostNew(filled.q.array().size(), 0.0), hostLambda(numPatches),
      hostRegister(registerSize);
  rusanovUpdateHost(pde, layout, std::span<const PatchGeometry<kDim>>(filled.geometry),
                    filled.q.data(), hostNew.data(), dt, hostLambda.data(), hostRegister.data());

  DeviceArray<double> dq(filled.q.array().size(), MemorySpace::Device);
  dq.copyFrom(filled.q.array());
  auto dNew = toDevice(std::vector<double>(dq.size(), kNaN));
  auto dLambda = toDevice(std::vector<double>(numPatches, kNaN));
  auto dRegister = toDevice(std::vector<double>(registerSize, kNaN));
  const auto dGeometry = toDevice(filled.geometry);
  rusanovUpdateDevice(pde, layout, dGeometry.data(), numPatches, dq.data(), dNew.data(), dt,
                      dLambda.data(), dRegister.data());
  const auto scale = test::variableScales(hostNew, layout, numPatches);
  const double registerScale = test::largestMagnitude(hostRegister);
  // The device update's outputs (dNew, dLambda, dRegister) against the host twin's.
  const auto expectMatchesTheHost = [&](const std::string& run) {
    SCOPED_TRACE(run);
    const auto deviceNew = toHost(dNew), deviceLambda = toHost(dLambda),
               deviceRegister = toHost(dRegister);
    for (int p = 0; p < numPatches; ++p) {
      expectClose(deviceLambda[p], hostLambda[p], hostLambda[p], "eigenvalue of patch", p);
      for (int v = 0; v < PDE::kNumVars; ++v)
        for (int c = 0; c < layout.interiorCells(); ++c) {
          const CellIndex<kDim> cell = layout.interiorCell(c);
          const std::size_t i = layout.index(p, v, cell);
          expectClose(deviceNew[i], hostNew[i], scale[std::size_t(v)], "state at", i);
          if (cell[0] == 0 || cell[0] == n - 1) { // the row's x halo cell beyond it, a copy
            CellIndex<kDim> beyond = cell;
            beyond[0] = cell[0] == 0 ? -1 : n;
            const std::size_t h = layout.index(p, v, beyond);
            expectClose(deviceNew[h], hostNew[h], scale[std::size_t(v)], "row halo at", h);
            ASSERT_EQ(deviceNew[h], deviceNew[i]) << "row halo at " << h;
          }
        }
    }
    for (std::size_t i = 0; i < registerSize; ++i)
      expectClose(deviceRegister[i], hostRegister[i], registerScale, "flux register at", i);
  };
  expectMatchesTheHost("every x face from the halo");

  // A listed subset in another order (odd patches, last first): those patches as in the full
  // update, on the device and on the host; the others untouched (still NaN).
  std::vector<int> listed;
  for (int p = numPatches - 1; p >= 0; --p)
    if (p % 2 == 1)
      listed.push_back(p);
  std::vector<double> hostListed(dq.size(), kNaN), hostListedLambda(numPatches, kNaN);
  rusanovUpdateHost(pde, layout, std::span<const PatchGeometry<kDim>>(filled.geometry),
                    filled.q.data(), hostListed.data(), dt, hostListedLambda.data(), nullptr,
                    std::span<const int>(listed));
  dNew.copyFromHost(std::vector<double>(dq.size(), kNaN));
  dLambda.copyFromHost(std::vector<double>(numPatches, kNaN));
  const auto dListed = toDevice(listed);
  rusanovUpdateDevice(pde, layout, dGeometry.data(), int(listed.size()), dq.data(), dNew.data(), dt,
                      dLambda.data(), nullptr, dListed.data());
  const auto deviceListed = toHost(dNew), deviceListedLambda = toHost(dLambda);
  for (int p = 0; p < numPatches; ++p) {
    const bool isListed = p % 2 == 1;
    for (int c = 0; c < layout.interiorCells(); ++c) {
      const std::size_t i = layout.index(p, 0, layout.interiorCell(c));
      if (isListed) {
        expectClose(deviceListed[i], hostNew[i], scale[0], "listed patch state at", i);
        expectClose(hostListed[i], hostNew[i], scale[0], "listed patch host state at", i);
      } else {
        ASSERT_TRUE(std::isnan(deviceListed[i])) << "unlisted patch " << p << " written";
        ASSERT_TRUE(std::isnan(hostListed[i])) << "unlisted patch " << p << " written on the host";
      }
    }
    if (isListed) {
      expectClose(deviceListedLambda[p], hostLambda[p], hostLambda[p], "listed eigenvalue of patch",
                  p);
      expectClose(hostListedLambda[p], hostLambda[p], hostLambda[p],
                  "listed host eigenvalue of patch", p);
    } else {
      EXPECT_TRUE(std::isnan(deviceListedLambda[p]) && std::isnan(hostListedLambda[p]));
    }
  }

  // The same update without a flux register.
  dNew.copyFromHost(std::vector<double>(dq.size(), kNaN));
  rusanovUpdateDevice(pde, layout, dGeometry.data(), numPatches, dq.data(), dNew.data(), dt,
                      dLambda.data());
  const auto withoutRegister = toHost(dNew);
  for (int c = 0; c < layout.interiorCells(); ++c) {
    const std::size_t i = layout.index(numPatches - 1, PDE::kNumVars - 1, layout.interiorCell(c));
    expectClose(withoutRegister[i], hostNew[i], scale[std::size_t(PDE::kNumVars - 1)],
                "state without a register at", i);
  }

  // Two x faces in three moved into an x-face buffer, their halo cells NaN: the update reads them
  // from the buffer and gives the host twin's state, eigenvalues and register.
  std::vector<double> poisoned(filled.q.data(), filled.q.data() + filled.q.array().size());
  const auto moved = test::moveXFaces<kDim>(layout, numPatches, filled.q.data(), poisoned,
                                            [](int p, int side) { return (p + side) % 3 != 0; });
  ASSERT_GT(moved.count, numPatches / 2);
  dq.copyFromHost(poisoned);
  const auto dSlots = toDevice(moved.slots);
  const auto dValues = toDevice(moved.values);
  dNew.copyFromHost(std::vector<double>(dq.size(), kNaN));
  dLambda.copyFromHost(std::vector<double>(numPatches, kNaN));
  dRegister.copyFromHost(std::vector<double>(registerSize, kNaN));
  rusanovUpdateDevice(pde, layout, dGeometry.data(), numPatches, dq.data(), dNew.data(), dt,
                      dLambda.data(), dRegister.data(), nullptr, nullptr, nullptr, nullptr,
                      XFaceBufferView{dSlots.data(), dValues.data()});
  expectMatchesTheHost("two x faces in three from an x-face buffer");
}

template <class PDE, class Initial>
void expectEigenvaluesMatchHost(const PDE& pde, const Initial& ic, int n) {
  constexpr int kDim = PDE::kDim;
  const auto filled = filledGrid<kDim>(pde, ic, n, 1);
  const auto& layout = filled.grid.layout();
  const int numPatches = filled.grid.numPatches();
  std::vector<double> hostLambda(numPatches);
  maxEigenvaluesHost(pde, layout, numPatches, filled.q.data(), hostLambda.data());

  DeviceArray<double> dq(filled.q.array().size(), MemorySpace::Device);
  dq.copyFrom(filled.q.array());
  auto dLambda = toDevice(std::vector<double>(numPatches, kNaN));
  maxEigenvaluesDevice(pde, layout, numPatches, dq.data(), dLambda.data());
  const auto all = toHost(dLambda);
  for (int p = 0; p < numPatches; ++p)
    expectClose(all[p], hostLambda[p], hostLambda[p], "eigenvalue of patch", p);

  // A remesh's: every third patch is computed, the others keep the eigenvalue of the patch they
  // copy (here the next patch's, of made-up values), on both sides.
  std::vector<int> keptFrom(numPatches);
  std::vector<double> old(numPatches), hostKept(numPatches, kNaN);
  for (int p = 0; p < numPatches; ++p) {
    keptFrom[p] = p % 3 == 0 ? -1 : (p + 1) % numPatches;
    old[p] = 100.0 + p;
  }
  maxEigenvaluesHost(pde, layout, numPatches, filled.q.data(), hostKept.data(),
                     std::span<const int>(keptFrom), old.data());
  const DeviceArray<int> dKeptFrom = toDevice(keptFrom);
  const DeviceArray<double> dOld = toDevice(old);
  dLambda.copyFromHost(std::vector<double>(numPatches, kNaN));
  maxEigenvaluesDevice(pde, layout, numPatches, dq.data(), dLambda.data(), dKeptFrom.data(),
                       dOld.data());
  const auto kept = toHost(dLambda);
  for (int p = 0; p < numPatches; ++p) {
    const double expected = p % 3 == 0 ? hostLambda[p] : old[(p + 1) % numPatches];
    EXPECT_EQ(hostKept[p], expected) << "host, patch " << p;
    expectClose(kept[p], expected, expected, "kept or computed eigenvalue of patch", p);
  }
}

template <int Dim>
EulerPulse<Dim> eulerPulse() {
  EulerPulse<Dim> ic;
  ic.pulse.centre = Vec<double, Dim>::filled(0.4);
  ic.pulse.centre[0] = 0.6;
  ic.pulse.width = 0.2;
  ic.velocity = Vec<double, Dim>::filled(-0.3);
  ic.velocity[0] = 0.8;
  return ic;
}

template <int Dim>
Advection<Dim> advection() {
  Advection<Dim> pde;
  pde.velocity = Vec<double, Dim>::filled(-0.5);
  pde.velocity[0] = 1.0;
  return pde;
}

template <int Dim>
ScalarPulse<Dim> scalarPulse() {
  Vec<double, Dim> centre = Vec<double, Dim>::filled(0.4);
  centre[0] = 0.6;
  return {{centre, 0.2, 1.0, 0.5}};
}

struct Size {
  int n, halo;
};

class FusedUpdateDevice : public ::testing::TestWithParam<Size> {
protected:
  void SetUp() override {
    if (!deviceAvailable())
      GTEST_SKIP() << "no GPU visible";
  }
};

TEST_P(FusedUpdateDevice, Euler2DMatchesTheHostTwin) {
  const auto ic = eulerPulse<2>();
  expectUpdateMatchesHost(ic.pde, ic, GetParam().n, GetParam().halo);
}

TEST_P(FusedUpdateDevice, Euler3DMatchesTheHostTwin) {
  const auto ic = eulerPulse<3>();
  expectUpdateMatchesHost(ic.pde, ic, GetParam().n, GetParam().halo);
}

TEST_P(FusedUpdateDevice, Advection2DMatchesTheHostTwin) {
  expectUpdateMatchesHost(advection<2>(), scalarPulse<2>(), GetParam().n, GetParam().halo);
}

TEST_P(FusedUpdateDevice, Advection3DMatchesTheHostTwin) {
  expectUpdateMatchesHost(advection<3>(), scalarPulse<3>(), GetParam().n, GetParam().halo);
}

TEST_P(FusedUpdateDevice, EigenvaluesMatchTheHostTwin) {
  const auto euler2 = eulerPulse<2>();
  expectEigenvaluesMatchHost(euler2.pde, euler2, GetParam().n);
  const auto euler3 = eulerPulse<3>();
  expectEigenvaluesMatchHost(euler3.pde, euler3, GetParam().n);
  expectEigenvaluesMatchHost(advection<3>(), scalarPulse<3>(), GetParam().n);
}

std::string sizeName(const ::testing::TestParamInfo<Size>& size) {
  std::ostringstream name;
  name << "N" << size.param.n << "Halo" << size.param.halo;
  return name.str();
}

INSTANTIATE_TEST_SUITE_P(PatchSizes, FusedUpdateDevice,
                         ::testing::Values(Size{8, 1}, Size{16, 1}, Size{16, 2}, Size{32, 1}),
                         sizeName);

// A cell of negative pressure has no sound speed: its patch's eigenvalue must come out NaN from
// the update and from the eigenvalue kernel, whatever the other cells give.
TEST(FusedUpdateDeviceNaN, ANegativePressureGivesANaNEigenvalue) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no GPU visible";
  const auto ic = eulerPulse<3>();
  auto filled = filledGrid<3>(ic.pde, ic, 8, 1);
  const auto& layout = filled.grid.layout();
  const int numPatches = filled.grid.numPatches(), bad = 2;
  filled.q.at(bad, Euler<3>::kEnergy, {{3, 4, 5}}) = -1.0;

  DeviceArray<double> dq(filled.q.array().size(), MemorySpace::Device);
  dq.copyFrom(filled.q.array());
  auto dNew = toDevice(std::vector<double>(dq.size(), 0.0));
  auto dLambda = toDevice(std::vector<double>(numPatches, 0.0));
  const auto dGeometry = toDevice(filled.geometry);
  rusanovUpdateDevice(ic.pde, layout, dGeometry.data(), numPatches, dq.data(), dNew.data(),
                      0.01 * filled.geometry[0].dx[0], dLambda.data());
  const auto updated = toHost(dLambda);
  maxEigenvaluesDevice(ic.pde, layout, numPatches, dq.data(), dLambda.data());
  const auto initial = toHost(dLambda);
  for (int p = 0; p < numPatches; ++p) {
    EXPECT_EQ(std::isnan(updated[p]), p == bad) << "update, patch " << p;
    EXPECT_EQ(std::isnan(initial[p]), p == bad) << "eigenvalues, patch " << p;
  }
}

} // namespace
} // namespace tessera
