// Face links (patches/face_links.hpp) on adapted forests: what a fused update reads for each face
// halo cell (the linked neighbour's cell, or the halo cell the rest of the plan fills) is exactly
// what the whole plan writes there; the faces linked are those with a same-level neighbour that
// is not a periodic image, found from the leaves' geometry; the plan left fills faces only; no
// operation is lost or doubled; the x faces between levels get x-face buffer slots; a HaloPlanner
// builds both parts directly, equal to the split.
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

#include "amr/forest.hpp"
#include "amr/forest_patches.hpp"
#include "patches/face_links.hpp"
#include "patches/x_face_buffer.hpp"
#include "tests/support/leaf_level_at.hpp"

namespace tessera::amr {
namespace {

template <int Dim>
void checkLinksReadWhatTheFillWrites(Vec<int, Dim> trees, int halo, unsigned seed) {
  Vec<bool, Dim> periodic{};
  periodic[0] = true;
  Forest<Dim> forest(MPI_COMM_WORLD, trees, periodic, 1);
  std::mt19937 random(seed);
  for (int round = 0; round < 2; ++round) {
    std::vector<AdaptFlag> flags(forest.leaves().size());
    for (auto& f : flags)
      f = random() % 3 == 0 ? AdaptFlag::Refine : AdaptFlag::Keep;
    forest.adapt(flags, 0, 3);
  }
  const int nv = 2;
  const PatchLayout<Dim> layout{4, halo, nv};
  DomainBoundary<Dim> boundary = DomainBoundary<Dim>::all(BoundaryKind::Reflecting);
  boundary.kind[0] = {BoundaryKind::Periodic, BoundaryKind::Periodic};
  boundary.kind[1][1] = BoundaryKind::Outflow;
  boundary.kind[Dim - 1][0] = BoundaryKind::Inflow; // in 2D on y, beside y's outflow
  boundary.inflowState[Dim - 1][0] = {1.0, 0.5};
  Vec<double, Dim> upper;
  for (int a = 0; a < Dim; ++a)
    upper[a] = trees[a];
  const auto geometry = leafGeometry(forest, layout, Vec<double, Dim>::filled(0.0), upper);
  const int numPatches = int(geometry.size());
  const HaloPlan<Dim> whole = forestHaloPlan(forest, layout, boundary);
  HaloPlan<Dim> rest = whole;
  FaceLinks<Dim> links = unlinkedFaces<Dim>(numPatches);
  linkSameLevelFaces(rest, layout, links);
  ASSERT_EQ(rest.ops.size() + links.unreadOps.ops.size(), whole.ops.size());
  for (const HaloOp<Dim>& op : rest.ops) { // no edge or corner is left to fill
    int outside = 0;
    for (int a = 0; a < Dim; ++a)
      outside += op.lo[a] < 0 || op.hi[a] > layout.cellsPerAxis;
    ASSERT_EQ(outside, 1) << "operation for patch " << op.dstPatch;
  }

  ReflectionParity parity(Dim * nv, 1.0);
  parity[nv + 1] = -1.0; // variable 1 changes sign across the y walls
  std::vector<double> interior(numPatches * layout.patchStride(), std::nan(""));
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (int p = 0; p < numPatches; ++p)
    for (int v = 0; v < nv; ++v)
      for (int n = 0; n < layout.interiorCells(); ++n)
        interior[layout.index(p, v, layout.interiorCell(n))] = value(random);
  std::vector<double> filled = interior, partly = interior;
  fillHalos(whole, layout, parity, filled.data());
  fillHalos(rest, layout, parity, partly.data());

  const auto levelAt = [&](const Vec<double, Dim>& x) {
    return test::leafLevelAt<Dim>(forest, geometry, layout, x);
  };
  const int n = layout.cellsPerAxis;
  int linked = 0, unlinked = 0;
  for (int p = 0; p < numPatches; ++p)
    for (int face = 0; face < 2 * Dim; ++face) {
      const int axis = face / 2, side = face % 2;
      // Just across the middle of the face: a same-level leaf there, inside the domain, is the
      // neighbour to link.
      Vec<double, Dim> across;
      for (int a = 0; a < Dim; ++a)
        across[a] = geometry[p].origin[a] + 0.5 * n * geometry[p].dx[a];
      across[axis] = geometry[p].origin[axis] + (side == 0 ? -0.5 : n + 0.5) * geometry[p].dx[axis];
      const bool expectLinked = levelAt(across) == forest.leaves()[p].level;
      const int neighbour = links.neighbour[std::size_t(p * 2 * Dim + face)];
      EXPECT_EQ(neighbour >= 0, expectLinked) << "patch " << p << " face " << face;
      (neighbour >= 0 ? linked : unlinked) += 1;
      const std::ptrdiff_t shift = faceLinkShift(layout, links.neighbour.data(), p, face);
      for (int m = 0; m < layout.interiorCells() / n * halo; ++m) {
        CellIndex<Dim> c;
        for (int a = 0, r = m; a < Dim; ++a) {
          const int extent = a == axis ? halo : n;
          c[a] = r % extent;
          r /= extent;
        }
        c[axis] = side == 0 ? -1 - c[axis] : n + c[axis];
        for (int v = 0; v < nv; ++v) {
          const std::size_t at = layout.index(p, v, c);
          const double read = partly[std::size_t(std::ptrdiff_t(at) + shift)];
          ASSERT_EQ(read, filled[at]) << "patch " << p << " face " << face << " variable " << v;
        }
      }
    }
  EXPECT_GT(linked, 0);
  EXPECT_GT(unlinked, 0);

  // The x-face buffer's slots (patches/x_face_buffer.hpp) of the plan left: one for each x face
  // with a neighbour on another level inside the domain (across the periodic boundary a hook may
  // take the halo over), where the halo is one cell deep; an operation's slot is its face's.
  XFaceSlots<Dim> slots(numPatches);
  const std::vector<int> opSlots = slots.assign(rest, layout);
  int expectedSlots = 0;
  for (int p = 0; p < numPatches; ++p)
    for (int side = 0; side < 2; ++side) {
      // Off the face's middle, where finer neighbours meet.
      Vec<double, Dim> across;
      for (int a = 0; a < Dim; ++a)
        across[a] = geometry[p].origin[a] + 0.3 * n * geometry[p].dx[a];
      across[0] = geometry[p].origin[0] + (side == 0 ? -0.5 : n + 0.5) * geometry[p].dx[0];
      const int level = levelAt(across);
      const bool expectSlot = halo == 1 && level >= 0 && level != forest.leaves()[p].level;
      EXPECT_EQ(slots.ofFace()[std::size_t(2 * p + side)] >= 0, expectSlot)
          << "patch " << p << " side " << side;
      expectedSlots += expectSlot;
    }
  EXPECT_EQ(slots.count(), expectedSlots);
  EXPECT_TRUE(halo != 1 || expectedSlots > 0) << "no x face between levels";
  for (std::size_t o = 0; o < rest.ops.size(); ++o) {
    const HaloOp<Dim>& op = rest.ops[o];
    const bool xFace = op.lo[0] < 0 || op.hi[0] > n;
    const int face = 2 * op.dstPatch + (op.lo[0] < 0 ? 0 : 1);
    EXPECT_EQ(opSlots[o], xFace ? slots.ofFace()[std::size_t(face)] : -1) << "operation " << o;
  }

  // The planner builds the same two parts directly, in the same order.
  const auto planner = forestHaloPlanner(forest, layout, boundary);
  std::vector<int> neighbour;
  const HaloPlan<Dim> kept = planner->unlinkedFaces(neighbour);
  EXPECT_EQ(neighbour, links.neighbour);
  EXPECT_TRUE(kept.ops == rest.ops);
  EXPECT_TRUE(planner->unread().ops == links.unreadOps.ops);
  EXPECT_EQ(kept.inflowStates, whole.inflowStates);
}

TEST(FaceLinks, ReadWhatTheWholeFillWrites2D) {
  checkLinksReadWhatTheFillWrites<2>({{3, 2}}, 1, 7u);
}
TEST(FaceLinks, ReadWhatTheWholeFillWrites2DHaloTwo) {
  checkLinksReadWhatTheFillWrites<2>({{2, 3}}, 2, 9u);
}
TEST(FaceLinks, ReadWhatTheWholeFillWrites3DHaloTwo) {
  checkLinksReadWhatTheFillWrites<3>({{2, 2, 1}}, 2, 4u);
}

} // namespace
} // namespace tessera::amr
