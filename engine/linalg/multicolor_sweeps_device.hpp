#pragma once
// Device entry points of the multicolor sweeps (multicolor_sweeps_device.cu), and how the lanes of
// a warp or wavefront share the block rows. Plain declarations: host translation units include it.
#include <cstdint>

#include "engine/linalg/block_matrix.hpp"
#include "engine/linalg/sweep_exchange.hpp"

namespace tessera::linalg {

// Lane mappings of seed 002 (section 6.4, Fig. 4; section 6.5 for wavefronts of 64). In each,
// NB * NB consecutive lanes hold the entries of one off-diagonal block, so a block is one
// coalesced load, and each lane accumulates entry (k, l) times dQ_l over the row's blocks.
enum class SweepMapping : std::uint8_t {
  // Warp of 32: one block row per warp, its blocks one after the other.
  OneRowOneBlock,
  // Wavefront of 64, seed 002's (a): one block row per wavefront, lanes 0..NB*NB-1 on block b
  // and lanes 32..32+NB*NB-1 on block b + 1, the halves summed at the end.
  OneRowTwoBlocks,
  // Wavefront of 64, seed 002's (b): two block rows per wavefront, one per half.
  TwoRowsOneBlock,
};

#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
// Wavefronts of 64 default to two rows per wavefront: a row's reduction and forward/backward
// substitution cost the same instructions whatever the row's length, and two rows per wavefront
// share each of them where (a) spends them on one row; the rows of an unstructured mesh have few
// off-diagonal blocks (4 for tetrahedra, 6 for hexahedra), so (a)'s halving of the block loop
// saves little and its odd last step leaves a half idle. Seed 002 reports both on the MI50
// without ranking them; this choice is unmeasured here (no AMD GPU).
inline constexpr SweepMapping kDefaultSweepMapping =
    TESSERA_WARP_SIZE == 32 ? SweepMapping::OneRowOneBlock : SweepMapping::TwoRowsOneBlock;

// Algorithm 1 of seed 002 on a device matrix; rhs and dq in device memory. Instantiated for
// NB = 2..5, both precision policies, and the mappings of this build's warp width.
template <int NB, class Precision, SweepMapping Mapping = kDefaultSweepMapping>
void multicolorSweepsDevice(const BlockMatrix<NB, Precision>& a, const double* rhs,
                            typename Precision::Update* dq, int sweeps,
                            SweepExchange<typename Precision::Update>* exchange = nullptr);
#endif

} // namespace tessera::linalg
