// FlexibleGmres (engine/linalg/flexible_gmres.hpp), on host vectors, on a nonsymmetric system with
// a known solution: the convection-diffusion operator of tests/support/convection_diffusion_system,
// b = A x* for a chosen x*. With as many Krylov vectors as unknowns GMRES is exact up to
// round-off, with or without a preconditioner; stopped early, the residual it reports is the true
// |b - A x| / |b|.
#include <cmath>
#include <cstddef>
#include <gtest/gtest.h>
#include <vector>

#include "engine/linalg/flexible_gmres.hpp"
#include "tests/support/convection_diffusion_system.hpp"

namespace tessera::linalg {
namespace {

constexpr std::size_t kSize = test::kConvectionDiffusionSize;
const VectorSpace kVectors{MemorySpace::Host, kSize};

void applyA(const double* v, double* w) {
  test::applyConvectionDiffusion(v, w);
}

std::vector<double> exactSolution() {
  std::vector<double> x(kSize);
  for (std::size_t i = 0; i < kSize; ++i)
    x[i] = std::sin(0.3 * double(i)) + 0.01 * double(i);
  return x;
}

double trueRelativeResidual(const std::vector<double>& b, const std::vector<double>& x) {
  std::vector<double> ax(kSize);
  applyA(x.data(), ax.data());
  double r = 0.0, n = 0.0;
  for (std::size_t i = 0; i < kSize; ++i) {
    r += (b[i] - ax[i]) * (b[i] - ax[i]);
    n += b[i] * b[i];
  }
  return std::sqrt(r / n);
}

struct Problem {
  std::vector<double> exact = exactSolution(), b = std::vector<double>(kSize);
  Problem() { applyA(exact.data(), b.data()); }
};

const auto identity = [](const double* v, double* z) {
  for (std::size_t i = 0; i < kSize; ++i)
    z[i] = v[i];
};
const auto jacobi = [](const double* v, double* z) {
  for (std::size_t i = 0; i < kSize; ++i)
    z[i] = v[i] / 2.5;
};

TEST(FlexibleGmres, ExactWithAsManyVectorsAsUnknowns) {
  const Problem p;
  for (const bool preconditioned : {false, true}) {
    FlexibleGmres gmres;
    std::vector<double> x(kSize, 7.0); // overwritten: GMRES starts from zero
    const GmresResult r =
        preconditioned
            ? gmres.solve(kVectors, p.b.data(), x.data(), int(kSize), 1e-14, applyA, jacobi)
            : gmres.solve(kVectors, p.b.data(), x.data(), int(kSize), 1e-14, applyA, identity);
    for (std::size_t i = 0; i < kSize; ++i)
      EXPECT_NEAR(x[i], p.exact[i], 1e-11) << "row " << i << (preconditioned ? ", Jacobi" : "");
    EXPECT_LE(r.relativeResidual, 1e-14);
    EXPECT_LE(r.vectors, int(kSize));
  }
}

TEST(FlexibleGmres, StoppedEarlyReportsItsTrueResidual) {
  const Problem p;
  FlexibleGmres gmres;
  std::vector<double> x(kSize);
  const GmresResult r = gmres.solve(kVectors, p.b.data(), x.data(), 40, 1e-3, applyA, jacobi);
  EXPECT_LT(r.vectors, 40);
  EXPECT_LE(r.relativeResidual, 1e-3);
  EXPECT_NEAR(trueRelativeResidual(p.b, x), r.relativeResidual, 1e-10);
  // Fewer vectors than it needs: the residual it reaches, reported as it is.
  const GmresResult few = gmres.solve(kVectors, p.b.data(), x.data(), 3, 1e-12, applyA, identity);
  EXPECT_EQ(few.vectors, 3);
  EXPECT_GT(few.relativeResidual, 1e-3);
  EXPECT_NEAR(trueRelativeResidual(p.b, x), few.relativeResidual, 1e-10);
}

TEST(FlexibleGmres, ZeroRightHandSideGivesZero) {
  FlexibleGmres gmres;
  std::vector<double> b(kSize, 0.0), x(kSize, 1.0);
  const GmresResult r = gmres.solve(kVectors, b.data(), x.data(), 10, 1e-6, applyA, identity);
  EXPECT_EQ(r.vectors, 0);
  for (double v : x)
    EXPECT_EQ(v, 0.0);
}

} // namespace
} // namespace tessera::linalg
