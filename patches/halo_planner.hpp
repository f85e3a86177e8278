#pragma once
// HaloPlanner<Dim>: builds halo plans (halo_plan.hpp) for one set of placed patches: the whole
// plan, or its two parts for kernels that read same-level faces from the neighbours
// (face_links.hpp): the faces they still read from the halo, with the links, and the rest.
//
// Building the parts directly is what a device regrid needs: on a large forest 95% of the whole
// plan's operations are linked faces, edges and corners (203k of 213k on 7960 patches), which
// the kernels never read; building and then discarding them took most of a regrid's plans.
// A planner keeps its placements, so the rest can be built later, when a fill of every halo cell
// first asks for it.
#include <memory>
#include <span>
#include <variant>
#include <vector>

#include "patches/boundary.hpp"
#include "patches/flux_register.hpp"
#include "patches/halo_plan.hpp"
#include "patches/patch_layout.hpp"
#include "patches/placement_index.hpp"

namespace tessera {

template <int Dim>
class HaloPlanner {
public:
  // buildHaloPlan's arguments; the planner keeps a copy of the placements.
  HaloPlanner(const PatchLayout<Dim>& layout, std::vector<PatchPlacement<Dim>> patches,
              Vec<int, Dim> level0PatchesPerAxis, const DomainBoundary<Dim>& boundary,
              int filledPatches = -1);

  // Every halo cell of the filled patches (buildHaloPlan).
  HaloPlan<Dim> whole() const;
  // Every halo cell of the filled patches listed (whole()'s operations of those patches, in its
  // order): on several ranks, of the patches beside other ranks' (the ghosts' values they read).
  HaloPlan<Dim> wholeOf(std::span<const int> patches) const;
  // The operations of the faces that are not linked, and in `neighbour` (FaceLinks::neighbour,
  // one entry per filled patch and face) the linked ones: what linkSameLevelFaces leaves of
  // whole(), in the same order.
  HaloPlan<Dim> unlinkedFaces(std::vector<int>& neighbour) const;
  // The linked faces', edges' and corners' operations: linkSameLevelFaces' unreadOps of whole(),
  // in the same order.
  HaloPlan<Dim> unread() const;

  // The coarse-fine faces of the filled patches for refluxing (buildRefluxPlan), from this
  // planner's index.
  std::vector<RefluxOp<Dim>> refluxPlan() const {
    return buildRefluxPlan<Dim>(index_, patches_, level0_, boundary_, filled_);
  }

  int filledPatches() const { return filled_; }

private:
  // The patches [begin, end) one thread plans.
  struct PatchRange {
    int begin, end;
  };
  // The plan of the operations `keep(p, d, ops, own)` accepts, ops being those of patch p toward
  // direction d and `own` the patches of p's thread, where `decided(p, d)` has not already settled
  // that direction (it then has none); edges and corners are visited only if withEdges (a plan
  // of faces only is built on the host's threads).
  template <class Decided, class Keep>
  HaloPlan<Dim> planOf(bool withEdges, Decided&& decided, Keep&& keep) const;
  // Appends the operations that fill patch p's halo toward direction d (in {-1, 0, 1}^Dim).
  void appendOps(int p, const Vec<int, Dim>& d, std::vector<HaloOp<Dim>>& ops) const;

  PatchLayout<Dim> layout_;
  std::vector<PatchPlacement<Dim>> patches_;
  PlacementIndex<Dim> index_;
  Vec<int, Dim> level0_;
  DomainBoundary<Dim> boundary_;
  int filled_;
  std::vector<std::vector<double>> inflowStates_;
  int inflowIndex_[Dim][2];
};

// A solver's halo plan as built, or the planner that builds the parts its back end reads (see
// PatchSolver). Shared: the solver keeps the planner to build the unread part when asked.
template <int Dim>
using HaloPlanSource = std::variant<HaloPlan<Dim>, std::shared_ptr<const HaloPlanner<Dim>>>;

} // namespace tessera
