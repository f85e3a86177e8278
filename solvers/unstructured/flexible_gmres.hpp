#pragma once
// FlexibleGmres: one cycle of right-preconditioned GMRES (Saad's flexible variant, FGMRES: the
// preconditioned vectors z_j = M^-1 v_j are kept, so that x = sum y_j z_j holds whatever M does)
// on host vectors, for the Newton-Krylov steps of the implicit unstructured solver
// (unstructured_implicit.hpp). It stops after `vectors` Krylov vectors or once the linear
// residual has dropped by `tolerance` (an inexact Newton step), from x = 0.
//
// Arnoldi by modified Gram-Schmidt, the least-squares problem by Givens rotations (Saad,
// Iterative Methods for Sparse Linear Systems, 2nd ed., algorithms 6.9 and 9.6).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace tessera {

struct GmresResult {
  int vectors = 0;               // Krylov vectors built
  double relativeResidual = 1.0; // |b - A x| / |b|, from the rotations
};

class FlexibleGmres {
public:
  // apply(v, w): w = A v; precondition(v, z): z ~ M^-1 v; both on vectors of `size` values.
  template <class Apply, class Precondition>
  GmresResult solve(const double* b, double* x, std::size_t size, int vectors, double tolerance,
                    Apply&& apply, Precondition&& precondition) {
    const std::size_t m = std::size_t(std::max(vectors, 1));
    reserve(size, m);
    std::fill(x, x + size, 0.0);
    const double beta = norm(b, size);
    GmresResult result;
    if (beta == 0.0) {
      result.relativeResidual = 0.0;
      return result;
    }
    scaled(b, 1.0 / beta, v_[0].data(), size);
    std::vector<double> h((m + 1) * m, 0.0), cs(m, 0.0), sn(m, 0.0), g(m + 1, 0.0);
    const auto H = [&](std::size_t i, std::size_t j) -> double& { return h[i * m + j]; };
    g[0] = beta;
    std::size_t k = 0;
    while (k < m) {
      const std::size_t j = k;
      precondition(v_[j].data(), z_[j].data());
      double* w = v_[j + 1].data();
      apply(z_[j].data(), w);
      for (std::size_t i = 0; i <= j; ++i) {
        H(i, j) = dot(w, v_[i].data(), size);
        axpy(-H(i, j), v_[i].data(), w, size);
      }
      H(j + 1, j) = norm(w, size);
      const double next = H(j + 1, j);
      if (next > 0.0)
        scaled(w, 1.0 / next, w, size);
      // The rotations of the earlier columns, then this column's own.
      for (std::size_t i = 0; i < j; ++i) {
        const double t = cs[i] * H(i, j) + sn[i] * H(i + 1, j);
        H(i + 1, j) = -sn[i] * H(i, j) + cs[i] * H(i + 1, j);
        H(i, j) = t;
      }
      const double r = std::hypot(H(j, j), H(j + 1, j));
      cs[j] = r > 0.0 ? H(j, j) / r : 1.0;
      sn[j] = r > 0.0 ? H(j + 1, j) / r : 0.0;
      H(j, j) = r;
      H(j + 1, j) = 0.0;
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
      k = j + 1;
      if (std::fabs(g[k]) <= tolerance * beta || next == 0.0)
        break;
    }
    // H y = g on the k x k upper triangle; x = sum y_j z_j.
    std::vector<double> y(k, 0.0);
    for (std::size_t i = k; i-- > 0;) {
      double s = g[i];
      for (std::size_t l = i + 1; l < k; ++l)
        s -= H(i, l) * y[l];
      y[i] = H(i, i) != 0.0 ? s / H(i, i) : 0.0;
    }
    for (std::size_t j = 0; j < k; ++j)
      axpy(y[j], z_[j].data(), x, size);
    result.vectors = int(k);
    result.relativeResidual = std::fabs(g[k]) / beta;
    return result;
  }

  static double dot(const double* a, const double* b, std::size_t size) {
    double s = 0.0;
#pragma omp parallel for schedule(static) reduction(+ : s)
    for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(size); ++i)
      s += a[i] * b[i];
    return s;
  }
  static double norm(const double* a, std::size_t size) {
    return std::sqrt(dot(a, a, size));
  }

private:
  static void axpy(double alpha, const double* x, double* y, std::size_t size) {
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(size); ++i)
      y[i] += alpha * x[i];
  }
  static void scaled(const double* x, double alpha, double* y, std::size_t size) {
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(size); ++i)
      y[i] = alpha * x[i];
  }
  void reserve(std::size_t size, std::size_t m) {
    v_.resize(m + 1);
    z_.resize(m);
    for (auto& v : v_)
      v.resize(size);
    for (auto& z : z_)
      z.resize(size);
  }

  std::vector<std::vector<double>> v_, z_; // the Krylov basis and its preconditioned vectors
};

} // namespace tessera
