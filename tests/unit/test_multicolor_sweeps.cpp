// engine/linalg: the pointwise LU against dense Gaussian elimination; the colored renumbering of a
// mixed mesh (independent colors, a bijection, the renumbered face adjacency as a symmetric
// pattern, partition-boundary rows first in each color); the multicolor sweeps against a dense
// direct solve for both precision policies, and one and two sweeps against multicolor Gauss-Seidel
// worked by hand.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/linalg/block_lu.hpp"
#include "engine/linalg/block_matrix.hpp"
#include "engine/linalg/block_pattern.hpp"
#include "engine/linalg/multicolor_sweeps.hpp"
#include "engine/linalg/precision.hpp"
#include "tests/support/dense_solve.hpp"
#include "tests/support/mixed_box_mesh.hpp"
#include "tests/support/random_block_system.hpp"

namespace tessera {
namespace {

using linalg::DoublePrecision;
using linalg::MixedPrecision;

double maxAbs(const std::vector<double>& v) {
  double m = 0.0;
  for (double x : v)
    m = std::max(m, std::abs(x));
  return m;
}

template <class T>
double relativeError(const std::vector<T>& x, const std::vector<double>& reference) {
  double e = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i)
    e = std::max(e, std::abs(double(x[i]) - reference[i]));
  return e / maxAbs(reference);
}

template <int NB>
void expectLuSolvesRandomBlocks() {
  std::mt19937_64 rng(NB);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> a(NB * NB), b(NB);
    for (double& v : a)
      v = uniform(rng);
    for (int k = 0; k < NB; ++k)
      a[std::size_t(k * NB + k)] += NB; // well conditioned, safe without pivoting
    for (double& v : b)
      v = uniform(rng);
    const std::vector<double> reference = test::denseSolve(a, b);
    std::vector<double> lu = a;
    linalg::luFactorize<NB>(lu.data());
    double x[NB];
    std::copy(b.begin(), b.end(), x);
    linalg::luSolve<NB>(lu.data(), x);
    EXPECT_LE(relativeError(std::vector<double>(x, x + NB), reference), 1e-14) << "trial " << trial;
  }
}

TEST(MulticolorBlockLu, SolvesRandomBlocksLikeGaussianElimination) {
  expectLuSolvesRandomBlocks<2>();
  expectLuSolvesRandomBlocks<3>();
  expectLuSolvesRandomBlocks<4>();
  expectLuSolvesRandomBlocks<5>();
}

TEST(MulticolorPattern, ColorsAreContiguousIndependentAndFollowTheFaces) {
  const unstructured::Mesh mesh = test::mixedBoxMesh({});
  const linalg::ColoredCells colored = linalg::colorContiguousCells(mesh);
  const linalg::BlockPattern& p = colored.pattern;
  const int n = mesh.numCells();
  ASSERT_EQ(p.numRows(), n);
  ASSERT_GE(p.numColors(), 2);
  EXPECT_EQ(p.colorOffsets.front(), 0);
  EXPECT_EQ(p.colorOffsets.back(), n);
  EXPECT_TRUE(std::is_sorted(p.colorOffsets.begin(), p.colorOffsets.end()));
  EXPECT_EQ(p.boundaryRowsPerColor, std::vector<int>(std::size_t(p.numColors()), 0));

  // A bijection: the two maps are inverses and cover every cell.
  ASSERT_EQ(colored.newToOld.size(), std::size_t(n));
  ASSERT_EQ(colored.oldToNew.size(), std::size_t(n));
  for (int row = 0; row < n; ++row)
    EXPECT_EQ(colored.oldToNew[std::size_t(colored.newToOld[std::size_t(row)])], row);

  for (int c = 0; c < p.numColors(); ++c) {
    const int begin = p.colorOffsets[std::size_t(c)], end = p.colorOffsets[std::size_t(c) + 1];
    // The mesh's order survives inside a color.
    EXPECT_TRUE(std::is_sorted(colored.newToOld.begin() + begin, colored.newToOld.begin() + end));
    for (int row = begin; row < end; ++row)
      for (int j = p.rowOffsets[std::size_t(row)]; j < p.rowOffsets[std::size_t(row) + 1]; ++j) {
        const int column = p.columns[std::size_t(j)];
        EXPECT_TRUE(column < begin || column >= end)
            << "rows " << row << " and " << column << " of color " << c << " are adjacent";
      }
  }

  // The pattern is the face adjacency renumbered: every interior face once per direction.
  std::vector<std::pair<int, int>> faces, blocks;
  for (int f = 0; f < mesh.numFaces(); ++f)
    if (const int nb = mesh.neighbour[std::size_t(f)]; nb >= 0) {
      const int a = colored.oldToNew[std::size_t(mesh.owner[std::size_t(f)])];
      const int b = colored.oldToNew[std::size_t(nb)];
      faces.emplace_back(a, b);
      faces.emplace_back(b, a);
    }
  std::sort(faces.begin(), faces.end());
  faces.erase(std::unique(faces.begin(), faces.end()), faces.end());
  for (int row = 0; row < n; ++row) {
    const int begin = p.rowOffsets[std::size_t(row)], end = p.rowOffsets[std::size_t(row) + 1];
    EXPECT_TRUE(std::is_sorted(p.columns.begin() + begin, p.columns.begin() + end));
    EXPECT_EQ(p.blockIndex(row, row), -1);
    for (int j = begin; j < end; ++j) {
      const int column = p.columns[std::size_t(j)];
      blocks.emplace_back(row, column);
      EXPECT_EQ(p.blockIndex(row, column), j);
      EXPECT_GE(p.blockIndex(column, row), 0) << "not symmetric at " << row << ", " << column;
    }
  }
  EXPECT_EQ(blocks, faces);
}

