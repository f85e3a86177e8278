#include "amr/forest.hpp"

#include <algorithm>
#include <bit>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "amr/neighbour_leaf.hpp"
#include "amr/p4est_api.hpp"
#include "patches/placement_index.hpp"

namespace tessera::amr {
namespace {

// The per-quadrant data p4est carries for Tessera: the adapt request of the leaf and its weight
// for the next partition.
struct QuadrantData {
  signed char flag;
  int weight;
};

// The bounds of one adapt() call in quadrant levels, reached by p4est's callbacks through the
// forest's user pointer.
struct AdaptLimits {
  int minLevel, maxLevel;
};

// The cap on k, the quadrant level of the level-0 patches (see the constructor). 2^6 patches per
// axis in one tree already removes nearly all inter-tree work; a larger cap would only take more
// levels from deepestLevel().
constexpr int kMaxRootLevel = 6;

template <int Dim>
QuadrantData& dataOf(typename P4est<Dim>::Quadrant* q) {
  return *static_cast<QuadrantData*>(q->p.user_data);
}

template <int Dim>
void clearFlag(typename P4est<Dim>::Forest*, p4est_topidx_t, typename P4est<Dim>::Quadrant* q) {
  dataOf<Dim>(q).flag = 0;
  dataOf<Dim>(q).weight = 1;
}

template <int Dim>
int weightOf(typename P4est<Dim>::Forest*, p4est_topidx_t, typename P4est<Dim>::Quadrant* q) {
  return dataOf<Dim>(q).weight;
}

// The leaf of quadrant q of tree `tree`: the level-0 patches of a tree follow one another in
// Morton order, so tree and linear id number them all in forest order; a tree is 2^q.level
// patches of the leaf's level long, hence the tree origin's shift.
template <int Dim>
Leaf<Dim> leafOf(int tree, const typename P4est<Dim>::Quadrant& q, int rootLevel,
                 const Vec<int, Dim>& treeOrigin) {
  using Api = P4est<Dim>;
  Leaf<Dim> leaf;
  leaf.tree = (tree << (Dim * rootLevel)) + int(Api::linearId(q, rootLevel));
  leaf.level = q.level - rootLevel;
  const auto c = Api::coords(q);
  for (int a = 0; a < Dim; ++a)
    leaf.index[a] = (treeOrigin[a] << q.level) + (c[a] >> (Api::kMaxLevel - q.level));
  return leaf;
}

template <int Dim>
int refineFlagged(typename P4est<Dim>::Forest* f, p4est_topidx_t,
                  typename P4est<Dim>::Quadrant* q) {
  const auto* limits = static_cast<const AdaptLimits*>(f->user_pointer);
  return dataOf<Dim>(q).flag > 0 && q->level < limits->maxLevel;
}

template <int Dim>
int coarsenFlaggedFamily(typename P4est<Dim>::Forest* f, p4est_topidx_t,
                         typename P4est<Dim>::Quadrant* family[]) {
  const auto* limits = static_cast<const AdaptLimits*>(f->user_pointer);
  for (int c = 0; c < P4est<Dim>::kChildren; ++c)
    if (dataOf<Dim>(family[c]).flag >= 0 || family[c]->level <= limits->minLevel)
      return 0;
  return 1;
}

// Whether some flag changes this rank's leaves: a leaf below maxLevel flagged to refine, or a
// whole family above minLevel flagged to coarsen that no finer leaf touches. A family beside a
// finer leaf p4est would coarsen and its balance refine again, to the same leaves: most regrids
// of a run flag such families beside the finest patches, and change nothing. A family's members
// are consecutive leaves (Morton order within a tree); the ghost leaves include every leaf that
// touches one of this rank's.
template <int Dim>
bool someFlagActs(const std::vector<Leaf<Dim>>& leaves, const std::vector<GhostLeaf<Dim>>& ghosts,
                  std::span<const AdaptFlag> flags, int minLevel, int maxLevel,
                  Vec<int, Dim> treesPerAxis, Vec<bool, Dim> periodic) {
  constexpr std::size_t kChildren = std::size_t(1) << Dim;
  std::optional<PlacementIndex<Dim>> index; // built for the first family found
  const auto finerNeighbour = [&](const Leaf<Dim>& leaf) {
    for (int n = 0; n < kNeighbourDirections<Dim>; ++n) {
      const std::optional<int> beside =
          neighbourLeaf(*index, leaf.level, leaf.index, n, treesPerAxis, periodic);
      if (beside && *beside < 0)
        return true;
    }
    return false;
  };
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    if (flags[i] == AdaptFlag::Refine && leaves[i].level < maxLevel)
      return true;
    if (flags[i] != AdaptFlag::Coarsen || leaves[i].level <= minLevel ||
        i + kChildren > leaves.size())
      continue;
    bool family = true;
    for (std::size_t c = 1; c < kChildren && family; ++c) {
      const Leaf<Dim>& a = leaves[i];
      const Leaf<Dim>& b = leaves[i + c];
      family = flags[i + c] == AdaptFlag::Coarsen && b.tree == a.tree && b.level == a.level;
      for (int d = 0; d < Dim && family; ++d)
        family = b.index[d] >> 1 == a.index[d] >> 1;
    }
    if (!family)
      continue;
    if (!index) {
      std::vector<PatchPlacement<Dim>> known;
      known.reserve(leaves.size() + ghosts.size());
      for (const Leaf<Dim>& leaf : leaves)
        known.push_back({leaf.level, leaf.index});
      for (const GhostLeaf<Dim>& ghost : ghosts)
        known.push_back({ghost.leaf.level, ghost.leaf.index});
      index.emplace(known);
    }
    bool blocked = false;
    for (std::size_t c = 0; c < kChildren && !blocked; ++c)
      blocked = finerNeighbour(leaves[i + c]);
    if (!blocked)
      return true;
    i += kChildren - 1; // the family's other members start no family
  }
  return false;
}

// p4est registers itself once per process (2D and 3D forests alike); its chatter is turned off.
void initialiseP4estOnce() {
  static std::once_flag once;
  std::call_once(once, [] { p4est_init(nullptr, SC_LP_ERROR); });
}

// Visits this rank's quadrants in forest order.
template <int Dim, class F>
void forEachLocalQuadrant(typename P4est<Dim>::Forest* forest, F&& f) {
  for (p4est_topidx_t t = forest->first_local_tree; t <= forest->last_local_tree; ++t) {
    auto* tree = static_cast<typename P4est<Dim>::Tree*>(sc_array_index(forest->trees, t));
    for (std::size_t i = 0; i < tree->quadrants.elem_count; ++i)
      f(int(t), static_cast<typename P4est<Dim>::Quadrant*>(sc_array_index(&tree->quadrants, i)));
  }
}

} // namespace

