#pragma once
// FlexibleGmres: one cycle of right-preconditioned GMRES (Saad's flexible variant, FGMRES: the
// preconditioned vectors z_j = M^-1 v_j are kept, so that x = sum y_j z_j holds whatever M does)
// on the vectors of a VectorSpace (engine/linalg/vector_ops.hpp: host or device memory, spread
// over MPI ranks), for the Newton-Krylov steps of the implicit unstructured solver. It stops after
// `vectors` Krylov vectors or once the linear residual has dropped by `tolerance` (an inexact
// Newton step), from x = 0.
//
// Arnoldi by classical Gram-Schmidt done twice (CGS2: as orthogonal as modified Gram-Schmidt,
// "twice is enough", Giraud, Langou and Rozloznik, Comput. Math. Appl. 50, 2005), so that each
// pass takes all its dot products in one synchronisation and one MPI_Allreduce where modified
// Gram-Schmidt takes one per basis vector; the least-squares problem by Givens rotations (Saad,
// Iterative Methods for Sparse Linear Systems, 2nd ed., algorithms 6.9 and 9.6). The vectors stay
// where they are; only the small Hessenberg matrix and the dot products' scalars are on the host.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/linalg/vector_ops.hpp"

namespace tessera::linalg {

struct GmresResult {
  int vectors = 0;               // Krylov vectors built
  double relativeResidual = 1.0; // |b - A x| / |b|, from the rotations
};

class FlexibleGmres {
public:
  // Collective over vs.comm. apply(v, w): w = A v; precondition(v, z): z ~ M^-1 v; b, x and the
  // vectors handed to both are vs.size values in vs.space.
  template <class Apply, class Precondition>
  GmresResult solve(const VectorSpace& vs, const double* b, double* x, int vectors,
                    double tolerance, Apply&& apply, Precondition&& precondition) {
    const std::size_t m = std::size_t(std::max(vectors, 1));
    reserve(vs, m);
    fill(vs, 0.0, x);
    const double beta = norm(vs, b);
    GmresResult result;
    if (beta == 0.0) {
      result.relativeResidual = 0.0;
      return result;
    }
    scaled(vs, 1.0 / beta, b, v_[0].data());
    std::vector<double> h((m + 1) * m, 0.0), cs(m, 0.0), sn(m, 0.0), g(m + 1, 0.0), c(m + 1);
    std::vector<const double*> basis;
    for (const DeviceArray<double>& v : v_)
      basis.push_back(v.data());
    const auto H = [&](std::size_t i, std::size_t j) -> double& { return h[i * m + j]; };
    g[0] = beta;
    std::size_t k = 0;
    while (k < m) {
      const std::size_t j = k;
      precondition(v_[j].data(), z_[j].data());
      double* w = v_[j + 1].data();
      apply(z_[j].data(), w);
      for (int pass = 0; pass < 2; ++pass) {
        dots(vs, w, basis.data(), int(j + 1), c.data());
        for (std::size_t i = 0; i <= j; ++i) {
          axpy(vs, -c[i], v_[i].data(), w);
          H(i, j) += c[i];
        }
      }
      H(j + 1, j) = norm(vs, w);
      const double next = H(j + 1, j);
      if (next > 0.0)
        scaled(vs, 1.0 / next, w, w);
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
      axpy(vs, y[j], z_[j].data(), x);
    result.vectors = int(k);
    result.relativeResidual = std::fabs(g[k]) / beta;
    return result;
  }

private:
  // The basis for m vectors of vs, kept from one solve to the next of the same space and size.
  void reserve(const VectorSpace& vs, std::size_t m) {
    const auto fits = [&](const DeviceArray<double>& a) {
      return a.size() == vs.size && a.space() == vs.space;
    };
    if (!v_.empty() && !fits(v_[0]))
      v_.clear(), z_.clear();
    while (v_.size() < m + 1)
      v_.emplace_back(vs.size, vs.space);
    while (z_.size() < m)
      z_.emplace_back(vs.size, vs.space);
  }

  std::vector<DeviceArray<double>> v_, z_; // the Krylov basis and its preconditioned vectors
};

} // namespace tessera::linalg