// Every third cell stands for a cell on a partition boundary: rank-independent, just a subset.
std::vector<bool> everyThirdCell(int numCells) {
  std::vector<bool> flags(std::size_t(numCells), false);
  for (std::size_t cell = 0; cell < flags.size(); cell += 3)
    flags[cell] = true;
  return flags;
}

TEST(MulticolorPattern, PartitionBoundaryRowsLeadTheirColor) {
  const unstructured::Mesh mesh = test::mixedBoxMesh({});
  const std::vector<bool> boundary = everyThirdCell(mesh.numCells());
  const linalg::ColoredCells plain = linalg::colorContiguousCells(mesh);
  const linalg::ColoredCells split = linalg::colorContiguousCells(mesh, boundary);
  const linalg::BlockPattern& p = split.pattern;
  ASSERT_EQ(p.colorOffsets, plain.pattern.colorOffsets); // the same coloring, reordered inside
  int flagged = 0;
  for (int c = 0; c < p.numColors(); ++c) {
    const linalg::RowRange front = p.boundaryRows(c), back = p.interiorRows(c);
    EXPECT_EQ(front.begin, p.colorOffsets[std::size_t(c)]);
    EXPECT_EQ(back.end, p.colorOffsets[std::size_t(c) + 1]);
    EXPECT_GT(front.end, front.begin) << "color " << c << " has no boundary row";
    EXPECT_GT(back.end, back.begin) << "color " << c << " has no interior row";
    for (int row = front.begin; row < back.end; ++row) {
      const int cell = split.newToOld[std::size_t(row)];
      EXPECT_EQ(bool(boundary[std::size_t(cell)]), row < front.end) << "row " << row;
      // The plain numbering's color of the cell.
      const int plainRow = plain.oldToNew[std::size_t(cell)];
      EXPECT_TRUE(plainRow >= front.begin && plainRow < back.end) << "cell " << cell;
    }
    // Each part keeps the mesh's order.
    EXPECT_TRUE(
        std::is_sorted(split.newToOld.begin() + front.begin, split.newToOld.begin() + front.end));
    EXPECT_TRUE(
        std::is_sorted(split.newToOld.begin() + back.begin, split.newToOld.begin() + back.end));
    flagged += front.end - front.begin;
  }
  EXPECT_EQ(flagged, int(std::count(boundary.begin(), boundary.end(), true)));
}

TEST(MulticolorPattern, PartitionBoundaryFlagsOfTheWrongLengthAreAnError) {
  const unstructured::Mesh mesh = test::mixedBoxMesh({});
  try {
    linalg::colorContiguousCells(mesh, std::vector<bool>(3, true));
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("3 flags for " + std::to_string(mesh.numCells())),
              std::string::npos)
        << e.what();
  }
}

// A small mixed mesh: 126 cells, so that the dense reference (630 or 378 unknowns) stays cheap.
// Some rows are marked partition-boundary rows, so the sweeps run both parts of every color.
linalg::BlockPattern smallMixedPattern() {
  const unstructured::Mesh mesh = test::mixedBoxMesh({.nx = 3, .ny = 3, .nz = 4});
  return linalg::colorContiguousCells(mesh, everyThirdCell(mesh.numCells())).pattern;
}

constexpr double kDominance = 0.5;

template <int NB, class Precision>
double sweepError(int sweeps) {
  const auto system = test::randomBlockSystem<NB>(smallMixedPattern(), kDominance, 11 + NB);
  const std::vector<double> reference = test::denseSolve(system.dense(), system.rhs);
  auto a = system.template matrix<Precision>(MemorySpace::Host);
  a.factorizeDiagonal();
  std::vector<typename Precision::Update> dq(system.rhs.size());
  linalg::multicolorSweeps(a, system.rhs.data(), dq.data(), sweeps);
  return relativeError(dq, reference);
}

// Each sweep contracts the error by at least kDominance in the max norm: 60 sweeps leave
// 0.5^60 ~ 1e-18 of the (1 / (1 - kDominance))-bounded solution, far below the 1e-12 asked for.
constexpr int kConvergedSweeps = 60;

