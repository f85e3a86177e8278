// The fused updates on the host write exactly the interior of the new state and each row's x halo
// cells, the latter copies of the row's first and last new cells (the device twins write them so
// that their rows fill whole memory sectors, row_end_copies.hpp): one a side for the first-order
// update, the scheme's halo width for the others (two for PLM, also in a stage that keeps Q^n);
// every other halo cell keeps what it held. The reference is the new state's own interior, read
// back by cell index.
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <span>
#include <vector>

#include "numerics/spatial_scheme.hpp"
#include "patches/boundary.hpp"
#include "physics/euler/euler.hpp"
#include "solvers/patch/fused_update_host.hpp"
#include "tests/support/filled_grid.hpp"

namespace tessera {
namespace {

// A smooth state away from vacuum.
template <int Dim>
typename Euler<Dim>::State smoothState(const Vec<double, Dim>& x) {
  Euler<Dim> pde;
  typename Euler<Dim>::State w;
  w[0] = 1.0 + 0.3 * std::sin(6.0 * x[0] + 2.0 * x[1]);
  for (int a = 0; a < Dim; ++a)
    w[1 + a] = 0.2 * std::cos(3.0 * x[a] + a);
  w[Dim + 1] = 1.0 + 0.2 * std::cos(4.0 * x[Dim - 1]);
  return pde.toConserved(w);
}

template <int Dim>
void expectRowHalosCopyTheRowEnds(const SpatialScheme& scheme, const RungeKuttaStage& stage) {
  using PDE = Euler<Dim>;
  const PDE pde;
  const int n = 8, width = scheme.halo();
  Vec<int, Dim> patches = Vec<int, Dim>::filled(2);
  const test::FilledGrid<Dim> filled(
      pde, smoothState<Dim>, PatchLayout<Dim>{n, width, PDE::kNumVars}, patches,
      Vec<double, Dim>::filled(1.0), DomainBoundary<Dim>::all(BoundaryKind::Reflecting));
  const PatchLayout<Dim>& layout = filled.grid.layout();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> q0(filled.q.data(), filled.q.data() + filled.q.array().size());
  std::vector<double> qNew(q0.size(), nan), lambda(filled.grid.numPatches());
  fusedUpdateHost(pde, scheme, layout, std::span<const PatchGeometry<Dim>>(filled.geometry),
                  filled.q.data(), qNew.data(), StageWeights::of(stage, 0.1 / (2 * n), q0.data()),
                  lambda.data(), nullptr, {}, nullptr);

  int rowHalos = 0, untouched = 0;
  for (int p = 0; p < filled.grid.numPatches(); ++p)
    for (int v = 0; v < PDE::kNumVars; ++v)
      for (int c = 0; c < layout.cellsWithHalo(); ++c) {
        CellIndex<Dim> cell; // cell c with its halo, x fastest
        for (int a = 0, rest = c; a < Dim; ++a, rest /= layout.extent())
          cell[a] = rest % layout.extent() - layout.halo;
        bool rowInterior = true; // every axis but x inside the patch
        for (int a = 1; a < Dim; ++a)
          rowInterior = rowInterior && cell[a] >= 0 && cell[a] < n;
        const double value = qNew[layout.index(p, v, cell)];
        if (cell[0] >= 0 && cell[0] < n && rowInterior) {
          ASSERT_TRUE(std::isfinite(value)) << "interior cell " << c << " of patch " << p;
        } else if (rowInterior) { // x < 0 or x >= n: a copy of the row's end
          CellIndex<Dim> end = cell;
          end[0] = cell[0] < 0 ? 0 : n - 1;
          ASSERT_EQ(value, qNew[layout.index(p, v, end)]) << "row halo " << c << " of patch " << p;
          ++rowHalos;
        } else {
          ASSERT_TRUE(std::isnan(value)) << "halo cell " << c << " of patch " << p << " written";
          ++untouched;
        }
      }
  const int rows = Dim == 3 ? n * n : n;
  EXPECT_EQ(rowHalos, filled.grid.numPatches() * PDE::kNumVars * rows * 2 * width);
  EXPECT_GT(untouched, 0);
}

const SpatialScheme kFirstOrder{ReconstructionKind::DonorCell, LimiterKind::Minmod,
                                RiemannSolverKind::Rusanov};
const SpatialScheme kPlmHllc{ReconstructionKind::Plm, LimiterKind::VanLeer,
                             RiemannSolverKind::Hllc};

TEST(RusanovUpdateHost, RowHalosCopyTheRowEndsAndNoOtherHaloIsWritten2D) {
  expectRowHalosCopyTheRowEnds<2>(kFirstOrder, kForwardEuler.stage[0]);
}

TEST(RusanovUpdateHost, RowHalosCopyTheRowEndsAndNoOtherHaloIsWritten3D) {
  expectRowHalosCopyTheRowEnds<3>(kFirstOrder, kForwardEuler.stage[0]);
}

// The second stage of SSP-RK2 keeps half of Q^n: the copies are of the values written.
TEST(SchemeUpdateHost, RowHalosCopyTheRowEndsAndNoOtherHaloIsWritten2D) {
  expectRowHalosCopyTheRowEnds<2>(kPlmHllc, kSspRk2.stage[1]);
}

TEST(SchemeUpdateHost, RowHalosCopyTheRowEndsAndNoOtherHaloIsWritten3D) {
  expectRowHalosCopyTheRowEnds<3>(kPlmHllc, kSspRk2.stage[1]);
}

} // namespace
} // namespace tessera
