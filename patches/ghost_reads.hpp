#pragma once
// Which values of each ghost patch a rank's plans read: the interior cells its halo operations take
// from the ghost (each named by its first variable's offset: the others lie a variable block
// apart), and the boundary fluxes its refluxing takes from a finer ghost.
// The owners send only these each step (engine/mpi/value_plan.hpp). The cells follow the halo
// operations' arithmetic (halo_cell.hpp): the source cell itself, the 2^Dim children of a finer
// source, and for a coarser source the parent cell with its neighbours along every axis, or at the
// patch's edge the two cells inward (the limited slope, prolong_restrict.hpp), with the cells
// diagonal to that stencil in the box of an operation's reads. A change to that arithmetic must
// change these reads too; the distributed tests (tests/mpi) fail where they fall
// short.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "patches/flux_register.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

namespace detail {

// The source cells [first, last] along one axis that `source` reads for the source positions
// [uFirst, uLast] (in the source patch's coordinates at the destination's resolution), clipped to
// the patch's n cells; first > last where none is inside. For a coarser source the parent cell
// with its neighbours along the axis, or at the patch's edge the two cells inward (the limited
// slope, limitedLinearValue). Along each axis separately: the box of these ranges holds the
// cross-shaped stencil and the few cells diagonal to it, which are sent though not read.
inline void sourceRange(HaloSource source, int uFirst, int uLast, int n, int& first, int& last) {
  first = n;
  last = -1;
  const auto include = [&](int lo, int hi) {
    first = std::min(first, std::max(lo, 0));
    last = std::max(last, std::min(hi, n - 1));
  };
  if (source == HaloSource::SameLevel) {
    include(uFirst, uLast);
  } else if (source == HaloSource::Finer) {
    include(2 * uFirst, 2 * uLast + 1);
  } else if (source == HaloSource::Coarser) {
    for (int p = std::max(uFirst >> 1, 0); p <= std::min(uLast >> 1, n - 1); ++p) {
      if (p > 0 && p < n - 1)
        include(p - 1, p + 1);
      else if (n >= 3)
        include(p == 0 ? 0 : n - 3, p == 0 ? 2 : n - 1);
      else
        include(p, p);
    }
  }
  if (first > last)
    first = n, last = -1;
}

} // namespace detail

// For each ghost patch firstGhost + g (g < ghosts): the offsets within its block of
// layout.patchStride() values of the cells that the plan reads (their first variable's), ascending.
// Each operation's source cells are marked as one box (detail::sourceRange along each axis): a
// regrid on several ranks lists the reads of every ghost patch of a large forest.
template <int Dim>
std::vector<std::vector<int>> haloPlanReads(const HaloPlan<Dim>& plan,
                                            const PatchLayout<Dim>& layout, int firstGhost,
                                            int ghosts) {
  const int n = layout.cellsPerAxis;
  // One bit per interior cell of each ghost that is read: most are not, and the words that hold
  // none are passed over at once.
  const std::size_t words = (std::size_t(layout.interiorCells()) + 63) / 64;
  std::vector<std::vector<std::uint64_t>> cells(static_cast<std::size_t>(ghosts));
  for (const HaloOp<Dim>& op : plan.ops) {
    const int g = op.srcPatch - firstGhost;
    if (op.source == HaloSource::Fixed || g < 0 || g >= ghosts)
      continue;
    int first[Dim], last[Dim];
    bool empty = false;
    for (int a = 0; a < Dim; ++a) {
      const int u0 = op.scale[a] * op.lo[a] + op.shift[a];
      const int u1 = op.scale[a] * (op.hi[a] - 1) + op.shift[a];
      detail::sourceRange(op.source, std::min(u0, u1), std::max(u0, u1), n, first[a], last[a]);
      empty = empty || first[a] > last[a];
    }
    if (empty)
      continue;
    std::vector<std::uint64_t>& read = cells[std::size_t(g)];
    read.resize(words, 0);
    // The box's rows along x, the other axes' indices in `row` (y fastest).
    int row[Dim] = {};
    for (int a = 1; a < Dim; ++a)
      row[a] = first[a];
    while (true) {
      std::size_t at = 0;
      for (int a = Dim - 1; a >= 1; --a)
        at = at * std::size_t(n) + std::size_t(row[a]);
      at = at * std::size_t(n);
      for (int x = first[0]; x <= last[0]; ++x)
        read[(at + std::size_t(x)) / 64] |= std::uint64_t(1) << ((at + std::size_t(x)) % 64);
      int a = 1;
      for (; a < Dim; ++a) {
        if (++row[a] <= last[a])
          break;
        row[a] = first[a];
      }
      if (a >= Dim)
        break;
    }
  }
  std::vector<std::vector<int>> reads(static_cast<std::size_t>(ghosts));
  for (int g = 0; g < ghosts; ++g) {
    const std::vector<std::uint64_t>& read = cells[std::size_t(g)];
    for (std::size_t w = 0; w < read.size(); ++w) // x fastest: ascending offsets
      for (std::uint64_t bits = read[w]; bits != 0; bits &= bits - 1) {
        const int c = int(w * 64) + std::countr_zero(bits);
        reads[std::size_t(g)].push_back(layout.cellOffset(layout.interiorCell(c)));
      }
  }
  return reads;
}

// For each ghost patch firstGhost + g: the offsets within its flux register
// (FluxRegisterLayout::patchStride() values) that refluxing reads, ascending: the whole face a
// finer ghost presents to a coarse patch of this rank, every variable.
template <int Dim>
std::vector<std::vector<int>> refluxPlanReads(std::span<const RefluxOp<Dim>> plan,
                                              const PatchLayout<Dim>& layout, int firstGhost,
                                              int ghosts) {
  const FluxRegisterLayout<Dim> registers{layout.cellsPerAxis, layout.numVars};
  std::vector<std::vector<int>> reads(static_cast<std::size_t>(ghosts));
  for (const RefluxOp<Dim>& op : plan) {
    const int g = op.finePatch - firstGhost;
    if (g < 0 || g >= ghosts)
      continue;
    for (int v = 0; v < layout.numVars; ++v)
      for (int t = 0; t < registers.faceCells(); ++t)
        reads[std::size_t(g)].push_back(int(registers.index(0, op.axis, 1 - op.side, v, t)));
  }
  for (std::vector<int>& r : reads) {
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
  }
  return reads;
}

} // namespace tessera