template <int Dim>
struct Forest<Dim>::State {
  using Api = P4est<Dim>;
  typename Api::Connectivity* connectivity = nullptr;
  typename Api::Forest* forest = nullptr;
  typename Api::Ghost* ghost = nullptr;  // of the current forest
  std::vector<Vec<int, Dim>> treeOrigin; // lower corner of each tree, in trees

  ~State() {
    if (ghost)
      Api::destroy(ghost);
    if (forest)
      Api::destroy(forest);
    if (connectivity)
      Api::destroy(connectivity);
  }
};

template <int Dim>
int Forest<Dim>::deepestLevel() {
  return P4est<Dim>::kMaxRefineLevel - kMaxRootLevel;
}

template <int Dim>
Forest<Dim>::Forest(MPI_Comm comm, Vec<int, Dim> treesPerAxis, Vec<bool, Dim> periodic,
                    int initialLevel)
    : comm_(comm), treesPerAxis_(treesPerAxis), periodic_(periodic),
      state_(std::make_unique<State>()) {
  using Api = P4est<Dim>;
  initialiseP4estOnce();
  for (int a = 0; a < Dim; ++a)
    if (treesPerAxis[a] < 1)
      throw std::invalid_argument("Forest: need at least one tree per axis");
  if (initialLevel < 0 || initialLevel > deepestLevel())
    throw std::invalid_argument("Forest: initial level " + std::to_string(initialLevel) +
                                " outside [0, " + std::to_string(deepestLevel()) + "]");
  buildConnectivity();
  state_->forest = Api::create(comm, state_->connectivity, rootLevel_ + initialLevel,
                               sizeof(QuadrantData), &clearFlag<Dim>, nullptr);
  // p4est's uniform start may split a family between two ranks, and a split family cannot
  // coarsen: the forest would then adapt differently on different rank counts.
  if (state_->forest->mpisize > 1)
    Api::partition(state_->forest, nullptr);
  collectLeaves();
}

