// The p4est forest: leaves of a uniform brick, adaptation by flags, and 2:1 balance across faces,
// edges and corners (periodic images included), checked by brute force on the leaf boxes.
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "amr/forest.hpp"

namespace tessera::amr {
namespace {

// The box of a leaf in units of the finest level `finest`: [lo, lo + size) per axis.
template <int Dim>
struct Box {
  Vec<long long, Dim> lo;
  long long size;
};

template <int Dim>
Box<Dim> boxOf(const Leaf<Dim>& leaf, int finest) {
  Box<Dim> b;
  b.size = 1LL << (finest - leaf.level);
  for (int a = 0; a < Dim; ++a)
    b.lo[a] = leaf.index[a] * b.size;
  return b;
}

// True when the closed boxes share a face, an edge or a corner, directly or across a periodic
// axis of a domain `extent` finest cells long.
template <int Dim>
bool touch(const Box<Dim>& a, const Box<Dim>& b, Vec<long long, Dim> extent,
           Vec<bool, Dim> periodic) {
  for (int axis = 0; axis < Dim; ++axis) {
    bool overlaps = false;
    for (long long shift : {0LL, extent[axis], -extent[axis]}) {
      if (shift != 0 && !periodic[axis])
        continue;
      const long long lo = b.lo[axis] + shift;
      overlaps = overlaps || (a.lo[axis] <= lo + b.size && lo <= a.lo[axis] + a.size);
    }
    if (!overlaps)
      return false;
  }
  return true;
}

template <int Dim>
void expectBalancedAndTiling(const Forest<Dim>& forest) {
  const auto& leaves = forest.leaves();
  int finest = 0;
  for (const auto& l : leaves)
    finest = std::max(finest, l.level);
  Vec<long long, Dim> extent;
  long long volume = 1;
  for (int a = 0; a < Dim; ++a) {
    extent[a] = (long long)forest.treesPerAxis()[a] << finest;
    volume *= extent[a];
  }
  long long covered = 0;
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const Box<Dim> bi = boxOf(leaves[i], finest);
    long long v = 1;
    for (int a = 0; a < Dim; ++a)
      v *= bi.size;
    covered += v;
    for (std::size_t j = i + 1; j < leaves.size(); ++j) {
      if (touch(bi, boxOf(leaves[j], finest), extent, forest.periodic())) {
        ASSERT_LE(std::abs(leaves[i].level - leaves[j].level), 1)
            << "leaves " << i << " and " << j << " touch across more than one level";
      }
    }
  }
  EXPECT_EQ(covered, volume) << "the leaves must tile the domain";
}

TEST(Forest, UniformBrickHasEveryPositionOnce) {
  Forest<2> forest(MPI_COMM_WORLD, {{3, 2}}, {{false, true}}, 2);
  ASSERT_EQ(forest.leaves().size(), std::size_t(3 * 2 * 16));
  std::set<std::pair<int, int>> seen;
  std::map<int, std::pair<int, int>> brickCellOfTree;
  for (const auto& leaf : forest.leaves()) {
    EXPECT_EQ(leaf.level, 2);
    EXPECT_GE(leaf.index[0], 0);
    EXPECT_LT(leaf.index[0], 12);
    EXPECT_GE(leaf.index[1], 0);
    EXPECT_LT(leaf.index[1], 8);
    EXPECT_TRUE(seen.insert({leaf.index[0], leaf.index[1]}).second);
    // Every tree is one level-0 patch: all its leaves lie in one brick cell, its own.
    const std::pair<int, int> cell{leaf.index[0] / 4, leaf.index[1] / 4};
    const auto [it, inserted] = brickCellOfTree.insert({leaf.tree, cell});
    EXPECT_EQ(it->second, cell) << "tree " << leaf.tree;
  }
  std::set<std::pair<int, int>> cells;
  for (const auto& [tree, cell] : brickCellOfTree)
    cells.insert(cell);
  EXPECT_EQ(cells.size(), 6u) << "six trees in six different brick cells";
}

// The Morton position of a cell among all cells of a power-of-two square or cube, x bit lowest.
template <int Dim>
long long mortonOf(Vec<int, Dim> index) {
  long long m = 0;
  for (int bit = 0; bit < 20; ++bit)
    for (int a = 0; a < Dim; ++a)
      m |= (long long)((index[a] >> bit) & 1) << (Dim * bit + a);
  return m;
}

// Counts that are multiples of two put several level-0 patches in one p4est tree; the leaves must
// still come in the order of one tree per patch, which on a power-of-two brick is the Morton order
// of the whole domain, and name their level-0 patch in that order.
template <int Dim>
void expectMortonOrderOnPowerOfTwoBrick(Vec<int, Dim> trees) {
  Forest<Dim> forest(MPI_COMM_WORLD, trees, Vec<bool, Dim>{}, 1);
  const auto& leaves = forest.leaves();
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    EXPECT_EQ(leaves[i].level, 1);
    EXPECT_EQ(mortonOf(leaves[i].index), (long long)i) << "leaf " << i;
    Vec<int, Dim> level0;
    for (int a = 0; a < Dim; ++a)
      level0[a] = leaves[i].index[a] / 2;
    EXPECT_EQ(leaves[i].tree, mortonOf(level0)) << "leaf " << i;
  }
}

