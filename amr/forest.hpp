#pragma once
// Forest<Dim>: the adaptive patch hierarchy on a p4est (2D) or p8est (3D) forest. The domain is a
// brick of level-0 patches; every leaf of the forest carries one patch. p4est trees are blocks of
// 2^k level-0 patches per axis where the counts allow it (see the constructor), but every level
// and index this class reports counts from the level-0 patches, whatever the trees.
// The forest owns its p4est objects; the MPI communicator is the caller's.
#include <filesystem>
#include <memory>
#include <mpi.h>
#include <optional>
#include <span>
#include <vector>

#include "engine/mpi/halo_plan.hpp"
#include "engine/mpi/leaf_migration.hpp"
#include "engine/small_vector.hpp"
#include "patches/adapt_flag.hpp"

namespace tessera::amr {

// One leaf: its tree (the level-0 patch it lies in, numbered in forest order), its level (0 for
// the level-0 patches) and its position among all patches of that level in the domain
// (index[a] in [0, treesPerAxis[a] * 2^level)).
// Each rank's first leaf in forest order before and after a repartition, ranks + 1 entries each
// (the last is the number of leaves).
struct LeafSplit {
  std::vector<long long> before, after;
  mpi::LeafRanges ranges() const { return {before, after}; }
};

template <int Dim>
struct Leaf {
  int tree = 0;
  int level = 0;
  Vec<int, Dim> index{};

  friend bool operator==(const Leaf&, const Leaf&) = default;
};

// A leaf of another rank that touches one of this rank's leaves across a face, an edge or a
// corner (periodic sides included): p4est's full ghost layer.
template <int Dim>
struct GhostLeaf {
  Leaf<Dim> leaf;
  int owner = 0; // its rank
};

// Neighbour directions of a patch, {-1, 0, 1}^Dim with the zero vector included (3^Dim).
template <int Dim>
inline constexpr int kNeighbourDirections = Dim == 2 ? 9 : 27;

template <int Dim>
class Forest {
public:
  // A box of treesPerAxis level-0 patches, periodic along the axes so marked, uniformly refined
  // to initialLevel. Where every count is a multiple of 2^k, p4est sees a brick of
  // treesPerAxis / 2^k trees refined to level k (k at most a fixed cap, see deepestLevel()).
  Forest(MPI_Comm comm, Vec<int, Dim> treesPerAxis, Vec<bool, Dim> periodic, int initialLevel);
  // Collective: the forest that save() wrote to `file`, for the same box. With keepPartition (the
  // same rank count as the writer's) each rank gets the leaves it had; otherwise the leaves are
  // spread evenly, families kept together. The file must be whole (p4est aborts on a damaged
  // one: check it first); throws std::invalid_argument if it is a forest of another box.
  Forest(MPI_Comm comm, Vec<int, Dim> treesPerAxis, Vec<bool, Dim> periodic,
         const std::filesystem::path& file, bool keepPartition);
  ~Forest();
  Forest(const Forest&) = delete;
  Forest& operator=(const Forest&) = delete;
  Forest(Forest&&) noexcept;
  Forest& operator=(Forest&&) noexcept;

  Vec<int, Dim> treesPerAxis() const { return treesPerAxis_; }
  Vec<bool, Dim> periodic() const { return periodic_; }
  MPI_Comm comm() const { return comm_; }

  // Collective: writes the forest with its partition to `file` (p4est_save_ext).
  void save(const std::filesystem::path& file) const;

  // This rank's leaves in forest order (trees in order, Morton order within a tree).
  const std::vector<Leaf<Dim>>& leaves() const { return leaves_; }

  // Collective: refines the leaves flagged Refine (not beyond maxLevel) and coarsens every family
  // whose members are all flagged Coarsen (not below minLevel), then refines further where needed
  // to restore 2:1 balance across faces, edges and corners. flags has one entry per leaf. Returns
  // false, having left p4est's forest alone, where no rank's flags could change a leaf (nothing to
  // refine, no family to coarsen that balance would not refine again).
  bool adapt(std::span<const AdaptFlag> flags, int minLevel, int maxLevel);

  // Collective: the forest that adapt() would leave, as a forest of its own; this one stays as it
  // is, so that its patches can go on stepping (and be saved) while the adapted one is planned.
  // None where adapt() would return false.
  std::optional<Forest> adapted(std::span<const AdaptFlag> flags, int minLevel, int maxLevel) const;

  // Collective: moves leaves between the ranks along the space-filling curve so that the ranks'
  // sums of weights (one positive weight per local leaf, e.g. a patch's cost) are as equal as
  // whole families of leaves allow (families stay together so that they can still coarsen).
  // Returns each rank's first leaf before and after, which the leaves' data follow
  // (engine/mpi/leaf_migration.hpp: migrateLeaves).
  LeafSplit repartition(std::span<const int> weights);

  // This rank's ghost leaves, ordered by owner rank and within one owner in forest order; kept
  // current by the constructor, adapt and partition.
  const std::vector<GhostLeaf<Dim>>& ghostLeaves() const { return ghosts_; }

  // Collective: every rank sends the values of its leaves that are other ranks' ghosts; returns
  // the values of this rank's ghost leaves (valuesPerLeaf each, in ghostLeaves() order).
  std::vector<double> exchangeGhostValues(std::span<const double> perLeafValues, int valuesPerLeaf);

  // The ghost exchange as a halo plan over items numbered leaves first, then ghost leaves
  // (local leaf i is item i, ghost leaf g is item leaves().size() + g): for each neighbour rank,
  // the local leaves that are its ghosts, and the ghost leaves it owns, both in the order p4est
  // exchanges them. The ghost layer is symmetric, so the neighbours of a rank are the owners of
  // its ghosts. Empty on one rank.
  mpi::HaloPlan ghostExchangePlan() const;

  // The deepest level a patch may reach in this dimension: p4est's deepest quadrant level less
  // the largest k the constructor may choose.
  static int deepestLevel();

private:
  // other's quadrants with their data on a connectivity of its own, and its leaves; no ghost
  // layer until collectLeaves(): adapted() applies the flags at once.
  struct QuadrantsOf {
    const Forest& other;
  };
  explicit Forest(QuadrantsOf source);
  // adapt()'s checks of its arguments; whether any flag acts on this rank or, collectively, any.
  bool flagsAct(std::span<const AdaptFlag> flags, int minLevel, int maxLevel) const;
  // Refines, coarsens and balances state_'s forest by the flags, then collects the leaves.
  void applyFlags(std::span<const AdaptFlag> flags, int minLevel, int maxLevel);
  // The brick of trees for treesPerAxis, and rootLevel_ and the trees' origins from it.
  void buildConnectivity();
  // The leaves and the ghost layer of the current forest (collective: the ghost layer is).
  void collectLeaves();

  struct State; // the p4est objects, behind a pointer so that p4est's headers stay out of here
  MPI_Comm comm_;
  Vec<int, Dim> treesPerAxis_;
  Vec<bool, Dim> periodic_;
  int rootLevel_; // k: the quadrant level of the level-0 patches
  std::unique_ptr<State> state_;
  std::vector<Leaf<Dim>> leaves_;
  std::vector<GhostLeaf<Dim>> ghosts_;
};

} // namespace tessera::amr
