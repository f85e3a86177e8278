#pragma once
// A = D + O, a block-sparse matrix of NB x NB blocks in one memory space: D (one block per row,
// fp64, LU-factorized in place before the sweeps) and O (the off-diagonal blocks of the pattern,
// in the precision policy's type). Seed 002, section 2.
#include <cstddef>
#include <stdexcept>

#include "engine/device_array.hpp"
#include "engine/linalg/block_lu.hpp"
#include "engine/linalg/block_pattern.hpp"
#include "engine/memory.hpp"

namespace tessera::linalg {

// Raw pointers into one matrix's memory space, what the kernels take.
template <int NB, class Precision>
struct BlockMatrixView {
  const int* rowOffsets;
  const int* columns;
  const double* diagonal;
  const typename Precision::Offdiagonal* offdiagonal;
};

#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
// multicolor_sweeps_device.cu, instantiated for the NB of multicolor_sweeps_device.hpp.
template <int NB>
void factorizeDiagonalDevice(double* diagonal, int numRows);
#endif

template <int NB, class Precision>
class BlockMatrix {
public:
  using Offdiagonal = typename Precision::Offdiagonal;
  static constexpr int kBlockEntries = NB * NB;

  BlockMatrix(const BlockPattern& pattern, MemorySpace space)
      : pattern_(pattern), space_(space), rowOffsets_(toSpace(pattern.rowOffsets, space)),
        columns_(toSpace(pattern.columns, space)),
        diagonal_(std::size_t(pattern.numRows()) * kBlockEntries, space),
        offdiagonal_(std::size_t(pattern.numBlocks()) * kBlockEntries, space) {}

  // numRows blocks of NB * NB doubles, row-major within a block.
  double* diagonal() { return diagonal_.data(); }
  const double* diagonal() const { return diagonal_.data(); }
  // numBlocks blocks of NB * NB, row-major within a block, in pattern order.
  Offdiagonal* offdiagonal() { return offdiagonal_.data(); }
  const Offdiagonal* offdiagonal() const { return offdiagonal_.data(); }

  const BlockPattern& pattern() const { return pattern_; }
  MemorySpace space() const { return space_; }
  BlockMatrixView<NB, Precision> view() const {
    return {rowOffsets_.data(), columns_.data(), diagonal_.data(), offdiagonal_.data()};
  }

  // LU of every D block in place, no pivoting: D must be diagonally dominant or otherwise safely
  // factorizable. Runs in the matrix's memory space.
  void factorizeDiagonal() {
    const int numRows = pattern_.numRows();
    if (space_ == MemorySpace::Host) {
      double* d = diagonal_.data();
#pragma omp parallel for schedule(static)
      for (int row = 0; row < numRows; ++row)
        luFactorize<NB>(d + std::size_t(row) * kBlockEntries);
      return;
    }
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
    factorizeDiagonalDevice<NB>(diagonal_.data(), numRows);
#else
    throw std::logic_error("BlockMatrix: device matrix in a host-only build");
#endif
  }

private:
  BlockPattern pattern_; // on the host: the color ranges drive the sweeps' launches
  MemorySpace space_;
  DeviceArray<int> rowOffsets_, columns_;
  DeviceArray<double> diagonal_;
  DeviceArray<Offdiagonal> offdiagonal_;
};

} // namespace tessera::linalg