template <int Dim>
Forest<Dim>::Forest(MPI_Comm comm, Vec<int, Dim> treesPerAxis, Vec<bool, Dim> periodic,
                    const std::filesystem::path& file, bool keepPartition)
    : comm_(comm), treesPerAxis_(treesPerAxis), periodic_(periodic),
      state_(std::make_unique<State>()) {
  using Api = P4est<Dim>;
  initialiseP4estOnce();
  buildConnectivity();
  typename Api::Connectivity* saved = nullptr;
  state_->forest =
      Api::load(file.c_str(), comm, sizeof(QuadrantData), &clearFlag<Dim>, !keepPartition, &saved);
  const bool same = Api::sameConnectivity(saved, state_->connectivity);
  Api::destroy(saved);
  if (!same)
    throw std::invalid_argument(file.string() + ": a forest of another box of level-0 patches");
  state_->forest->connectivity = state_->connectivity;
  if (!keepPartition && state_->forest->mpisize > 1)
    Api::partition(state_->forest, nullptr); // families together, as the constructor above
  collectLeaves();
}

template <int Dim>
void Forest<Dim>::buildConnectivity() {
  using Api = P4est<Dim>;
  // p4est balances and searches across tree boundaries through face, edge and corner transforms
  // and tree-overlap computations that cost far more than the same work inside one tree; with one
  // tree per level-0 patch they dominate every adapt. So the trees are blocks of 2^k level-0
  // patches per axis, k the largest that divides every count (up to kMaxRootLevel), and the
  // level-0 patches are the quadrants of level k. A brick orders its trees along a Morton curve
  // whose lowest bits interleave all axes alike, so the leaves come in the same order as with one
  // tree per patch.
  rootLevel_ = kMaxRootLevel;
  for (int a = 0; a < Dim; ++a)
    rootLevel_ = std::min(rootLevel_, std::countr_zero(unsigned(treesPerAxis_[a])));
  Vec<int, Dim> brickTrees;
  for (int a = 0; a < Dim; ++a)
    brickTrees[a] = treesPerAxis_[a] >> rootLevel_;
  state_->connectivity = Api::brick(brickTrees, periodic_);
  const auto* conn = state_->connectivity;
  state_->treeOrigin.resize(std::size_t(conn->num_trees));
  for (p4est_topidx_t t = 0; t < conn->num_trees; ++t) {
    // A brick's vertices sit at integer positions; vertex 0 of a tree is its lower corner.
    const double* v = conn->vertices + 3 * conn->tree_to_vertex[Api::kChildren * t];
    for (int a = 0; a < Dim; ++a)
      state_->treeOrigin[t][a] = int(v[a]);
  }
}

template <int Dim>
void Forest<Dim>::save(const std::filesystem::path& file) const {
  P4est<Dim>::save(file.c_str(), state_->forest);
}

template <int Dim>
Forest<Dim>::Forest(QuadrantsOf source)
    : comm_(source.other.comm_), treesPerAxis_(source.other.treesPerAxis_),
      periodic_(source.other.periodic_), state_(std::make_unique<State>()),
      leaves_(source.other.leaves_), ghosts_(source.other.ghosts_) {
  buildConnectivity();
  state_->forest = P4est<Dim>::copy(source.other.state_->forest, state_->connectivity);
}

template <int Dim>
Forest<Dim>::~Forest() = default;
template <int Dim>
Forest<Dim>::Forest(Forest&&) noexcept = default;
template <int Dim>
Forest<Dim>& Forest<Dim>::operator=(Forest&&) noexcept = default;

