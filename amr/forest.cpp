#include "amr/forest.hpp"

#include <algorithm>
#include <bit>
#include <mutex>
#include <stdexcept>
#include <string>

#include "amr/p4est_api.hpp"

namespace tessera::amr {
namespace {

// The per-quadrant data p4est carries for Tessera: the adapt request of the leaf.
struct QuadrantData {
  signed char flag;
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
  std::vector<Vec<int, Dim>> treeOrigin; // lower corner of each tree, in trees

  ~State() {
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

  // p4est balances and searches across tree boundaries through face, edge and corner transforms
  // and tree-overlap computations that cost far more than the same work inside one tree; with one
  // tree per level-0 patch they dominate every adapt. So the trees are blocks of 2^k level-0
  // patches per axis, k the largest that divides every count (up to kMaxRootLevel), and the
  // level-0 patches are the quadrants of level k. A brick orders its trees along a Morton curve
  // whose lowest bits interleave all axes alike, so the leaves come in the same order as with one
  // tree per patch.
  rootLevel_ = kMaxRootLevel;
  for (int a = 0; a < Dim; ++a)
    rootLevel_ = std::min(rootLevel_, std::countr_zero(unsigned(treesPerAxis[a])));
  Vec<int, Dim> brickTrees;
  for (int a = 0; a < Dim; ++a)
    brickTrees[a] = treesPerAxis[a] >> rootLevel_;
  state_->connectivity = Api::brick(brickTrees, periodic);
  const auto* conn = state_->connectivity;
  state_->treeOrigin.resize(std::size_t(conn->num_trees));
  for (p4est_topidx_t t = 0; t < conn->num_trees; ++t) {
    // A brick's vertices sit at integer positions; vertex 0 of a tree is its lower corner.
    const double* v = conn->vertices + 3 * conn->tree_to_vertex[Api::kChildren * t];
    for (int a = 0; a < Dim; ++a)
      state_->treeOrigin[t][a] = int(v[a]);
  }
  state_->forest = Api::create(comm, state_->connectivity, rootLevel_ + initialLevel,
                               sizeof(QuadrantData), &clearFlag<Dim>, nullptr);
  collectLeaves();
}

template <int Dim>
Forest<Dim>::~Forest() = default;

template <int Dim>
void Forest<Dim>::adapt(std::span<const AdaptFlag> flags, int minLevel, int maxLevel) {
  using Api = P4est<Dim>;
  if (flags.size() != leaves_.size())
    throw std::invalid_argument("Forest::adapt: " + std::to_string(flags.size()) + " flags for " +
                                std::to_string(leaves_.size()) + " leaves");
  if (minLevel < 0 || maxLevel > deepestLevel() || minLevel > maxLevel)
    throw std::invalid_argument("Forest::adapt: need 0 <= minLevel <= maxLevel <= " +
                                std::to_string(deepestLevel()));
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
void Forest<Dim>::collectLeaves() {
  using Api = P4est<Dim>;
  leaves_.clear();
  forEachLocalQuadrant<Dim>(state_->forest, [&](int tree, typename Api::Quadrant* q) {
    Leaf<Dim> leaf;
    // The level-0 patches of a tree follow one another in Morton order, so this numbers them all
    // in forest order.
    leaf.tree = (tree << (Dim * rootLevel_)) + int(Api::linearId(*q, rootLevel_));
    leaf.level = q->level - rootLevel_;
    // A tree is 2^q->level patches of the leaf's level long, hence the tree origin's shift.
    const auto c = Api::coords(*q);
    for (int a = 0; a < Dim; ++a)
      leaf.index[a] =
          (state_->treeOrigin[tree][a] << q->level) + (c[a] >> (Api::kMaxLevel - q->level));
    leaves_.push_back(leaf);
  });
}

template class Forest<2>;
template class Forest<3>;

} // namespace tessera::amr
