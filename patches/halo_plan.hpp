#pragma once
// HaloPlan<Dim>: every halo cell of every patch, as a flat list of box operations built on the
// host. No operation reads a cell another one writes (sources are interior cells only), so a GPU
// can execute the whole list in one launch; the host twin is fillHalos().
//
// An operation fills the box [lo, hi) of patch dstPatch's halo (local cell coordinates).
// Destination cell d maps to u[a] = scale[a] * d[a] + shift[a], a position in cells of the
// destination's level, relative to the source patch's lower corner: scale 1 is a translation
// (neighbour or periodic image), -1 a mirror (reflecting wall) and 0 a clamp (outflow). Then:
//   SameLevel: the source cell u;
//   Coarser:   the limited-linear value in part (u mod 2) of source cell floor(u / 2);
//   Finer:     the mean of the source cells 2u + {0, 1}^Dim;
//   Fixed:     inflowStates[fixedState].
// Variables named by the PDE's reflection parity change sign once for every axis in reflectMask.
#include <cstdint>
#include <span>
#include <vector>

#include "engine/small_vector.hpp"
#include "patches/boundary.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

template <int Dim>
class UniformPatchGrid;

// Where a patch sits: its level and its position among all patches of that level, on a domain of
// level0PatchesPerAxis * 2^level patches per axis.
template <int Dim>
struct PatchPlacement {
  int level = 0;
  Vec<int, Dim> index{};

  friend bool operator==(const PatchPlacement&, const PatchPlacement&) = default;
};

enum class HaloSource : signed char { SameLevel, Coarser, Finer, Fixed };

// Box corners, scales and shifts in 16 bits (patches of at most kMaxHaloPlanCells cells a side):
// 36 bytes an operation in 3D instead of 68. A regrid builds, and a device run uploads, one per
// patch and direction, hundreds of thousands of them, and the time went into the bytes.
inline constexpr int kMaxHaloPlanCells = 8192;

template <int Dim>
struct HaloOp {
  int dstPatch = 0;
  int srcPatch = 0;
  Vec<std::int16_t, Dim> lo{}, hi{};
  Vec<std::int16_t, Dim> scale{}, shift{};
  std::uint8_t reflectMask = 0;
  HaloSource source = HaloSource::SameLevel;
  std::int8_t fixedState = -1; // index into HaloPlan::inflowStates for Fixed
  // Axes across which the source is a periodic image (bit a for axis a): the box lies on the
  // domain's boundary, where a boundary hook may take its cells over.
  std::uint8_t wrapMask = 0;

  friend bool operator==(const HaloOp&, const HaloOp&) = default;
};

template <int Dim>
struct HaloPlan {
  std::vector<HaloOp<Dim>> ops;
  std::vector<std::vector<double>> inflowStates; // conserved variables, one vector per state
};

// The plan for patches on any levels, neighbours of a patch differing by at most one level
// across faces, edges and corners (2:1 balance): same-level copies, coarse-to-fine interpolation,
// fine-to-coarse averages, periodic images and physical boundaries. Inflow states must have
// layout.numVars values. Throws std::invalid_argument where the patches do not tile the domain
// in a 2:1 balanced way around a patch whose halo the plan fills.
//
// Only the first `filledPatches` patches (all where negative) get their halos filled; the others
// are sources only. On several MPI ranks those are the ghost patches, the copies of other ranks'
// patches that touch this rank's: the plan then needs no patch beyond them.
template <int Dim>
HaloPlan<Dim> buildHaloPlan(const PatchLayout<Dim>& layout,
                            std::span<const PatchPlacement<Dim>> patches,
                            Vec<int, Dim> level0PatchesPerAxis, const DomainBoundary<Dim>& boundary,
                            int filledPatches = -1);

// The plan of a uniform grid: every patch on level 0.
template <int Dim>
HaloPlan<Dim> buildUniformHaloPlan(const UniformPatchGrid<Dim>& grid,
                                   const DomainBoundary<Dim>& boundary);

// Sign of each variable under reflection across a plane normal to an axis:
// parity[axis * numVars + var] is -1 for the vector components along that axis, +1 otherwise.
using ReflectionParity = std::vector<double>;

// Host execution of a plan on a host PatchStore's data.
template <int Dim>
void fillHalos(const HaloPlan<Dim>& plan, const PatchLayout<Dim>& layout,
               const ReflectionParity& parity, double* data);

} // namespace tessera