TEST(Forest, SeveralPatchesPerTreeKeepTheOrderOfOneTreePerPatch) {
  expectMortonOrderOnPowerOfTwoBrick<2>({{4, 4}});
  expectMortonOrderOnPowerOfTwoBrick<3>({{2, 2, 2}});
}

TEST(Forest, LevelLimitsCountFromTheLevelZeroPatches) {
  // 2 x 2 x 2 patches make one tree whose level-0 patches are a family p4est could coarsen.
  Forest<3> forest(MPI_COMM_WORLD, {{2, 2, 2}}, {{false, false, false}}, 0);
  ASSERT_EQ(forest.leaves().size(), 8u);
  std::vector<AdaptFlag> flags(8, AdaptFlag::Coarsen);
  forest.adapt(flags, 0, 2);
  ASSERT_EQ(forest.leaves().size(), 8u);
  for (const auto& leaf : forest.leaves())
    EXPECT_EQ(leaf.level, 0);
  flags.assign(8, AdaptFlag::Refine);
  forest.adapt(flags, 0, 1);
  ASSERT_EQ(forest.leaves().size(), 64u);
  flags.assign(64, AdaptFlag::Refine);
  forest.adapt(flags, 0, 1);
  EXPECT_EQ(forest.leaves().size(), 64u);
  flags.assign(64, AdaptFlag::Coarsen);
  forest.adapt(flags, 1, 2);
  EXPECT_EQ(forest.leaves().size(), 64u);
  forest.adapt(flags, 0, 2);
  EXPECT_EQ(forest.leaves().size(), 8u);
}

TEST(Forest, RefineOneLeafThenCoarsenItsChildren) {
  Forest<3> forest(MPI_COMM_WORLD, {{1, 1, 1}}, {{false, false, false}}, 1);
  ASSERT_EQ(forest.leaves().size(), 8u);
  std::vector<AdaptFlag> flags(8, AdaptFlag::Keep);
  EXPECT_FALSE(forest.adapt(flags, 0, 3)) << "no flag acts";
  flags[3] = AdaptFlag::Refine;
  EXPECT_TRUE(forest.adapt(flags, 0, 3));
  EXPECT_EQ(forest.leaves().size(), 15u);
  expectBalancedAndTiling(forest);
  // Seven of the eight children (level 2) flagged to coarsen: no family, nothing acts.
  flags.assign(forest.leaves().size(), AdaptFlag::Keep);
  int marked = 0;
  for (std::size_t i = 0; i < flags.size(); ++i)
    if (forest.leaves()[i].level == 2 && ++marked < 8)
      flags[i] = AdaptFlag::Coarsen;
  const auto before = forest.leaves();
  EXPECT_FALSE(forest.adapt(flags, 0, 3));
  EXPECT_EQ(forest.leaves(), before);
  // All eight: back to the uniform level 1.
  for (std::size_t i = 0; i < flags.size(); ++i)
    if (forest.leaves()[i].level == 2)
      flags[i] = AdaptFlag::Coarsen;
  EXPECT_TRUE(forest.adapt(flags, 0, 3));
  EXPECT_EQ(forest.leaves().size(), 8u);
  // Levels are bounded: coarsening below minLevel and refining beyond maxLevel do nothing.
  flags.assign(8, AdaptFlag::Coarsen);
  EXPECT_FALSE(forest.adapt(flags, 1, 3));
  EXPECT_EQ(forest.leaves().size(), 8u);
  flags.assign(8, AdaptFlag::Refine);
  EXPECT_FALSE(forest.adapt(flags, 0, 1));
  EXPECT_EQ(forest.leaves().size(), 8u);
}

