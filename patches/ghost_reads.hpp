#pragma once
// Which values of each ghost patch a rank's plans read: the interior cells its halo operations take
// from the ghost (every variable), and the boundary fluxes its refluxing takes from a finer ghost.
// The owners send only these each step (engine/mpi/value_plan.hpp). The cells follow the halo
// operations' arithmetic (halo_cell.hpp): the source cell itself, the 2^Dim children of a finer
// source, and for a coarser source the parent cell with its neighbours along every axis, or at the
// patch's edge the two cells inward (the limited slope, prolong_restrict.hpp). A change to that
// arithmetic must change these reads too; the distributed tests (tests/mpi) fail where they fall
// short.
#include <algorithm>
#include <span>
#include <vector>

#include "patches/flux_register.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

namespace detail {

// Marks interior cell c (if inside) of a patch of N^Dim interior cells.
template <int Dim>
void markCell(const PatchLayout<Dim>& layout, CellIndex<Dim> c, std::vector<char>& cells) {
  int linear = 0;
  for (int a = Dim - 1; a >= 0; --a) {
    if (c[a] < 0 || c[a] >= layout.cellsPerAxis)
      return;
    linear = linear * layout.cellsPerAxis + c[a];
  }
  cells[std::size_t(linear)] = 1;
}

// The cells of source position u (source patch cell coordinates) that `source` reads.
template <int Dim>
void markSourceCells(const PatchLayout<Dim>& layout, HaloSource source, CellIndex<Dim> u,
                     std::vector<char>& cells) {
  if (source == HaloSource::SameLevel) {
    markCell(layout, u, cells);
  } else if (source == HaloSource::Finer) {
    for (int k = 0; k < (1 << Dim); ++k) {
      CellIndex<Dim> f;
      for (int a = 0; a < Dim; ++a)
        f[a] = 2 * u[a] + ((k >> a) & 1);
      markCell(layout, f, cells);
    }
  } else if (source == HaloSource::Coarser) {
    CellIndex<Dim> parent;
    for (int a = 0; a < Dim; ++a)
      parent[a] = u[a] >> 1;
    markCell(layout, parent, cells);
    const int n = layout.cellsPerAxis;
    for (int a = 0; a < Dim; ++a) {
      // Inside, the two neighbours; at an edge, the two cells inward (limitedLinearValue).
      const bool lowEdge = parent[a] == 0, highEdge = parent[a] == n - 1;
      for (int d : {-2, -1, 1, 2}) {
        const bool read =
            lowEdge || highEdge ? (lowEdge ? d > 0 : d < 0) && n >= 3 : (d == -1 || d == 1);
        if (!read)
          continue;
        CellIndex<Dim> side = parent;
        side[a] += d;
        markCell(layout, side, cells);
      }
    }
  }
}

} // namespace detail

// For each ghost patch firstGhost + g (g < ghosts): the offsets within its block of
// layout.patchStride() values that the plan reads, ascending.
template <int Dim>
std::vector<std::vector<int>> haloPlanReads(const HaloPlan<Dim>& plan,
                                            const PatchLayout<Dim>& layout, int firstGhost,
                                            int ghosts) {
  std::vector<std::vector<char>> cells(static_cast<std::size_t>(ghosts));
  for (const HaloOp<Dim>& op : plan.ops) {
    const int g = op.srcPatch - firstGhost;
    if (op.source == HaloSource::Fixed || g < 0 || g >= ghosts)
      continue;
    std::vector<char>& read = cells[std::size_t(g)];
    read.resize(std::size_t(layout.interiorCells()), 0);
    CellIndex<Dim> c;
    for (int a = 0; a < Dim; ++a)
      c[a] = op.lo[a];
    while (true) {
      CellIndex<Dim> u;
      for (int a = 0; a < Dim; ++a)
        u[a] = op.scale[a] * c[a] + op.shift[a];
      detail::markSourceCells(layout, op.source, u, read);
      int a = 0;
      for (; a < Dim; ++a) { // the next cell of the box, x fastest
        if (++c[a] < op.hi[a])
          break;
        c[a] = op.lo[a];
      }
      if (a == Dim)
        break;
    }
  }
  std::vector<std::vector<int>> reads(static_cast<std::size_t>(ghosts));
  for (int g = 0; g < ghosts; ++g) {
    if (cells[std::size_t(g)].empty())
      continue;
    for (int v = 0; v < layout.numVars; ++v)
      for (int n = 0; n < layout.interiorCells(); ++n)
        if (cells[std::size_t(g)][std::size_t(n)])
          reads[std::size_t(g)].push_back(int(std::size_t(v) * layout.varStride()) +
                                          layout.cellOffset(layout.interiorCell(n)));
    std::sort(reads[std::size_t(g)].begin(), reads[std::size_t(g)].end());
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
