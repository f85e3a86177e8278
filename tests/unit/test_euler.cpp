// The Euler system's pointwise functions against values computed by hand.
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

#include "numerics/flux/rusanov.hpp"
#include "physics/advection/advection.hpp"
#include "physics/conservation_law.hpp"
#include "physics/euler/euler.hpp"

namespace tessera {
namespace {

static_assert(ConservationLaw<Euler<2>>);
static_assert(ConservationLaw<Euler<3>>);
static_assert(ConservationLaw<Advection<2>>);
static_assert(ConservationLaw<Advection<3>>);

// rho = 2, u = (3, -1), p = 5, gamma = 1.4:
// E = p/(gamma-1) + rho |u|^2 / 2 = 12.5 + 10 = 22.5, c = sqrt(1.4 * 5 / 2) = sqrt(3.5).
TEST(Euler2D, ConservedPrimitiveAndPressureByHand) {
  Euler<2> pde;
  const Euler<2>::State q = pde.toConserved({{2.0, 3.0, -1.0, 5.0}});
  EXPECT_DOUBLE_EQ(q[0], 2.0);
  EXPECT_DOUBLE_EQ(q[1], 6.0);
  EXPECT_DOUBLE_EQ(q[2], -2.0);
  EXPECT_DOUBLE_EQ(q[3], 22.5);
  EXPECT_DOUBLE_EQ(pde.pressure(q), 5.0);
  const Euler<2>::State w = pde.toPrimitive(q);
  EXPECT_DOUBLE_EQ(w[1], 3.0);
  EXPECT_DOUBLE_EQ(w[2], -1.0);
  EXPECT_DOUBLE_EQ(w[3], 5.0);
}

TEST(Euler2D, FluxByHand) {
  Euler<2> pde;
  const Euler<2>::State q{{2.0, 6.0, -2.0, 22.5}};
  // x: (rho u, rho u^2 + p, rho u v, (E + p) u) = (6, 23, -6, 82.5)
  const auto fx = pde.flux(q, 0);
  EXPECT_DOUBLE_EQ(fx[0], 6.0);
  EXPECT_DOUBLE_EQ(fx[1], 23.0);
  EXPECT_DOUBLE_EQ(fx[2], -6.0);
  EXPECT_DOUBLE_EQ(fx[3], 82.5);
  // y: (rho v, rho u v, rho v^2 + p, (E + p) v) = (-2, -6, 7, -27.5)
  const auto fy = pde.flux(q, 1);
  EXPECT_DOUBLE_EQ(fy[0], -2.0);
  EXPECT_DOUBLE_EQ(fy[1], -6.0);
  EXPECT_DOUBLE_EQ(fy[2], 7.0);
  EXPECT_DOUBLE_EQ(fy[3], -27.5);
}

TEST(Euler2D, MaxEigenvalueByHand) {
  Euler<2> pde;
  const Euler<2>::State q{{2.0, 6.0, -2.0, 22.5}};
  EXPECT_DOUBLE_EQ(pde.maxEigenvalue(q, 0), 3.0 + std::sqrt(3.5));
  EXPECT_DOUBLE_EQ(pde.maxEigenvalue(q, 1), 1.0 + std::sqrt(3.5));
}

// rho = 1, u = (1, 2, 2), p = 1, gamma = 5/3: E = 1.5 + 4.5 = 6, c = sqrt(5/3).
TEST(Euler3D, FluxAndEigenvalueByHand) {
  Euler<3> pde;
  pde.gamma = 5.0 / 3.0;
  const Euler<3>::State q = pde.toConserved({{1.0, 1.0, 2.0, 2.0, 1.0}});
  EXPECT_DOUBLE_EQ(q[4], 6.0);
  const auto fz = pde.flux(q, 2);
  EXPECT_DOUBLE_EQ(fz[0], 2.0);
  EXPECT_DOUBLE_EQ(fz[1], 2.0);
  EXPECT_DOUBLE_EQ(fz[2], 4.0);
  EXPECT_DOUBLE_EQ(fz[3], 5.0);
  EXPECT_DOUBLE_EQ(fz[4], 14.0);
  EXPECT_DOUBLE_EQ(pde.maxEigenvalue(q, 2), 2.0 + std::sqrt(5.0 / 3.0));
  EXPECT_DOUBLE_EQ(pde.maxEigenvalue(q, 0), 1.0 + std::sqrt(5.0 / 3.0));
}

// The same state: every axis's flux and largest eigenvalue at once (what the fused update asks of
// each cell), by hand, and one axis's alone.
TEST(Euler3D, AxisFluxesTogetherByHand) {
  Euler<3> pde;
  pde.gamma = 5.0 / 3.0;
  const Euler<3>::State q = pde.toConserved({{1.0, 1.0, 2.0, 2.0, 1.0}});
  const double c = std::sqrt(5.0 / 3.0);
  const double byHand[3][5] = {{1.0, 2.0, 2.0, 2.0, 7.0},   // x: rho u, rho u^2 + p, ..., (E + p) u
                               {2.0, 2.0, 5.0, 4.0, 14.0},  // y
                               {2.0, 2.0, 4.0, 5.0, 14.0}}; // z
  const double lambdaByHand[3] = {1.0 + c, 2.0 + c, 2.0 + c};
  const auto all = axisFluxesOf(pde, q);
  for (int axis = 0; axis < 3; ++axis) {
    const auto one = axisFluxOf(pde, q, axis);
    EXPECT_DOUBLE_EQ(all[axis].lambda, lambdaByHand[axis]) << "axis " << axis;
    EXPECT_DOUBLE_EQ(one.lambda, lambdaByHand[axis]) << "axis " << axis;
    for (int v = 0; v < 5; ++v) {
      EXPECT_DOUBLE_EQ(all[axis].f[v], byHand[axis][v]) << "axis " << axis << ", variable " << v;
      EXPECT_DOUBLE_EQ(one.f[v], byHand[axis][v]) << "axis " << axis << ", variable " << v;
    }
  }
}

// A system without axisFlux members gets flux and maxEigenvalue.
TEST(Advection, AxisFluxesFromFluxAndEigenvalue) {
  Advection<2> pde;
  pde.velocity = {{0.5, -2.0}};
  const auto all = axisFluxesOf(pde, {{3.0}});
  EXPECT_DOUBLE_EQ(all[0].f[0], 1.5);
  EXPECT_DOUBLE_EQ(all[1].f[0], -6.0);
  EXPECT_DOUBLE_EQ(all[0].lambda, 0.5);
  EXPECT_DOUBLE_EQ(all[1].lambda, 2.0);
}

// The flux Jacobian A = dF/dQ (central differences) has the eigenvalues u_n - c, u_n (Dim times)
// and u_n + c: its trace is (Dim + 2) u_n and A - (u_n +- c) I is singular. maxEigenvalue must be
// the largest of their magnitudes.
double determinant(std::vector<std::vector<double>> m) {
  const std::size_t n = m.size();
  double det = 1.0;
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::fabs(m[r][c]) > std::fabs(m[pivot][c]))
        pivot = r;
    if (pivot != c) {
      std::swap(m[pivot], m[c]);
      det = -det;
    }
    det *= m[c][c];
    if (m[c][c] == 0.0)
      return 0.0;
    for (std::size_t r = c + 1; r < n; ++r) {
      const double f = m[r][c] / m[c][c];
      for (std::size_t k = c; k < n; ++k)
        m[r][k] -= f * m[c][k];
    }
  }
  return det;
}