TEST(MulticolorSweeps, Fp64ConvergesToTheDirectSolution) {
  const double nb5 = sweepError<5, DoublePrecision>(kConvergedSweeps);
  const double nb3 = sweepError<3, DoublePrecision>(kConvergedSweeps);
  EXPECT_LE(nb5, 1e-12);
  EXPECT_LE(nb3, 1e-12);
  // And the sweeps are really iterating: a few leave a visible error.
  const double twoSweeps = sweepError<5, DoublePrecision>(2);
  EXPECT_GT(twoSweeps, 1e-6);
}

// The mixed fixed point x~ satisfies x~ = fl32(D^-1 (R - fl32(O) x~)): dQ is rounded with
// |delta| <= u |x~| (u = 2^-24, half of fp32's epsilon) and O with |dO| <= u |O|. Then
// (D + O)(x~ - x) = D delta - dO x~, so with M = D^-1 O, ||M|| <= rho and || |D^-1| |O| || = rho
// (the max norm; randomBlockSystem scales O to this), ||x~ - x|| <= u (1 + rho) / (1 - rho) ||x~||.
// The factor 2 covers the second-order terms and the double rounding (fp64 products then fp32).
TEST(MulticolorSweeps, MixedConvergesWithinTheFp32RoundingBound) {
  const double u = std::numeric_limits<float>::epsilon() / 2;
  const double bound = 2.0 * u * (1.0 + kDominance) / (1.0 - kDominance);
  const double nb5 = sweepError<5, MixedPrecision>(kConvergedSweeps);
  const double nb3 = sweepError<3, MixedPrecision>(kConvergedSweeps);
  EXPECT_LE(nb5, bound);
  EXPECT_LE(nb3, bound);
}

// Three rows of 2 x 2 blocks, colors {0, 1} and {2}: rows 0 and 1 both touch row 2. Dyadic values,
// so every step is exact in fp32 and fp64.
//   D0 = [2 1; 0 4]  D1 = [4 0; 2 2]  D2 = [2 0; 0 2]   R = (3, 8 | 4, 6 | 10, 10)
//   O02 = [1 0; 0 1]  O12 = [0 1; 0 0]  O20 = [1 0; 0 1]  O21 = [0 1; 1 0]
// Sweep 1, color 0 (dQ2 = 0): dQ0 = D0^-1 (3, 8) = (0.5, 2), dQ1 = D1^-1 (4, 6) = (1, 2);
//   color 1: dQ2 = D2^-1 ((10, 10) - (0.5, 2) - (2, 1)) = (3.75, 3.5).
// Sweep 2, color 0: dQ0 = D0^-1 ((3, 8) - (3.75, 3.5)) = D0^-1 (-0.75, 4.5) = (-0.9375, 1.125),
//   dQ1 = D1^-1 ((4, 6) - (3.5, 0)) = D1^-1 (0.5, 6) = (0.125, 2.875);
//   color 1: dQ2 = D2^-1 ((10, 10) - (-0.9375, 1.125) - (2.875, 0.125)) = (4.03125, 4.375).
template <class Precision>
void expectHandComputedGaussSeidel() {
  linalg::BlockPattern p;
  p.rowOffsets = {0, 1, 2, 4};
  p.columns = {2, 2, 0, 1};
  p.colorOffsets = {0, 2, 3};
  p.boundaryRowsPerColor = {0, 0};
  linalg::BlockMatrix<2, Precision> a(p, MemorySpace::Host);
  const double d[] = {2, 1, 0, 4, 4, 0, 2, 2, 2, 0, 0, 2};
  const double o[] = {1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0};
  std::copy(std::begin(d), std::end(d), a.diagonal());
  for (std::size_t i = 0; i < std::size(o); ++i)
    a.offdiagonal()[i] = typename Precision::Offdiagonal(o[i]);
  a.factorizeDiagonal();
  const std::vector<double> rhs = {3, 8, 4, 6, 10, 10};
  std::vector<typename Precision::Update> dq(6, 99);
  linalg::multicolorSweeps(a, rhs.data(), dq.data(), 1);
  EXPECT_EQ(dq, (std::vector<typename Precision::Update>{0.5, 2, 1, 2, 3.75, 3.5}));
  linalg::multicolorSweeps(a, rhs.data(), dq.data(), 2);
  EXPECT_EQ(
      dq, (std::vector<typename Precision::Update>{-0.9375, 1.125, 0.125, 2.875, 4.03125, 4.375}));
}

TEST(MulticolorSweeps, OneAndTwoSweepsAreMulticolorGaussSeidelByHand) {
  expectHandComputedGaussSeidel<DoublePrecision>();
  expectHandComputedGaussSeidel<MixedPrecision>();
}

} // namespace
} // namespace tessera
