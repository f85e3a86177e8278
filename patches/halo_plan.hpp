#pragma once
// HaloPlan<Dim>: every halo cell of every patch, as a flat list of box operations built on the
// host. A GPU executes the same list in one launch; the host twin is fillHalos().
//
// An operation fills the box [lo, hi) of patch dstPatch's halo (local cell coordinates). For a
// copy, destination cell d reads source cell s of srcPatch with s[a] = scale[a] * d[a] + shift[a]:
// scale 1 is a translation (neighbour or periodic image), -1 a mirror (reflecting wall) and 0 a
// clamp (outflow). Variables named by the PDE's reflection parity change sign once for every axis
// in reflectMask. A fixed-state operation writes inflowStates[fixedState] instead.
#include <functional>
#include <vector>

#include "engine/small_vector.hpp"
#include "patches/boundary.hpp"
#include "patches/patch_layout.hpp"

namespace tessera {

template <int Dim>
class UniformPatchGrid;

template <int Dim>
struct HaloOp {
  int dstPatch = 0;
  int srcPatch = 0;
  Vec<int, Dim> lo{}, hi{};
  Vec<int, Dim> scale{}, shift{};
  int reflectMask = 0;
  int fixedState = -1; // index into HaloPlan::inflowStates, or -1 for a copy
};

template <int Dim>
struct HaloPlan {
  std::vector<HaloOp<Dim>> ops;
  std::vector<std::vector<double>> inflowStates; // conserved variables, one vector per state
};

// The patches of one level, all the same size, at integer positions on a box of
// patchesPerAxis positions; patchAt(position) is the patch at a position (every position holds
// one). The uniform grid is one; so is a uniformly refined forest.
template <int Dim>
struct SameLevelPatches {
  std::vector<Vec<int, Dim>> positions; // of patch 0, 1, ...
  Vec<int, Dim> patchesPerAxis{};
  std::function<int(Vec<int, Dim>)> patchAt;
};

// The plan for patches of one level: same-level neighbours, periodic images and physical faces,
// edges and corners included. Inflow states must have layout.numVars values.
template <int Dim>
HaloPlan<Dim> buildSameLevelHaloPlan(const PatchLayout<Dim>& layout,
                                     const SameLevelPatches<Dim>& patches,
                                     const DomainBoundary<Dim>& boundary);

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
