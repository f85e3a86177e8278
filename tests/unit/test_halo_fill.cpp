// Halo fill against an independent formulation: every halo cell, by its global cell index, is the
// interior cell the boundary rule names (periodic wrap, outflow clamp, reflecting mirror with the
// normal momentum negated) or the inflow state. The plan works patch-locally; this test works on
// global indices, so the two cannot share a mistake.
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

#include "patches/halo_plan.hpp"
#include "patches/patch_store.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/patch/patch_solver.hpp"

namespace tessera {
namespace {

// A distinct value for every (variable, global cell).
template <int Dim>
double interiorValue(int var, const Vec<long long, Dim>& g) {
  double x = 1000.0 * (var + 1);
  for (int a = 0; a < Dim; ++a)
    x += std::pow(37.0, a) * double(g[a]);
  return x;
}

template <int Dim>
void checkHaloFill(Vec<int, Dim> patches, int n, int h, const DomainBoundary<Dim>& boundary) {
  constexpr int nv = Euler<Dim>::kNumVars;
  const UniformPatchGrid<Dim> grid(PatchLayout<Dim>{n, h, nv}, patches, Vec<double, Dim>::filled(0),
                                   Vec<double, Dim>::filled(1));
  const auto& layout = grid.layout();
  PatchStore<Dim> store(layout, grid.numPatches(), MemorySpace::Host);
  for (double& x : store.array().hostSpan())
    x = std::nan(""); // poison: an unfilled halo cell fails the comparison

  for (int p = 0; p < grid.numPatches(); ++p)
    for (int c = 0; c < layout.interiorCells(); ++c) {
      const CellIndex<Dim> i = layout.interiorCell(c);
      Vec<long long, Dim> g;
      for (int a = 0; a < Dim; ++a)
        g[a] = (long long)grid.patchCoords(p)[a] * n + i[a];
      for (int v = 0; v < nv; ++v)
        store.at(p, v, i) = interiorValue<Dim>(v, g);
    }

  fillHalos(buildUniformHaloPlan(grid, boundary), layout, reflectionParityOf<Euler<Dim>>(),
            store.data());

  int checked = 0;
  for (int p = 0; p < grid.numPatches(); ++p) {
    const int e = layout.extent();
    for (int c = 0; c < layout.cellsWithHalo(); ++c) {
      CellIndex<Dim> i;
      bool halo = false;
      for (int a = 0, m = c; a < Dim; ++a, m /= e) {
        i[a] = m % e - h;
        halo = halo || i[a] < 0 || i[a] >= n;
      }
      if (!halo)
        continue;
      Vec<long long, Dim> g;
      double sign[nv];
      for (int v = 0; v < nv; ++v)
        sign[v] = 1.0;
      int inflowAxis = -1, inflowSide = 0;
      for (int a = 0; a < Dim; ++a) {
        const long long G = (long long)patches[a] * n;
        g[a] = (long long)grid.patchCoords(p)[a] * n + i[a];
        if (g[a] >= 0 && g[a] < G)
          continue;
        const int side = g[a] < 0 ? 0 : 1;
        switch (boundary.kind[a][side]) {
        case BoundaryKind::Periodic:
          g[a] = (g[a] + G) % G;
          break;
        case BoundaryKind::Outflow:
          g[a] = side == 0 ? 0 : G - 1;
          break;
        case BoundaryKind::Reflecting:
          g[a] = side == 0 ? -1 - g[a] : 2 * G - 1 - g[a];
          sign[1 + a] = -sign[1 + a];
          break;
        case BoundaryKind::Inflow:
          if (inflowAxis < 0) {
            inflowAxis = a;
            inflowSide = side;
          }
          break;
        }
      }
      for (int v = 0; v < nv; ++v) {
        const double expected = inflowAxis >= 0 ? boundary.inflowState[inflowAxis][inflowSide][v]
                                                : sign[v] * interiorValue<Dim>(v, g);
        ASSERT_EQ(store.at(p, v, i), expected) << "patch " << p << " var " << v;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0);
}

template <int Dim>
std::vector<double> inflowState(double base) {
  std::vector<double> s(Dim + 2);
  for (int v = 0; v < Dim + 2; ++v)
    s[v] = base + v;
  return s;
}

TEST(HaloFill, PeriodicEverywhere2D) {
  checkHaloFill<2>({{3, 2}}, 4, 2, DomainBoundary<2>::all(BoundaryKind::Periodic));
}

TEST(HaloFill, OutflowEverywhere2D) {
  checkHaloFill<2>({{3, 2}}, 4, 2, DomainBoundary<2>::all(BoundaryKind::Outflow));
}

TEST(HaloFill, ReflectingEverywhere2D) {
  checkHaloFill<2>({{2, 3}}, 4, 2, DomainBoundary<2>::all(BoundaryKind::Reflecting));
}

TEST(HaloFill, InflowEverywhere2D) {
  auto b = DomainBoundary<2>::all(BoundaryKind::Inflow);
  for (int a = 0; a < 2; ++a)
    for (int s = 0; s < 2; ++s)
      b.inflowState[a][s] = inflowState<2>(-10.0 * (2 * a + s + 1));
  checkHaloFill<2>({{2, 2}}, 4, 1, b);
}

TEST(HaloFill, MixedKindsMeetAtCorners2D) {
  DomainBoundary<2> b;
  b.kind[0] = {BoundaryKind::Reflecting, BoundaryKind::Inflow};
  b.kind[1] = {BoundaryKind::Outflow, BoundaryKind::Reflecting};
  b.inflowState[0][1] = inflowState<2>(-7.0);
  checkHaloFill<2>({{3, 2}}, 4, 2, b);
  b.kind[1] = {BoundaryKind::Periodic, BoundaryKind::Periodic};
  checkHaloFill<2>({{3, 2}}, 4, 2, b);
}

TEST(HaloFill, SinglePatchPeriodicWrapsOntoItself) {
  checkHaloFill<2>({{1, 1}}, 4, 2, DomainBoundary<2>::all(BoundaryKind::Periodic));
}

TEST(HaloFill, MixedKinds3D) {
  DomainBoundary<3> b;
  b.kind[0] = {BoundaryKind::Periodic, BoundaryKind::Periodic};
  b.kind[1] = {BoundaryKind::Reflecting, BoundaryKind::Outflow};
  b.kind[2] = {BoundaryKind::Inflow, BoundaryKind::Reflecting};
  b.inflowState[2][0] = inflowState<3>(-3.0);
  checkHaloFill<3>({{2, 2, 3}}, 4, 2, b);
  checkHaloFill<3>({{2, 1, 2}}, 4, 1, DomainBoundary<3>::all(BoundaryKind::Reflecting));
}

TEST(HaloPlan, RejectsHalfPeriodicAxesAndWrongInflowSize) {
  const UniformPatchGrid<2> grid(PatchLayout<2>{4, 1, 4}, {{2, 2}}, {{0, 0}}, {{1, 1}});
  DomainBoundary<2> b = DomainBoundary<2>::all(BoundaryKind::Outflow);
  b.kind[0][0] = BoundaryKind::Periodic;
  EXPECT_THROW(buildUniformHaloPlan(grid, b), std::invalid_argument);
  b = DomainBoundary<2>::all(BoundaryKind::Outflow);
  b.kind[1][1] = BoundaryKind::Inflow;
  b.inflowState[1][1] = {1.0, 2.0};
  EXPECT_THROW(buildUniformHaloPlan(grid, b), std::invalid_argument);
}

} // namespace
} // namespace tessera
