#pragma once
// Random block systems A dQ = R on a given pattern for the multicolor solver tests, with a known
// block diagonal dominance: every D block is diagonally dominant (safe to factorize without
// pivoting), and each row's O blocks are scaled so that max over scalar rows of
// sum_j |D_i^-1| |O_ij| equals `dominance` exactly. With dominance < 1 the multicolor sweeps
// contract the error by at least that factor per sweep (in the max norm), and the fixed point's
// sensitivity to rounding of O and dQ is bounded by it (see the mixed-precision test).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "engine/linalg/block_matrix.hpp"
#include "engine/linalg/block_pattern.hpp"
#include "tests/support/dense_solve.hpp"

namespace tessera::test {

template <int NB>
struct RandomBlockSystem {
  static constexpr std::size_t kEntries = std::size_t(NB) * NB;
  linalg::BlockPattern pattern;
  std::vector<double> diagonal;    // numRows blocks, row-major, not factorized
  std::vector<double> offdiagonal; // numBlocks blocks, row-major, in double (before any rounding)
  std::vector<double> rhs;         // numRows * NB

  // The values in a matrix of any policy and space (O rounded to the policy's type).
  template <class Precision>
  linalg::BlockMatrix<NB, Precision> matrix(MemorySpace space) const {
    using Offdiagonal = typename Precision::Offdiagonal;
    linalg::BlockMatrix<NB, Precision> a(pattern, space);
    std::vector<Offdiagonal> o(offdiagonal.size());
    std::transform(offdiagonal.begin(), offdiagonal.end(), o.begin(),
                   [](double v) { return Offdiagonal(v); });
    copyBytes(a.diagonal(), space, diagonal.data(), MemorySpace::Host,
              diagonal.size() * sizeof(double));
    copyBytes(a.offdiagonal(), space, o.data(), MemorySpace::Host, o.size() * sizeof(Offdiagonal));
    return a;
  }

  // A = D + O as a dense row-major matrix of numRows * NB unknowns.
  std::vector<double> dense() const {
    const std::size_t n = std::size_t(pattern.numRows()) * NB;
    std::vector<double> a(n * n, 0.0);
    auto put = [&](int row, int column, const double* block) {
      for (std::size_t k = 0; k < NB; ++k)
        for (std::size_t l = 0; l < NB; ++l)
          a[(std::size_t(row) * NB + k) * n + std::size_t(column) * NB + l] = block[k * NB + l];
    };
    for (int row = 0; row < pattern.numRows(); ++row) {
      put(row, row, &diagonal[std::size_t(row) * kEntries]);
      for (int j = pattern.rowOffsets[std::size_t(row)];
           j < pattern.rowOffsets[std::size_t(row) + 1]; ++j)
        put(row, pattern.columns[std::size_t(j)], &offdiagonal[std::size_t(j) * kEntries]);
    }
    return a;
  }
};

template <int NB>
RandomBlockSystem<NB> randomBlockSystem(const linalg::BlockPattern& pattern, double dominance,
                                        std::uint64_t seed) {
  constexpr std::size_t kEntries = RandomBlockSystem<NB>::kEntries;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  RandomBlockSystem<NB> s;
  s.pattern = pattern;
  const std::size_t rows = std::size_t(pattern.numRows());
  s.diagonal.resize(rows * kEntries);
  s.offdiagonal.resize(std::size_t(pattern.numBlocks()) * kEntries);
  s.rhs.resize(rows * NB);
  for (double& v : s.offdiagonal)
    v = uniform(rng);
  for (double& v : s.rhs)
    v = uniform(rng);
  for (std::size_t row = 0; row < rows; ++row) {
    double* d = &s.diagonal[row * kEntries];
    for (std::size_t e = 0; e < kEntries; ++e)
      d[e] = uniform(rng);
    // Off-diagonal entries sum to less than NB - 1 in magnitude per row: dominant by at least 2.
    for (std::size_t k = 0; k < NB; ++k)
      d[k * NB + k] = (uniform(rng) > 0.0 ? 1.0 : -1.0) * (NB + 1.0 + std::abs(d[k * NB + k]));
    const std::vector<double> inverse = denseInverse(std::vector<double>(d, d + kEntries), NB);
    std::vector<double> rowSums(NB, 0.0);
    for (int j = pattern.rowOffsets[row]; j < pattern.rowOffsets[row + 1]; ++j)
      for (std::size_t k = 0; k < NB; ++k)
        for (std::size_t m = 0; m < NB; ++m)
          for (std::size_t l = 0; l < NB; ++l)
            rowSums[k] += std::abs(inverse[k * NB + m]) *
                          std::abs(s.offdiagonal[std::size_t(j) * kEntries + m * NB + l]);
    const double largest = *std::max_element(rowSums.begin(), rowSums.end());
    if (largest == 0.0)
      continue;
    for (int j = pattern.rowOffsets[row]; j < pattern.rowOffsets[row + 1]; ++j)
      for (std::size_t e = 0; e < kEntries; ++e)
        s.offdiagonal[std::size_t(j) * kEntries + e] *= dominance / largest;
  }
  return s;
}

} // namespace tessera::test
