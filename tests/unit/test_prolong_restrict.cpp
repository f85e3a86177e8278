// Prolongation and restriction between levels: linear data is prolonged exactly, no new extrema
// appear at a jump, and restriction after prolongation returns the coarse data.
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

#include "patches/prolong_restrict.hpp"

namespace tessera {
namespace {

template <int Dim>
std::vector<Vec<int, Dim>> allChildren() {
  std::vector<Vec<int, Dim>> children;
  for (int k = 0; k < (1 << Dim); ++k) {
    Vec<int, Dim> c;
    for (int a = 0; a < Dim; ++a)
      c[a] = (k >> a) & 1;
    children.push_back(c);
  }
  return children;
}

// Fills every cell of patch 0 (halo included) with f(cell centre), cell size 1, origin 0.
template <int Dim, class F>
void fill(const PatchLayout<Dim>& layout, std::vector<double>& data, F&& f) {
  const int e = layout.extent();
  for (int v = 0; v < layout.numVars; ++v)
    for (int n = 0; n < layout.cellsWithHalo(); ++n) {
      CellIndex<Dim> c;
      Vec<double, Dim> x;
      for (int a = 0, m = n; a < Dim; ++a, m /= e) {
        c[a] = m % e - layout.halo;
        x[a] = c[a] + 0.5;
      }
      data[layout.index(0, v, c)] = f(v, x);
    }
}

template <int Dim>
void linearDataIsProlongedExactly() {
  const PatchLayout<Dim> layout{8, 1, 2};
  std::vector<double> coarse(layout.patchStride()), fine(layout.patchStride());
  const auto linear = [](int v, const Vec<double, Dim>& x) {
    double value = 3.0 + v;
    for (int a = 0; a < Dim; ++a)
      value += (0.7 - 0.4 * a + 0.1 * v) * x[a];
    return value;
  };
  fill(layout, coarse, linear);
  for (const auto& child : allChildren<Dim>()) {
    prolongPatch(layout, coarse.data(), 0, child, fine.data(), 0);
    for (int v = 0; v < 2; ++v)
      for (int n = 0; n < layout.interiorCells(); ++n) {
        const CellIndex<Dim> c = layout.interiorCell(n);
        Vec<double, Dim> x; // fine cell centre in coarse cell units
        for (int a = 0; a < Dim; ++a)
          x[a] = child[a] * 4 + (c[a] + 0.5) / 2;
        EXPECT_NEAR(fine[layout.index(0, v, c)], linear(v, x), 1e-13);
      }
  }
}

TEST(Prolongation, LinearDataExactly2D) {
  linearDataIsProlongedExactly<2>();
}
TEST(Prolongation, LinearDataExactly3D) {
  linearDataIsProlongedExactly<3>();
}

TEST(Prolongation, NoNewExtremaAtAJump) {
  const PatchLayout<2> layout{8, 1, 1};
  std::vector<double> coarse(layout.patchStride()), fine(layout.patchStride());
  fill(layout, coarse,
       [](int, const Vec<double, 2>& x) { return x[0] + x[1] < 7.0 ? 1.0 : 0.125; });
  for (const auto& child : allChildren<2>()) {
    prolongPatch(layout, coarse.data(), 0, child, fine.data(), 0);
    for (int n = 0; n < layout.interiorCells(); ++n) {
      const double f = fine[layout.index(0, 0, layout.interiorCell(n))];
      EXPECT_GE(f, 0.125);
      EXPECT_LE(f, 1.0);
    }
  }
}

template <int Dim>
void prolongThenRestrictIsIdentity() {
  const PatchLayout<Dim> layout{8, 2, 3};
  std::vector<double> coarse(layout.patchStride()), fine(layout.patchStride()),
      back(layout.patchStride(), std::nan(""));
  std::mt19937 random(7);
  std::uniform_real_distribution<double> value(0.5, 2.0);
  for (double& x : coarse)
    x = value(random);
  for (const auto& child : allChildren<Dim>()) {
    prolongPatch(layout, coarse.data(), 0, child, fine.data(), 0);
    restrictPatch(layout, fine.data(), 0, child, back.data(), 0);
  }
  for (int v = 0; v < layout.numVars; ++v)
    for (int n = 0; n < layout.interiorCells(); ++n) {
      const CellIndex<Dim> c = layout.interiorCell(n);
      const double expected = coarse[layout.index(0, v, c)];
      EXPECT_NEAR(back[layout.index(0, v, c)], expected, 4e-16 * expected);
    }
}

TEST(ProlongRestrict, IdentityOnRandomData2D) {
  prolongThenRestrictIsIdentity<2>();
}
TEST(ProlongRestrict, IdentityOnRandomData3D) {
  prolongThenRestrictIsIdentity<3>();
}

TEST(Restriction, IsTheMeanOfTheFineCells) {
  const PatchLayout<2> layout{4, 1, 1};
  std::vector<double> fine(layout.patchStride()), coarse(layout.patchStride(), 0.0);
  fill(layout, fine, [](int, const Vec<double, 2>& x) { return x[0] * x[0] + 10 * x[1]; });
  restrictPatch(layout, fine.data(), 0, Vec<int, 2>{{1, 0}}, coarse.data(), 0);
  // Coarse cell (2, 0) of the parent covers fine cells x in {0, 1}, y in {0, 1} of child (1, 0).
  const double mean = (0.25 + 2.25 + 0.25 + 2.25 + 10 * (0.5 + 0.5 + 1.5 + 1.5)) / 4;
  EXPECT_DOUBLE_EQ(coarse[layout.index(0, 0, {{2, 0}})], mean);
}

} // namespace
} // namespace tessera
