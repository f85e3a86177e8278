// Halo fill across levels on adapted forests, checked against linear data: where the halo cell's
// neighbourhood is on the same or a finer level the fill is exact (a copy, or a mean of fine cells
// whose centres average to the halo cell's centre); where it is coarser, the limited-linear
// interpolation is exact or, with a slope zeroed at a patch edge, off by at most a quarter of a
// coarse cell's variation per axis. Every halo cell is written (the data starts as NaN).
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

#include "amr/forest.hpp"
#include "amr/forest_patches.hpp"
#include "tests/support/leaf_level_at.hpp"

namespace tessera::amr {
namespace {

template <int Dim>
double linear(const Vec<double, Dim>& x) {
  double f = 1.0;
  for (int a = 0; a < Dim; ++a)
    f += (0.3 + 0.4 * a) * x[a];
  return f;
}

template <int Dim>
void checkLinearDataAcrossLevels(Vec<int, Dim> trees, int halo, unsigned seed) {
  Forest<Dim> forest(MPI_COMM_WORLD, trees, Vec<bool, Dim>{}, 1);
  std::mt19937 random(seed);
  for (int round = 0; round < 3; ++round) {
    std::vector<AdaptFlag> flags(forest.leaves().size());
    for (auto& f : flags)
      f = random() % 3 == 0 ? AdaptFlag::Refine : AdaptFlag::Keep;
    forest.adapt(flags, 0, 3);
  }
  const PatchLayout<Dim> layout{4, halo, 1};
  Vec<double, Dim> upper;
  for (int a = 0; a < Dim; ++a)
    upper[a] = trees[a];
  const auto geometry = leafGeometry(forest, layout, Vec<double, Dim>::filled(0.0), upper);
  const auto plan = forestHaloPlan(forest, layout, DomainBoundary<Dim>::all(BoundaryKind::Outflow));

  const int numPatches = int(geometry.size());
  std::vector<double> data(numPatches * layout.patchStride(), std::nan(""));
  const auto centre = [&](int p, const CellIndex<Dim>& c) {
    Vec<double, Dim> x;
    for (int a = 0; a < Dim; ++a)
      x[a] = geometry[p].cellCenter(a, c[a]);
    return x;
  };
  for (int p = 0; p < numPatches; ++p)
    for (int n = 0; n < layout.interiorCells(); ++n) {
      const CellIndex<Dim> c = layout.interiorCell(n);
      data[layout.index(p, 0, c)] = linear<Dim>(centre(p, c));
    }
  fillHalos(plan, layout, ReflectionParity(Dim, 1.0), data.data());

  const auto levelAt = [&](const Vec<double, Dim>& x) {
    return test::leafLevelAt<Dim>(forest, geometry, layout, x);
  };
  int exact = 0, interpolated = 0;
  const int e = layout.extent();
  for (int p = 0; p < numPatches; ++p)
    for (int m = 0; m < layout.cellsWithHalo(); ++m) {
      CellIndex<Dim> c;
      bool isHalo = false;
      for (int a = 0, r = m; a < Dim; ++a, r /= e) {
        c[a] = r % e - halo;
        isHalo = isHalo || c[a] < 0 || c[a] >= layout.cellsPerAxis;
      }
      const double value = data[layout.index(p, 0, c)];
      ASSERT_FALSE(std::isnan(value)) << "an unwritten halo cell in patch " << p;
      const Vec<double, Dim> x = centre(p, c);
      const int level = isHalo ? levelAt(x) : -1;
      if (level < 0)
        continue; // interior cell, or outside the domain (outflow boundary)
      const double expected = linear<Dim>(x);
      if (level >= forest.leaves()[p].level) {
        EXPECT_NEAR(value, expected, 1e-12) << "patch " << p;
        ++exact;
      } else {
        double bound = 1e-12;
        for (int a = 0; a < Dim; ++a)
          bound += (0.3 + 0.4 * a) * 2.0 * geometry[p].dx[a] / 4.0;
        EXPECT_NEAR(value, expected, bound) << "patch " << p;
        ++interpolated;
      }
    }
  EXPECT_GT(exact, 0);
  EXPECT_GT(interpolated, 0) << "the forest has no coarse-fine interface";
}

TEST(AmrHalo, LinearDataAcrossLevels2D) {
  checkLinearDataAcrossLevels<2>({{3, 2}}, 1, 11u);
}
TEST(AmrHalo, LinearDataAcrossLevels2DHaloTwo) {
  checkLinearDataAcrossLevels<2>({{2, 2}}, 2, 5u);
}
TEST(AmrHalo, LinearDataAcrossLevels3D) {
  checkLinearDataAcrossLevels<3>({{2, 1, 1}}, 1, 3u);
}

} // namespace
} // namespace tessera::amr
