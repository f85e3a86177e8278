#pragma once
// A dense reference for the block solver tests: Gaussian elimination with partial pivoting,
// written independently of engine/linalg (which factorizes blocks without pivoting).
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace tessera::test {

// Solves the n x n row-major system a x = b (a and b are copies, overwritten by elimination).
inline std::vector<double> denseSolve(std::vector<double> a, std::vector<double> b) {
  const std::size_t n = b.size();
  for (std::size_t p = 0; p < n; ++p) {
    std::size_t pivot = p;
    for (std::size_t i = p + 1; i < n; ++i)
      if (std::abs(a[i * n + p]) > std::abs(a[pivot * n + p]))
        pivot = i;
    if (pivot != p) {
      for (std::size_t j = 0; j < n; ++j)
        std::swap(a[p * n + j], a[pivot * n + j]);
      std::swap(b[p], b[pivot]);
    }
    for (std::size_t i = p + 1; i < n; ++i) {
      const double m = a[i * n + p] / a[p * n + p];
      if (m == 0.0)
        continue;
      for (std::size_t j = p; j < n; ++j)
        a[i * n + j] -= m * a[p * n + j];
      b[i] -= m * b[p];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t j = i + 1; j < n; ++j)
      s -= a[i * n + j] * x[j];
    x[i] = s / a[i * n + i];
  }
  return x;
}

// The inverse of an n x n row-major matrix, column by column.
inline std::vector<double> denseInverse(const std::vector<double>& a, std::size_t n) {
  std::vector<double> inverse(n * n);
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<double> e(n, 0.0);
    e[j] = 1.0;
    const std::vector<double> column = denseSolve(a, e);
    for (std::size_t i = 0; i < n; ++i)
      inverse[i * n + j] = column[i];
  }
  return inverse;
}

} // namespace tessera::test
