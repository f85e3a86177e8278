#pragma once
// From forest leaves to patches: the geometry of each leaf's patch, the halo and reflux plans, and
// on several MPI ranks the ghost patches those plans read.
#include <memory>
#include <mpi.h>
#include <stdexcept>
#include <vector>

#include "amr/forest.hpp"
#include "engine/mpi/rank_count.hpp"
#include "engine/mpi/value_plan.hpp"
#include "patches/boundary.hpp"
#include "patches/flux_register.hpp"
#include "patches/ghost_patches.hpp"
#include "patches/ghost_reads.hpp"
#include "patches/halo_plan.hpp"
#include "patches/halo_planner.hpp"
#include "patches/patch_geometry.hpp"
#include "patches/patch_layout.hpp"

namespace tessera::amr {

// Patches per axis on `level` across the whole domain.
template <int Dim>
Vec<int, Dim> patchesPerAxisOnLevel(const Forest<Dim>& forest, int level) {
  Vec<int, Dim> n = forest.treesPerAxis();
  for (int a = 0; a < Dim; ++a)
    n[a] <<= level;
  return n;
}

// The geometry of every leaf's patch in a box [lower, upper]; the same arithmetic as
// UniformPatchGrid, so that a uniformly refined forest has exactly the uniform grid's cells.
template <int Dim>
std::vector<PatchGeometry<Dim>> leafGeometry(const Forest<Dim>& forest,
                                             const PatchLayout<Dim>& layout, Vec<double, Dim> lower,
                                             Vec<double, Dim> upper) {
  std::vector<PatchGeometry<Dim>> geometry;
  geometry.reserve(forest.leaves().size());
  for (const Leaf<Dim>& leaf : forest.leaves()) {
    const Vec<int, Dim> np = patchesPerAxisOnLevel(forest, leaf.level);
    PatchGeometry<Dim> g{};
    for (int a = 0; a < Dim; ++a) {
      g.dx[a] = (upper[a] - lower[a]) / (np[a] * layout.cellsPerAxis);
      g.origin[a] = lower[a] + double(leaf.index[a] * layout.cellsPerAxis) * g.dx[a];
    }
    geometry.push_back(g);
  }
  return geometry;
}

// The patch placements of the forest's leaves.
template <int Dim>
std::vector<PatchPlacement<Dim>> leafPlacements(const Forest<Dim>& forest) {
  std::vector<PatchPlacement<Dim>> placements;
  placements.reserve(forest.leaves().size());
  for (const Leaf<Dim>& leaf : forest.leaves())
    placements.push_back({leaf.level, leaf.index});
  return placements;
}

// The placements of the leaves and then of the ghost leaves: the patch numbering of the plans.
template <int Dim>
std::vector<PatchPlacement<Dim>> placementsWithGhosts(const Forest<Dim>& forest) {
  std::vector<PatchPlacement<Dim>> placements = leafPlacements(forest);
  for (const GhostLeaf<Dim>& ghost : forest.ghostLeaves())
    placements.push_back({ghost.leaf.level, ghost.leaf.index});
  return placements;
}

// The planner of this rank's leaves' halos, across levels, reading ghost patches numbered after
// the leaves. The boundary's periodic axes must be the forest's.
template <int Dim>
std::shared_ptr<const HaloPlanner<Dim>> forestHaloPlanner(const Forest<Dim>& forest,
                                                          const PatchLayout<Dim>& layout,
                                                          const DomainBoundary<Dim>& boundary) {
  for (int a = 0; a < Dim; ++a)
    if ((boundary.kind[a][0] == BoundaryKind::Periodic) != forest.periodic()[a])
      throw std::invalid_argument("forestHaloPlanner: periodic axes differ from the forest's");
  return std::make_shared<const HaloPlanner<Dim>>(layout, placementsWithGhosts(forest),
                                                  forest.treesPerAxis(), boundary,
                                                  int(forest.leaves().size()));
}

// Its whole plan.
template <int Dim>
HaloPlan<Dim> forestHaloPlan(const Forest<Dim>& forest, const PatchLayout<Dim>& layout,
                             const DomainBoundary<Dim>& boundary) {
  return forestHaloPlanner(forest, layout, boundary)->whole();
}

// The coarse-fine faces of this rank's leaves, for refluxing; a finer patch across may be a ghost.
template <int Dim>
std::vector<RefluxOp<Dim>> forestRefluxPlan(const Forest<Dim>& forest,
                                            const DomainBoundary<Dim>& boundary) {
  const auto placements = placementsWithGhosts(forest);
  return buildRefluxPlan<Dim>(placements, forest.treesPerAxis(), boundary,
                              int(forest.leaves().size()));
}

// The ghost patches of this rank (none on one rank) and the values of them that the halo plans
// (`planner`'s, whichever part a back end fills) and the reflux plan read. Only the patches beside
// other ranks' read ghosts: p4est's mirrors (the leaves other ranks hold as ghosts, across faces,
// edges and corners), whose whole plans are all that is built here. Collective.
template <int Dim>
GhostPatches ghostPatches(const Forest<Dim>& forest, const PatchLayout<Dim>& layout,
                          const HaloPlanner<Dim>& planner,
                          const std::vector<RefluxOp<Dim>>& refluxPlan) {
  GhostPatches ghosts;
  ghosts.comm = forest.comm();
  if (mpi::rankCount(ghosts.comm) == 1)
    return ghosts;
  ghosts.count = int(forest.ghostLeaves().size());
  const int owned = int(forest.leaves().size());
  const mpi::HaloPlan patches = forest.ghostExchangePlan();
  // The plan receives the ghosts in their own order (item owned + g for ghost g).
  ghosts.state = mpi::valuePlan(
      ghosts.comm, patches,
      haloPlanReads(planner.wholeOf(mpi::sentItems(patches)), layout, owned, ghosts.count),
      layout.patchStride());
  const auto fluxReads = refluxPlanReads<Dim>(refluxPlan, layout, owned, ghosts.count);
  int readsFluxes = 0;
  for (const auto& reads : fluxReads)
    readsFluxes = readsFluxes || !reads.empty();
  MPI_Allreduce(MPI_IN_PLACE, &readsFluxes, 1, MPI_INT, MPI_LOR, ghosts.comm);
  ghosts.exchangeFluxes = readsFluxes != 0;
  if (ghosts.exchangeFluxes)
    ghosts.fluxes =
        mpi::valuePlan(ghosts.comm, patches, fluxReads,
                       FluxRegisterLayout<Dim>{layout.cellsPerAxis, layout.numVars}.patchStride());
  return ghosts;
}

} // namespace tessera::amr
