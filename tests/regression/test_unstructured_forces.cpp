// Forces and moments on the walls of an unstructured case (UnstructuredEuler::wallForces) against
// what statics says without the solver: gas at rest at pressure p in a closed box pushes each side
// with p A along the side's outward normal, and the moment about a point c is (x_side - c) x p A n
// with x_side the side's centre, whatever the cells (a shuffled mix of all four shapes), the order
// of the scheme or the Riemann solver. And the coefficients' conventions: lift across the
// freestream, drag along it, the pitching moment nose-up positive.
#include <array>
#include <cmath>
#include <gtest/gtest.h>
#include <vector>

#include "solvers/unstructured/unstructured_euler.hpp"
#include "solvers/unstructured/wall_forces.hpp"
#include "tests/support/mixed_box_mesh.hpp"

namespace tessera {
namespace {

constexpr double kPressure = 2.5;

TEST(UnstructuredWallForces, GasAtRestPushesEachWallWithItsPressure) {
  const Euler<3> pde;
  UnstructuredBoundary walls;
  for (int tag = 1; tag <= 6; ++tag)
    walls.kindOfTag[tag] = FaceKind::SlipWall;
  // The box [0, 2] x [0, 1] x [0, 0.5]; tags xlo 1, xhi 2, ylo 3, yhi 4, zlo 5, zhi 6.
  const Vector3 hi{2.0, 1.0, 0.5};
  const Vector3 centre{0.3, 0.2, 0.1};
  UnstructuredScheme roe; // second order
  UnstructuredScheme hllc = roe;
  hllc.flux = UnstructuredFlux::Hllc;
  hllc.gradient = UnstructuredGradient::GreenGauss;
  for (const UnstructuredScheme& scheme : {UnstructuredScheme::firstOrderRusanov(), roe, hllc}) {
    UnstructuredEuler solver(pde, test::mixedBoxMesh({.lo = {0.0, 0.0, 0.0}, .hi = hi}), walls, 0.9,
                             MemorySpace::Host, scheme);
    solver.initialise([&](const Vec<double, 3>&) {
      return pde.toConserved({{1.3, 0.0, 0.0, 0.0, kPressure}});
    });
    const std::vector<TagForce> forces = solver.wallForces(centre);
    ASSERT_EQ(forces.size(), 6u);
    for (const TagForce& t : forces) {
      const std::size_t axis = std::size_t((t.tag - 1) / 2);
      const bool high = (t.tag - 1) % 2 == 1;
      Vector3 normal{}, side{hi[0] / 2, hi[1] / 2, hi[2] / 2};
      normal[axis] = high ? 1.0 : -1.0;
      side[axis] = high ? hi[axis] : 0.0;
      const double area = hi[0] * hi[1] * hi[2] / hi[axis];
      Vector3 force{}, arm{};
      for (std::size_t a = 0; a < 3; ++a) {
        force[a] = kPressure * area * normal[a];
        arm[a] = side[a] - centre[a];
      }
      const Vector3 moment = cross(arm, force);
      for (std::size_t a = 0; a < 3; ++a) {
        EXPECT_NEAR(t.force[a], force[a], 1e-13 * kPressure)
            << describe(scheme) << ", tag " << t.tag;
        EXPECT_NEAR(t.moment[a], moment[a], 1e-13 * kPressure)
            << describe(scheme) << ", tag " << t.tag;
      }
    }
  }
}

TEST(UnstructuredWallForces, CoefficientsFollowTheFreestream) {
  // A freestream at 30 degrees in the x-y plane, lift defaulting from +y; q A = 2 and L = 0.5.
  const double alpha = std::acos(-1.0) / 6.0;
  ForceReference ref;
  ref.drag = {std::cos(alpha), std::sin(alpha), 0.0};
  ref.lift = across({0.0, 1.0, 0.0}, ref.drag);
  EXPECT_NEAR(ref.lift[0], -std::sin(alpha), 1e-15);
  EXPECT_NEAR(ref.lift[1], std::cos(alpha), 1e-15);
  ref.dynamicPressure = 4.0;
  ref.area = 0.5;
  ref.length = 0.5;
  // 3 along the lift, 1 along the drag; a moment of -0.4 about z: nose up (clockwise, seen from
  // +z, for a flow along +x).
  Vector3 force{};
  for (std::size_t a = 0; a < 3; ++a)
    force[a] = 3.0 * ref.lift[a] + 1.0 * ref.drag[a];
  const ForceCoefficients c = coefficients(force, {0.0, 0.0, -0.4}, ref);
  EXPECT_NEAR(c.lift, 1.5, 1e-15);
  EXPECT_NEAR(c.drag, 0.5, 1e-15);
  EXPECT_NEAR(c.moment, 0.4, 1e-15);
}

} // namespace
} // namespace tessera