TEST(Euler2D, FluxJacobianHasTheAcousticEigenvalues) {
  Euler<2> pde;
  const Euler<2>::State q = pde.toConserved({{1.3, 0.4, -0.7, 2.1}});
  for (int axis = 0; axis < 2; ++axis) {
    std::vector<std::vector<double>> A(4, std::vector<double>(4));
    for (int v = 0; v < 4; ++v) {
      Euler<2>::State qp = q, qm = q;
      const double h = 1e-6;
      qp[v] += h;
      qm[v] -= h;
      const auto fp = pde.flux(qp, axis), fm = pde.flux(qm, axis);
      for (int w = 0; w < 4; ++w)
        A[w][v] = (fp[w] - fm[w]) / (2 * h);
    }
    const double un = q[1 + axis] / q[0];
    const double c = pde.soundSpeed(q);
    EXPECT_NEAR(A[0][0] + A[1][1] + A[2][2] + A[3][3], 4 * un, 1e-8);
    for (double lambda : {un - c, un + c}) {
      auto shifted = A;
      for (int d = 0; d < 4; ++d)
        shifted[d][d] -= lambda;
      EXPECT_NEAR(determinant(shifted), 0.0, 1e-7) << "axis " << axis << " lambda " << lambda;
    }
    // A value between the eigenvalues is not one: the determinant test can fail.
    auto shifted = A;
    for (int d = 0; d < 4; ++d)
      shifted[d][d] -= un + 0.5 * c;
    EXPECT_GT(std::fabs(determinant(shifted)), 1e-3);
    EXPECT_DOUBLE_EQ(pde.maxEigenvalue(q, axis), std::fabs(un) + c);
  }
}

