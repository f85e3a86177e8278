// Boundary conditions of the unstructured Euler solver: the flux through one boundary face for
// each kind, and on whole meshes the faces' kinds from their tags, a freestream at rest in the
// farfield and the errors that name a tag without a condition.
#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/unstructured/box_mesh.hpp"
#include "solvers/unstructured/unstructured_euler.hpp"

namespace tessera {
namespace {

using State = Euler<3>::State;

// The flux contribution of one boundary face with area vector S, its owner (cell 0) in state q.
struct OneFace {
  std::vector<int> owner{0}, neighbour{-1};
  std::vector<double> area;
  std::vector<FaceKind> kind;
  State q;

  OneFace(FaceKind k, const Vec<double, 3>& s, const State& state)
      : area{s[0], s[1], s[2]}, kind{k}, q(state) {}

  State flux(const State& farfield = State::filled(0.0)) const {
    const EulerFaceFlux f{
        Euler<3>{}, {owner.data(), neighbour.data(), area.data(), kind.data()}, q.v, farfield};
    State toOwner, toNeighbour;
    f(0, toOwner.v, toNeighbour.v);
    return toOwner;
  }
};

const Vec<double, 3> kArea{{0.3, -0.4, 1.2}}; // |S| = 1.3
const State kInside = Euler<3>{}.toConserved({{1.4, 0.8, -0.5, 1.1, 2.0}});

TEST(UnstructuredBoundary, SlipWallPassesNoMassNoEnergyAndPushesAlongTheNormal) {
  const State F = OneFace(FaceKind::SlipWall, kArea, kInside).flux();
  // The flow into the wall is u.n = (0.24 + 0.2 + 1.32) / 1.3 = 1.354: strong, not grazing.
  const double scale = 1.3 * 10.0; // |S| times the size of the state's fluxes
  EXPECT_NEAR(F[0], 0.0, 1e-15 * scale);
  EXPECT_NEAR(F[4], 0.0, 1e-15 * scale);
  // Momentum only along S: its cross product with S vanishes.
  const double cross[3] = {F[2] * kArea[2] - F[3] * kArea[1], F[3] * kArea[0] - F[1] * kArea[2],
                           F[1] * kArea[1] - F[2] * kArea[0]};
  for (double c : cross)
    EXPECT_NEAR(c, 0.0, 1e-14 * scale);
  // The owner is pushed back, against S (the flux leaving it is along S, and it loses it).
  EXPECT_LT(F[1] * kArea[0] + F[2] * kArea[1] + F[3] * kArea[2], 0.0);
}

TEST(UnstructuredBoundary, SymmetryIsTheSlipWallsMirror) {
  EXPECT_EQ(OneFace(FaceKind::Symmetry, kArea, kInside).flux(),
            OneFace(FaceKind::SlipWall, kArea, kInside).flux());
}

TEST(UnstructuredBoundary, FarfieldAndOutflowWithTheInnerStateGiveThePhysicalFlux) {
  const Euler<3> pde;
  State physical = State::filled(0.0);
  for (int a = 0; a < 3; ++a)
    for (int v = 0; v < 5; ++v)
      physical[v] -= kArea[a] * pde.flux(kInside, a)[v]; // the owner loses it
  EXPECT_EQ(OneFace(FaceKind::Farfield, kArea, kInside).flux(kInside), physical);
  EXPECT_EQ(OneFace(FaceKind::Outflow, kArea, kInside).flux(), physical);
}

TEST(UnstructuredBoundary, FarfieldUsesTheGivenStateOutside) {
  const State outside = Euler<3>{}.toConserved({{0.5, 0.0, 0.0, 0.0, 0.3}});
  const State farfield = OneFace(FaceKind::Farfield, kArea, kInside).flux(outside);
  const State outflow = OneFace(FaceKind::Outflow, kArea, kInside).flux();
  EXPECT_GT(std::fabs(farfield[0] - outflow[0]), 0.1);
}

unstructured::Mesh tetBox() {
  unstructured::BoxMeshSpec spec;
  spec.nx = 3;
  spec.ny = 2;
  spec.nz = 2;
  spec.cells = unstructured::BoxCells::Tetrahedra;
  return unstructured::buildMesh(unstructured::boxMesh(spec));
}

TEST(UnstructuredBoundary, FarfieldWithTheFreestreamGivesZeroResidual) {
  const Euler<3> pde;
  const State rest = pde.toConserved({{1.0, 0.0, 0.0, 0.0, 1.0}});
  UnstructuredBoundary boundary;
  for (int tag = 1; tag <= 6; ++tag)
    boundary.kindOfTag[tag] = FaceKind::Farfield;
  boundary.farfield = rest;
  UnstructuredEuler solver(pde, tetBox(), boundary, 0.9);
  solver.initialise([&](const Vec<double, 3>&) { return rest; });
  // Fluxes of size p |S| ~ 0.1 per face: round-off of their sums is ~ 1e-17.
  for (double r : solver.residual())
    EXPECT_NEAR(r, 0.0, 1e-15);
}

TEST(UnstructuredBoundary, FacesTakeTheKindOfTheirTag) {
  const unstructured::Mesh mesh = tetBox();
  const std::map<int, FaceKind> kindOfTag{{1, FaceKind::Farfield}, {2, FaceKind::Outflow},
                                          {3, FaceKind::SlipWall}, {4, FaceKind::SlipWall},
                                          {5, FaceKind::Symmetry}, {6, FaceKind::Symmetry}};
  const std::vector<FaceKind> kinds = faceKinds(mesh, kindOfTag);
  for (int f = 0; f < mesh.numFaces(); ++f) {
    const int n = mesh.neighbour[std::size_t(f)];
    EXPECT_EQ(kinds[std::size_t(f)],
              n >= 0 ? FaceKind::Interior : kindOfTag.at(mesh.faceTag[std::size_t(f)]));
  }
}

TEST(UnstructuredBoundary, ATagWithoutAConditionIsNamed) {
  UnstructuredBoundary boundary;
  for (int tag : {1, 2, 4, 5, 6})
    boundary.kindOfTag[tag] = FaceKind::SlipWall;
  try {
    UnstructuredEuler(Euler<3>{}, tetBox(), boundary, 0.9);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("tag 3 (ylo)"), std::string::npos) << e.what();
  }
}

TEST(UnstructuredBoundary, AnUntaggedBoundaryFaceIsAnError) {
  unstructured::MeshDescription d = unstructured::boxMesh({});
  d.boundaryFaceNodes = {};
  d.boundaryTags.clear();
  UnstructuredBoundary boundary;
  boundary.kindOfTag[-1] = FaceKind::SlipWall; // -1 marks "untagged": no kind can be given to it
  try {
    UnstructuredEuler(Euler<3>{}, unstructured::buildMesh(d), boundary, 0.9);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("untagged"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace tessera
