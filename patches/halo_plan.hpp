#pragma once
// HaloPlan<Dim>: every halo cell of every patch, as a flat list of box operations built on the
// host. A GPU executes the same list in one launch; the host twin is fillHalos().
//
// An operation fills the box [lo, hi) of patch dstPatch's halo (local cell coordinates). For a
// copy, destination cell d reads source cell s of srcPatch with s[a] = scale[a] * d[a] + shift[a]:
// scale 1 is a translation (neighbour or periodic image), -1 a mirror (reflecting wall) and 0 a
// clamp (outflow). Variables named by the PDE's reflection parity change sign once for every axis
// in reflectMask. A fixed-state operation writes inflowStates[fixedState] instead.
#include "engine/small_vector.hpp"
#include "patches/boundary.hpp"
#include "patches/patch_layout.hpp"

#include <vector>

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

// The plan for a single-level grid: same-level neighbours, periodic images and physical faces,
// edges and corners included. Inflow states must have layout.numVars values.
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