// rho = 1, u = (1, 2, 2), p = 1, gamma = 5/3, c = sqrt(5/3): along n = (1, 2, 2) / 3 the normal
// velocity is 3, along n = (2, 1, -2) / 3 it is 0; along an axis the result is maxEigenvalue. The
// Jacobian of the flux along n (central differences) is singular at u.n - c and u.n + c.
TEST(Euler3D, MaxEigenvalueAlongANormal) {
  Euler<3> pde;
  pde.gamma = 5.0 / 3.0;
  const Euler<3>::State q = pde.toConserved({{1.0, 1.0, 2.0, 2.0, 1.0}});
  const double c = std::sqrt(5.0 / 3.0);
  EXPECT_NEAR(pde.maxEigenvalueAlong(q, {{1.0 / 3, 2.0 / 3, 2.0 / 3}}), 3.0 + c, 1e-14);
  EXPECT_NEAR(pde.maxEigenvalueAlong(q, {{2.0 / 3, 1.0 / 3, -2.0 / 3}}), c, 1e-15);
  EXPECT_DOUBLE_EQ(pde.maxEigenvalueAlong(q, {{-1.0, 0.0, 0.0}}), pde.maxEigenvalue(q, 0));
  EXPECT_DOUBLE_EQ(pde.maxEigenvalueAlong(q, {{0.0, 0.0, 1.0}}), pde.maxEigenvalue(q, 2));

  const Vec<double, 3> n{{0.48, -0.6, 0.64}}; // a unit vector
  const auto normalFlux = [&](const Euler<3>::State& s) {
    Euler<3>::State f = Euler<3>::State::filled(0.0);
    for (int a = 0; a < 3; ++a)
      for (int v = 0; v < 5; ++v)
        f[v] += n[a] * pde.flux(s, a)[v];
    return f;
  };
  std::vector<std::vector<double>> A(5, std::vector<double>(5));
  for (int v = 0; v < 5; ++v) {
    Euler<3>::State qp = q, qm = q;
    const double h = 1e-6;
    qp[v] += h;
    qm[v] -= h;
    const auto fp = normalFlux(qp), fm = normalFlux(qm);
    for (int w = 0; w < 5; ++w)
      A[w][v] = (fp[w] - fm[w]) / (2 * h);
  }
  const double un = 0.48 - 1.2 + 1.28;
  for (double lambda : {un - c, un + c}) {
    auto shifted = A;
    for (int d = 0; d < 5; ++d)
      shifted[d][d] -= lambda;
    EXPECT_NEAR(determinant(shifted), 0.0, 1e-7) << "lambda " << lambda;
  }
  EXPECT_NEAR(pde.maxEigenvalueAlong(q, n), std::fabs(un) + c, 1e-14);
}

TEST(Euler, ReflectionParityNegatesOnlyTheNormalMomentum) {
  for (int axis = 0; axis < 3; ++axis)
    for (int v = 0; v < Euler<3>::kNumVars; ++v)
      EXPECT_EQ(Euler<3>::reflectionParity(v, axis), v == 1 + axis ? -1.0 : 1.0);
}

TEST(Advection, FluxAndEigenvalue) {
  Advection<3> pde;
  pde.velocity = {{0.5, -2.0, 0.0}};
  EXPECT_DOUBLE_EQ(pde.flux({{3.0}}, 0)[0], 1.5);
  EXPECT_DOUBLE_EQ(pde.flux({{3.0}}, 1)[0], -6.0);
  EXPECT_DOUBLE_EQ(pde.maxEigenvalue({{3.0}}, 1), 2.0);
  EXPECT_DOUBLE_EQ(pde.maxEigenvalue({{3.0}}, 2), 0.0);
}

} // namespace
} // namespace tessera
