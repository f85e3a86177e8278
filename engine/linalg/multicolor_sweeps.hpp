#pragma once
// The multicolor point-implicit solver, Algorithm 1 of seed 002:
//   dQ = 0; sweeps times, for each color c: dr = R_c - O_c dQ; dQ_c = D_c^-1 dr
// with D_c^-1 applied by forward/backward substitution on D's in-place LU (factorizeDiagonal
// first). Rows of one color share no off-diagonal block, so they update independently and in
// parallel; each color sees the latest dQ of the others (Gauss-Seidel between colors). Within a
// color the partition-boundary rows run first, then the interior rows: the order in which a
// distributed sweep overlaps the boundary rows' halo messages with the interior work
// (sweep_exchange.hpp).
#include <cstddef>
#include <stdexcept>

#include "engine/linalg/block_lu.hpp"
#include "engine/linalg/block_matrix.hpp"
#include "engine/linalg/multicolor_sweeps_device.hpp"
#include "engine/linalg/sweep_exchange.hpp"

namespace tessera::linalg {
namespace detail {

// One block row: products accumulate in double whatever the policy's types (as FUN3D does).
template <int NB, class Precision>
inline void sweepRowHost(const BlockMatrixView<NB, Precision>& a, const double* rhs,
                         typename Precision::Update* dq, int row) {
  constexpr int kEntries = NB * NB;
  double x[NB];
  for (int k = 0; k < NB; ++k)
    x[k] = rhs[std::size_t(row) * NB + std::size_t(k)];
  for (int j = a.rowOffsets[row]; j < a.rowOffsets[row + 1]; ++j) {
    const auto* o = a.offdiagonal + std::size_t(j) * kEntries;
    const auto* q = dq + std::size_t(a.columns[j]) * NB;
    for (int k = 0; k < NB; ++k)
      for (int l = 0; l < NB; ++l)
        x[k] -= double(o[k * NB + l]) * double(q[l]);
  }
  luSolve<NB>(a.diagonal + std::size_t(row) * kEntries, x);
  for (int k = 0; k < NB; ++k)
    dq[std::size_t(row) * NB + std::size_t(k)] = typename Precision::Update(x[k]);
}

template <int NB, class Precision>
void multicolorSweepsHost(const BlockMatrix<NB, Precision>& a, const double* rhs,
                          typename Precision::Update* dq, int sweeps,
                          SweepExchange<typename Precision::Update>* exchange) {
  const BlockPattern& pattern = a.pattern();
  const BlockMatrixView<NB, Precision> view = a.view();
  const std::ptrdiff_t size = std::ptrdiff_t(pattern.numRows()) * NB;
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < size; ++i)
    dq[i] = 0;
  const auto sweepRows = [&](RowRange rows) {
#pragma omp parallel for schedule(static)
    for (int row = rows.begin; row < rows.end; ++row)
      sweepRowHost<NB, Precision>(view, rhs, dq, row);
  };
  for (int sweep = 0; sweep < sweeps; ++sweep)
    sweepColors(pattern, exchange, dq, sweepRows);
}

} // namespace detail

// Runs in the matrix's memory space: OpenMP over the rows of a color on the host; on the device
// rhs and dq are device pointers. dq holds numRows * NB values, row-major by block row. On MPI
// ranks `exchange` brings each color's halo rows over (sweep_exchange.hpp); rows in no color
// range (the halo rows) are never swept.
template <int NB, class Precision>
void multicolorSweeps(const BlockMatrix<NB, Precision>& a, const double* rhs,
                      typename Precision::Update* dq, int sweeps,
                      SweepExchange<typename Precision::Update>* exchange = nullptr) {
  if (a.space() == MemorySpace::Host) {
    detail::multicolorSweepsHost(a, rhs, dq, sweeps, exchange);
    return;
  }
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
  multicolorSweepsDevice<NB, Precision>(a, rhs, dq, sweeps, exchange);
#else
  throw std::logic_error("multicolorSweeps: device matrix in a host-only build");
#endif
}

} // namespace tessera::linalg
