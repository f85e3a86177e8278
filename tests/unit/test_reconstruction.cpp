// Reconstruction (numerics/reconstruct/): the limiters leave linear data unlimited, vanish at
// extrema, are symmetric and odd; PLM face values never leave the range of the neighbours (no
// new extremum) on random data; the positivity fallback takes a cell to first order.
#include <algorithm>
#include <gtest/gtest.h>
#include <random>

#include "numerics/flux/hllc.hpp"
#include "numerics/flux/rusanov.hpp"
#include "numerics/reconstruct/cell_faces.hpp"
#include "numerics/reconstruct/donor_cell.hpp"
#include "numerics/reconstruct/limiters.hpp"
#include "numerics/reconstruct/plm.hpp"
#include "physics/euler/euler.hpp"

namespace tessera {
namespace {

template <class Limiter>
void checkLimiter() {
  SCOPED_TRACE(Limiter::kName);
  // Linear data: backward and forward differences agree, the slope is that difference.
  for (double d : {-3.5, -1e-9, 0.0, 2e-7, 4.25})
    EXPECT_DOUBLE_EQ(Limiter::slope(d, d), d);
  // Extrema and flat sides: no slope.
  EXPECT_EQ(Limiter::slope(1.0, -2.0), 0.0);
  EXPECT_EQ(Limiter::slope(-0.5, 0.25), 0.0);
  EXPECT_EQ(Limiter::slope(0.0, 3.0), 0.0);
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < 1000; ++k) {
    const double a = u(random), b = u(random);
    EXPECT_EQ(Limiter::slope(a, b), Limiter::slope(b, a));
    EXPECT_EQ(Limiter::slope(-a, -b), -Limiter::slope(a, b));
  }
}

TEST(Limiters, LinearDataUnlimitedExtremaFlatSymmetricAndOdd) {
  checkLimiter<Minmod>();
  checkLimiter<VanLeer>();
  checkLimiter<MonotonizedCentral>();
}

template <class Limiter>
void checkNoNewExtrema() {
  SCOPED_TRACE(Limiter::kName);
  using State = Vec<double, 1>;
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> u(-10.0, 10.0);
  for (int k = 0; k < 10000; ++k) {
    const State below{{u(random)}}, w{{u(random)}}, above{{u(random)}};
    State lower, upper;
    Plm<Limiter>::faces(below, w, above, lower, upper);
    const double lo = std::min({below[0], w[0], above[0]});
    const double hi = std::max({below[0], w[0], above[0]});
    EXPECT_GE(lower[0], lo);
    EXPECT_LE(lower[0], hi);
    EXPECT_GE(upper[0], lo);
    EXPECT_LE(upper[0], hi);
  }
}

TEST(Plm, FaceValuesStayWithinTheNeighboursRange) {
  checkNoNewExtrema<Minmod>();
  checkNoNewExtrema<VanLeer>();
  checkNoNewExtrema<MonotonizedCentral>();
}

TEST(Plm, ReconstructsALinearProfileExactly) {
  using State = Vec<double, 2>;
  const State below{{1.0, -2.0}}, w{{1.5, -1.0}}, above{{2.0, 0.0}};
  State lower, upper;
  Plm<VanLeer>::faces(below, w, above, lower, upper);
  EXPECT_DOUBLE_EQ(lower[0], 1.25);
  EXPECT_DOUBLE_EQ(upper[0], 1.75);
  EXPECT_DOUBLE_EQ(lower[1], -1.5);
  EXPECT_DOUBLE_EQ(upper[1], -0.5);
}

TEST(CellFaces, DonorCellIsTheCellItself) {
  Euler<2> pde;
  const auto q = pde.toConserved({{0.7, 0.1, -0.3, 2.0}});
  const auto f = cellFaces<DonorCell>(pde, q, q, q, q);
  EXPECT_EQ(f.lower, q);
  EXPECT_EQ(f.upper, q);
  EXPECT_FALSE(f.firstOrder);
}

TEST(CellFaces, NegativeFacePressureFallsBackToFirstOrder) {
  // A pressure jump from 1e-6 to 1: the unlimited central slope would put a face's pressure
  // below zero; the cell then keeps its own state at both faces.
  Euler<2> pde;
  const Euler<2>::State below{{1.0, 0.0, 0.0, 1.0}}, w{{1.0, 0.0, 0.0, 1e-6}},
      above{{1.0, 0.0, 0.0, 1e-6}};
  const auto q = pde.toConserved(w);
  const auto f = cellFaces<Plm<Unlimited>>(pde, below, w, above, q);
  EXPECT_TRUE(f.firstOrder);
  EXPECT_EQ(f.lower, q);
  EXPECT_EQ(f.upper, q);
  // With a limiter the same data stay admissible and second order.
  const auto limited = cellFaces<Plm<VanLeer>>(pde, below, w, above, q);
  EXPECT_FALSE(limited.firstOrder);
}

TEST(CellFaces, ARiemannSolverOnPrimitiveStatesGetsThemAsReconstructed) {
  // HLLC takes primitive face states: PLM's are handed over unconverted, the fallback's are the
  // cell's primitive state; Rusanov takes conserved ones, and donor cell gives conserved ones to
  // either.
  Euler<2> pde;
  const Euler<2>::State below{{1.0, 0.1, 0.0, 1.0}}, w{{0.8, 0.2, -0.1, 0.9}},
      above{{0.7, 0.25, -0.2, 0.7}};
  const auto q = pde.toConserved(w);
  const auto primitive = cellFaces<Plm<VanLeer>, Hllc>(pde, below, w, above, q);
  const auto conserved = cellFaces<Plm<VanLeer>, Rusanov>(pde, below, w, above, q);
  EXPECT_EQ(pde.toConserved(primitive.lower), conserved.lower);
  EXPECT_EQ(pde.toConserved(primitive.upper), conserved.upper);
  static_assert(kPrimitiveFaces<Plm<VanLeer>, Hllc> && !kPrimitiveFaces<Plm<VanLeer>, Rusanov>);
  static_assert(!kPrimitiveFaces<DonorCell, Hllc> && !kPrimitiveFaces<Plm<VanLeer>, void>);

  const Euler<2>::State low{{1.0, 0.0, 0.0, 1e-6}}, high{{1.0, 0.0, 0.0, 1.0}};
  const auto fallback = cellFaces<Plm<Unlimited>, Hllc>(pde, high, low, low, pde.toConserved(low));
  EXPECT_TRUE(fallback.firstOrder);
  EXPECT_EQ(fallback.lower, low);
  EXPECT_EQ(fallback.upper, low);
}

} // namespace
} // namespace tessera