// Families flagged to coarsen on adapted forests, the leaves after adapt() against a model of
// what coarsening then balancing gives: every flagged family coarsens except those whose parent
// would touch a leaf two levels finer, found by brute force on the leaf boxes, repeatedly (a
// family stays beside another that stays). Every other trial flags only families beside finer
// leaves that stay: nothing changes, and adapt() says so.
template <int Dim>
void coarsenOnlyWhereBalanceAllows(Vec<int, Dim> trees, Vec<bool, Dim> periodic, unsigned seed) {
  constexpr int kFinest = 4;
  constexpr std::size_t kChildren = std::size_t(1) << Dim;
  Forest<Dim> forest(MPI_COMM_WORLD, trees, periodic, 1);
  std::mt19937 random(seed);
  Vec<long long, Dim> extent;
  for (int a = 0; a < Dim; ++a)
    extent[a] = (long long)trees[a] << kFinest;
  int blockedTrials = 0;
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<AdaptFlag> refine(forest.leaves().size());
    for (auto& f : refine)
      f = random() % 4 == 0 ? AdaptFlag::Refine : AdaptFlag::Keep;
    forest.adapt(refine, 0, kFinest);
    const auto& leaves = forest.leaves();
    const auto touchesFiner = [&](const Box<Dim>& box, int level, std::size_t skipFrom,
                                  const std::vector<char>& coarsened, const auto& firsts) {
      for (std::size_t j = 0; j < leaves.size(); ++j) {
        if (leaves[j].level <= level + 1)
          continue;
        // A member of a family that coarsens counts as its parent, one level coarser.
        bool asParent = false;
        for (std::size_t f = 0; f < firsts.size(); ++f)
          asParent = asParent || (coarsened[f] && j >= firsts[f] && j < firsts[f] + kChildren);
        if (asParent && leaves[j].level - 1 <= level + 1)
          continue;
        if (j >= skipFrom && j < skipFrom + kChildren)
          continue;
        if (touch(box, boxOf(leaves[j], kFinest), extent, periodic))
          return true;
      }
      return false;
    };
    const bool onlyBlocked = trial % 2 == 1;
    std::vector<std::size_t> firsts; // first member of each flagged family
    std::vector<AdaptFlag> flags(leaves.size(), AdaptFlag::Keep);
    for (std::size_t i = 0; i + kChildren <= leaves.size(); ++i) {
      bool family = leaves[i].level > 0;
      for (std::size_t c = 1; c < kChildren && family; ++c) {
        family = leaves[i + c].level == leaves[i].level && leaves[i + c].tree == leaves[i].tree;
        for (int a = 0; a < Dim && family; ++a)
          family = leaves[i + c].index[a] >> 1 == leaves[i].index[a] >> 1;
      }
      if (!family)
        continue;
      Leaf<Dim> parent = leaves[i];
      parent.level -= 1;
      for (int a = 0; a < Dim; ++a)
        parent.index[a] >>= 1;
      const bool blocked = touchesFiner(boxOf(parent, kFinest), parent.level, i,
                                        std::vector<char>(firsts.size(), 0), firsts);
      if (onlyBlocked ? blocked : random() % 3 == 0) {
        firsts.push_back(i);
        for (std::size_t c = 0; c < kChildren; ++c)
          flags[i + c] = AdaptFlag::Coarsen;
      }
      i += kChildren - 1;
    }
    // The model: all flagged families coarsen, then those beside a leaf two levels finer stay.
    std::vector<char> coarsened(firsts.size(), 1);
    for (bool removed = true; removed;) {
      removed = false;
      for (std::size_t f = 0; f < firsts.size(); ++f) {
        if (!coarsened[f])
          continue;
        Leaf<Dim> parent = leaves[firsts[f]];
        parent.level -= 1;
        for (int a = 0; a < Dim; ++a)
          parent.index[a] >>= 1;
        if (touchesFiner(boxOf(parent, kFinest), parent.level, firsts[f], coarsened, firsts)) {
          coarsened[f] = 0;
          removed = true;
        }
      }
    }
    std::size_t coarsens = 0;
    for (char c : coarsened)
      coarsens += std::size_t(c);
    const std::size_t count = leaves.size();
    const bool acted = forest.adapt(flags, 0, kFinest);
    EXPECT_EQ(forest.leaves().size(), count - coarsens * (kChildren - 1)) << "trial " << trial;
    EXPECT_EQ(acted, coarsens > 0) << "trial " << trial << ", " << firsts.size() << " flagged";
    expectBalancedAndTiling(forest);
    blockedTrials += onlyBlocked && !firsts.empty() ? 1 : 0;
  }
  EXPECT_GE(blockedTrials, 2); // trials where only families that must stay were flagged
}

TEST(Forest, FamiliesCoarsenOnlyWhereBalanceAllows2D) {
  coarsenOnlyWhereBalanceAllows<2>({{2, 3}}, {{true, false}}, 3u);
}