template <int Dim>
bool Forest<Dim>::flagsAct(std::span<const AdaptFlag> flags, int minLevel, int maxLevel) const {
  if (flags.size() != leaves_.size())
    throw std::invalid_argument("Forest::adapt: " + std::to_string(flags.size()) + " flags for " +
                                std::to_string(leaves_.size()) + " leaves");
  if (minLevel < 0 || maxLevel > deepestLevel() || minLevel > maxLevel)
    throw std::invalid_argument("Forest::adapt: need 0 <= minLevel <= maxLevel <= " +
                                std::to_string(deepestLevel()));
  int acts = someFlagActs(leaves_, ghosts_, flags, minLevel, maxLevel, treesPerAxis_, periodic_);
  if (state_->forest->mpisize > 1) // p4est's adapt and balance are collective
    MPI_Allreduce(MPI_IN_PLACE, &acts, 1, MPI_INT, MPI_LOR, comm_);
  return acts;
}

template <int Dim>
void Forest<Dim>::applyFlags(std::span<const AdaptFlag> flags, int minLevel, int maxLevel) {
  using Api = P4est<Dim>;
  auto* forest = state_->forest;
  std::size_t i = 0;
  forEachLocalQuadrant<Dim>(forest, [&](int, typename Api::Quadrant* q) {
    dataOf<Dim>(q).flag = static_cast<signed char>(flags[i++]);
  });
  AdaptLimits limits{rootLevel_ + minLevel, rootLevel_ + maxLevel};
  forest->user_pointer = &limits;
  Api::coarsen(forest, &coarsenFlaggedFamily<Dim>, &clearFlag<Dim>);
  Api::refine(forest, limits.maxLevel, &refineFlagged<Dim>, &clearFlag<Dim>);
  Api::balance(forest, &clearFlag<Dim>);
  forest->user_pointer = nullptr;
  collectLeaves();
}

template <int Dim>
bool Forest<Dim>::adapt(std::span<const AdaptFlag> flags, int minLevel, int maxLevel) {
  if (!flagsAct(flags, minLevel, maxLevel))
    return false;
  applyFlags(flags, minLevel, maxLevel);
  return true;
}

template <int Dim>
std::optional<Forest<Dim>> Forest<Dim>::adapted(std::span<const AdaptFlag> flags, int minLevel,
                                                int maxLevel) const {
  if (!flagsAct(flags, minLevel, maxLevel))
    return std::nullopt;
  Forest<Dim> copy(QuadrantsOf{*this});
  copy.applyFlags(flags, minLevel, maxLevel);
  return copy;
}

template <int Dim>
LeafSplit Forest<Dim>::repartition(std::span<const int> weights) {
  using Api = P4est<Dim>;
  if (weights.size() != leaves_.size())
    throw std::invalid_argument("Forest::repartition: " + std::to_string(weights.size()) +
                                " weights for " + std::to_string(leaves_.size()) + " leaves");
  auto* forest = state_->forest;
  std::size_t i = 0;
  forEachLocalQuadrant<Dim>(forest, [&](int, typename Api::Quadrant* q) {
    const int weight = weights[i++];
    if (weight < 1)
      throw std::invalid_argument("Forest::repartition: weight " + std::to_string(weight) +
                                  " of leaf " + std::to_string(i - 1) + " is not positive");
    dataOf<Dim>(q).weight = weight;
  });
  const auto firstLeaves = [&] {
    return std::vector<long long>(forest->global_first_quadrant,
                                  forest->global_first_quadrant + forest->mpisize + 1);
  };
  LeafSplit split;
  split.before = firstLeaves();
  Api::partition(forest, &weightOf<Dim>);
  split.after = firstLeaves();
  collectLeaves();
  return split;
}

