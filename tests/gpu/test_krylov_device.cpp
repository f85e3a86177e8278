// The Krylov vector operations (engine/linalg/vector_ops.hpp) and FlexibleGmres on device vectors
// against their host twins: the dot product of a million values (a grid of many blocks), alone
// and batched, axpy, scaling, fill and the conversions between fp64 and fp32, each equal to the
// host's to 1e-12 relative (the dot sums in another order; the others are exact); then GMRES on
// the convection-diffusion system of tests/support/convection_diffusion_system.hpp with its vectors
// on the device (the operator applied on the host between copies): the same solution and residual
// as on the host to 1e-12. Skipped where no device is visible.
#include <cmath>
#include <cstddef>
#include <gtest/gtest.h>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/linalg/flexible_gmres.hpp"
#include "engine/linalg/vector_ops.hpp"
#include "engine/memory.hpp"
#include "tests/support/convection_diffusion_system.hpp"

namespace tessera::linalg {
namespace {

std::vector<double> wavy(std::size_t n, double phase) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = std::sin(0.37 * double(i) + phase) + 1e-3 * double(i % 97);
  return v;
}

double largestDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i)
    d = std::max(d, std::fabs(a[i] - b[i]));
  return d;
}

TEST(KrylovOnDevice, VectorOperationsEqualTheHost) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  constexpr std::size_t kN = 1u << 20;
  const VectorSpace host{MemorySpace::Host, kN}, device{MemorySpace::Device, kN};
  std::vector<double> a = wavy(kN, 0.0), b = wavy(kN, 1.0);
  DeviceArray<double> da = toSpace(a, MemorySpace::Device), db = toSpace(b, MemorySpace::Device);

  const double hostDot = dot(host, a.data(), b.data());
  EXPECT_NEAR(dot(device, da.data(), db.data()), hostDot, 1e-12 * std::fabs(hostDot));
  EXPECT_NEAR(norm(device, da.data()), norm(host, a.data()), 1e-12 * norm(host, a.data()));
  // Batched: a against b and against itself, in one synchronisation.
  const double* hostPair[] = {b.data(), a.data()};
  const double* devicePair[] = {db.data(), da.data()};
  double hostDots[2], deviceDots[2];
  dots(host, a.data(), hostPair, 2, hostDots);
  dots(device, da.data(), devicePair, 2, deviceDots);
  for (int i = 0; i < 2; ++i)
    EXPECT_NEAR(deviceDots[i], hostDots[i], 1e-12 * std::fabs(hostDots[i]));
  EXPECT_EQ(hostDots[0], hostDot);

  axpy(host, -0.75, a.data(), b.data());
  axpy(device, -0.75, da.data(), db.data());
  EXPECT_EQ(largestDifference(toHost(db), b), 0.0);
  scaled(host, 3.5, b.data(), a.data());
  scaled(device, 3.5, db.data(), da.data());
  EXPECT_EQ(largestDifference(toHost(da), a), 0.0);
  fill(device, 2.25, db.data());
  EXPECT_EQ(largestDifference(toHost(db), std::vector<double>(kN, 2.25)), 0.0);

  std::vector<float> narrow(kN);
  converted(host, a.data(), narrow.data());
  DeviceArray<float> dnarrow(kN, MemorySpace::Device);
  converted(device, static_cast<const double*>(da.data()), dnarrow.data());
  EXPECT_EQ(toHost(dnarrow), narrow);
  std::vector<double> wide(kN);
  converted(host, static_cast<const float*>(narrow.data()), wide.data());
  converted(device, static_cast<const float*>(dnarrow.data()), da.data());
  EXPECT_EQ(largestDifference(toHost(da), wide), 0.0);
}

constexpr std::size_t kSize = test::kConvectionDiffusionSize;

TEST(KrylovOnDevice, GmresOnDeviceVectorsEqualsTheHost) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  const std::vector<double> b = wavy(kSize, 0.5);
  const auto jacobi = [](const VectorSpace& vs, const double* v, double* z) {
    scaled(vs, 1.0 / 2.5, v, z);
  };
  const VectorSpace host{MemorySpace::Host, kSize}, device{MemorySpace::Device, kSize};
  std::vector<double> x(kSize);
  FlexibleGmres onHost;
  const GmresResult h =
      onHost.solve(host, b.data(), x.data(), 12, 1e-14, test::applyConvectionDiffusion,
                   [&](const double* v, double* z) { jacobi(host, v, z); });

  // The operator on the host between copies: what is tested is the vectors' side on the device.
  const auto applyThroughHost = [](const double* v, double* w) {
    std::vector<double> hv(kSize), hw(kSize);
    copyBytes(hv.data(), MemorySpace::Host, v, MemorySpace::Device, kSize * sizeof(double));
    test::applyConvectionDiffusion(hv.data(), hw.data());
    copyBytes(w, MemorySpace::Device, hw.data(), MemorySpace::Host, kSize * sizeof(double));
  };
  DeviceArray<double> db = toSpace(b, MemorySpace::Device), dx(kSize, MemorySpace::Device);
  FlexibleGmres onDevice;
  const GmresResult d = onDevice.solve(device, db.data(), dx.data(), 12, 1e-14, applyThroughHost,
                                       [&](const double* v, double* z) { jacobi(device, v, z); });

  EXPECT_EQ(d.vectors, h.vectors);
  EXPECT_NEAR(d.relativeResidual, h.relativeResidual, 1e-12);
  double scale = 0.0;
  for (double value : x)
    scale = std::max(scale, std::fabs(value));
  EXPECT_LE(largestDifference(toHost(dx), x), 1e-12 * scale);
}

} // namespace
} // namespace tessera::linalg