TEST(Forest, FamiliesCoarsenOnlyWhereBalanceAllows3D) {
  coarsenOnlyWhereBalanceAllows<3>({{1, 2, 1}}, {{false, true, false}}, 5u);
}

// `count` flags: 20% Refine, 40% Coarsen, the rest Keep.
std::vector<AdaptFlag> randomFlags(std::mt19937& random, std::size_t count) {
  std::vector<AdaptFlag> flags(count);
  for (auto& f : flags) {
    const int r = int(random() % 10);
    f = r < 2 ? AdaptFlag::Refine : (r < 6 ? AdaptFlag::Coarsen : AdaptFlag::Keep);
  }
  return flags;
}

template <int Dim>
void randomAdaptsStayBalanced(Vec<int, Dim> trees, Vec<bool, Dim> periodic, int rounds) {
  Forest<Dim> forest(MPI_COMM_WORLD, trees, periodic, 1);
  std::mt19937 random(12345);
  for (int round = 0; round < rounds; ++round) {
    forest.adapt(randomFlags(random, forest.leaves().size()), 0, 4);
    expectBalancedAndTiling(forest);
  }
}

TEST(Forest, RandomAdaptsKeepTwoToOneBalance2D) {
  randomAdaptsStayBalanced<2>({{2, 3}}, {{true, false}}, 8);
}

TEST(Forest, RandomAdaptsKeepTwoToOneBalance3D) {
  randomAdaptsStayBalanced<3>({{1, 2, 1}}, {{false, true, true}}, 4);
}

// Even counts: blocks of 2 x 2 (x 2) and 4 x 4 patches per tree, periodic images across them.
TEST(Forest, RandomAdaptsKeepTwoToOneBalanceWithSeveralPatchesPerTree) {
  randomAdaptsStayBalanced<2>({{4, 6}}, {{true, false}}, 8);
  randomAdaptsStayBalanced<2>({{8, 4}}, {{true, true}}, 6);
  randomAdaptsStayBalanced<3>({{2, 2, 4}}, {{false, true, true}}, 4);
}

// adapted() gives the forest that adapt() leaves, as a forest of its own: the original keeps its
// leaves, and the copy goes on adapting (on its own connectivity) after the original is gone.
template <int Dim>
void adaptedEqualsAdapt(Vec<int, Dim> trees, Vec<bool, Dim> periodic) {
  auto forest = std::make_unique<Forest<Dim>>(MPI_COMM_WORLD, trees, periodic, 1);
  std::mt19937 random(777);
  std::optional<Forest<Dim>> copy;
  for (int round = 0; round < 4; ++round) {
    const std::vector<AdaptFlag> flags = randomFlags(random, forest->leaves().size());
    const std::vector<Leaf<Dim>> before = forest->leaves();
    copy = forest->adapted(flags, 0, 4);
    EXPECT_EQ(forest->leaves(), before) << "round " << round;
    ASSERT_EQ(forest->adapt(flags, 0, 4), copy.has_value()) << "round " << round;
    if (copy) {
      EXPECT_EQ(copy->leaves(), forest->leaves()) << "round " << round;
    }
  }
  std::vector<AdaptFlag> keep(forest->leaves().size(), AdaptFlag::Keep);
  EXPECT_FALSE(forest->adapted(keep, 0, 4)) << "no flag acts";
  ASSERT_TRUE(copy) << "the last round must adapt for the rest to mean anything";
  forest.reset();
  for (int round = 0; round < 2; ++round) {
    copy->adapt(randomFlags(random, copy->leaves().size()), 0, 4);
    expectBalancedAndTiling(*copy);
  }
}

TEST(Forest, AdaptedIsTheAdaptAsAForestOfItsOwn2D) {
  adaptedEqualsAdapt<2>({{4, 6}}, {{true, false}});
}

TEST(Forest, AdaptedIsTheAdaptAsAForestOfItsOwn3D) {
  adaptedEqualsAdapt<3>({{1, 2, 1}}, {{false, true, true}});
}

TEST(Forest, RejectsBadArguments) {
  EXPECT_THROW(Forest<2>(MPI_COMM_WORLD, {{0, 1}}, {{false, false}}, 0), std::invalid_argument);
  EXPECT_THROW(Forest<2>(MPI_COMM_WORLD, {{1, 1}}, {{false, false}}, 99), std::invalid_argument);
  Forest<2> forest(MPI_COMM_WORLD, {{1, 1}}, {{false, false}}, 1);
  std::vector<AdaptFlag> tooFew(3, AdaptFlag::Keep);
  EXPECT_THROW(forest.adapt(tooFew, 0, 2), std::invalid_argument);
}

} // namespace
} // namespace tessera::amr