template <int Dim>
std::vector<double> Forest<Dim>::exchangeGhostValues(std::span<const double> perLeafValues,
                                                     int valuesPerLeaf) {
  using Api = P4est<Dim>;
  if (valuesPerLeaf < 1 || perLeafValues.size() != leaves_.size() * std::size_t(valuesPerLeaf))
    throw std::invalid_argument(
        "Forest::exchangeGhostValues: " + std::to_string(perLeafValues.size()) + " values for " +
        std::to_string(leaves_.size()) + " leaves of " + std::to_string(valuesPerLeaf));
  auto* ghost = state_->ghost;
  if (ghost == nullptr) // one rank
    return {};
  const std::size_t width = std::size_t(valuesPerLeaf);
  // p4est reads each mirror's values through a pointer; it writes nothing through them.
  std::vector<void*> mirrorValues(ghost->mirrors.elem_count);
  for (std::size_t m = 0; m < mirrorValues.size(); ++m) {
    const auto* q = static_cast<const typename Api::Quadrant*>(sc_array_index(&ghost->mirrors, m));
    mirrorValues[m] =
        const_cast<double*>(perLeafValues.data() + std::size_t(q->p.piggy3.local_num) * width);
  }
  std::vector<double> ghostValues(ghosts_.size() * width);
  Api::exchangeGhosts(state_->forest, ghost, width * sizeof(double), mirrorValues.data(),
                      ghostValues.data());
  return ghostValues;
}

template <int Dim>
mpi::HaloPlan Forest<Dim>::ghostExchangePlan() const {
  using Api = P4est<Dim>;
  mpi::HaloPlan plan;
  auto* ghost = state_->ghost; // sc_array_index takes a mutable array; nothing is written
  if (ghost == nullptr)        // one rank
    return plan;
  const int firstGhostItem = int(leaves_.size());
  for (int rank = 0; rank < ghost->mpisize; ++rank) {
    const p4est_locidx_t ghostsFrom = ghost->proc_offsets[rank];
    const p4est_locidx_t ghostsTo = ghost->proc_offsets[rank + 1];
    const p4est_locidx_t mirrorsFrom = ghost->mirror_proc_offsets[rank];
    const p4est_locidx_t mirrorsTo = ghost->mirror_proc_offsets[rank + 1];
    if (ghostsFrom == ghostsTo && mirrorsFrom == mirrorsTo)
      continue;
    if (ghostsFrom == ghostsTo || mirrorsFrom == mirrorsTo)
      throw std::logic_error("Forest::ghostExchangePlan: rank " + std::to_string(rank) +
                             " is a neighbour one way only");
    plan.neighbourRanks.push_back(rank);
    std::vector<int> send, receive;
    for (p4est_locidx_t m = mirrorsFrom; m < mirrorsTo; ++m) {
      const auto* q = static_cast<const typename Api::Quadrant*>(
          sc_array_index(&ghost->mirrors, std::size_t(ghost->mirror_proc_mirrors[std::size_t(m)])));
      send.push_back(int(q->p.piggy3.local_num));
    }
    for (p4est_locidx_t g = ghostsFrom; g < ghostsTo; ++g)
      receive.push_back(firstGhostItem + int(g));
    plan.sendItems.appendRow(send);
    plan.receiveItems.appendRow(receive);
  }
  return plan;
}

template <int Dim>
void Forest<Dim>::collectLeaves() {
  using Api = P4est<Dim>;
  leaves_.clear();
  forEachLocalQuadrant<Dim>(state_->forest, [&](int tree, typename Api::Quadrant* q) {
    leaves_.push_back(leafOf<Dim>(tree, *q, rootLevel_, state_->treeOrigin[std::size_t(tree)]));
  });
  if (state_->ghost)
    Api::destroy(state_->ghost);
  state_->ghost = nullptr;
  ghosts_.clear();
  // One rank has no ghosts; the search for them is not free on a large forest.
  if (state_->forest->mpisize == 1)
    return;
  state_->ghost = Api::ghostLayer(state_->forest);
  auto* ghost = state_->ghost;
  for (int rank = 0; rank < ghost->mpisize; ++rank)
    for (p4est_locidx_t g = ghost->proc_offsets[rank]; g < ghost->proc_offsets[rank + 1]; ++g) {
      const auto* q = static_cast<const typename Api::Quadrant*>(
          sc_array_index(&ghost->ghosts, std::size_t(g)));
      const int tree = int(q->p.piggy3.which_tree);
      ghosts_.push_back(
          {leafOf<Dim>(tree, *q, rootLevel_, state_->treeOrigin[std::size_t(tree)]), rank});
    }
}

template class Forest<2>;
template class Forest<3>;

} // namespace tessera::amr
