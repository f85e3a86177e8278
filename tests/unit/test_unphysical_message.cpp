// The unphysical-state errors name the cell whose own state fails and the quantity that does,
// with its value (physics/state_check.hpp). On the unstructured mesh a cell's step bound also
// fails where only a neighbour's state does, so the bound alone would blame a sound cell beside
// the bad one (it did: "negative density or pressure" above a positive, finite density and
// pressure).
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <string>

#include "engine/unstructured/box_mesh.hpp"
#include "physics/advection/advection.hpp"
#include "physics/state_check.hpp"
#include "solvers/unphysical_state.hpp"
#include "solvers/unstructured/unstructured_euler.hpp"
#include "tests/support/unphysical_patch_case.hpp"

namespace tessera {
namespace {

const Euler<3> kPde{};

// The message of stableDt on a 3 x 3 x 3 box of tetrahedra at rest where only the highest-
// numbered cell holds `bad` (its lower-numbered face neighbours' bounds fail with it).
std::string messageFor(const Euler<3>::State& bad) {
  unstructured::BoxMeshSpec spec;
  spec.nx = spec.ny = spec.nz = 3;
  spec.cells = unstructured::BoxCells::Tetrahedra;
  UnstructuredBoundary walls;
  for (int tag = 1; tag <= 6; ++tag)
    walls.kindOfTag[tag] = FaceKind::SlipWall;
  UnstructuredEuler solver(kPde, unstructured::buildMesh(unstructured::boxMesh(spec)), walls, 0.5);
  const Vec<double, 3> last = [&] {
    const auto& x = solver.mesh().cellCentroid.back();
    return Vec<double, 3>{{x[0], x[1], x[2]}};
  }();
  solver.initialise([&](const Vec<double, 3>& x) {
    return x == last ? bad : kPde.toConserved({{1.0, 0.0, 0.0, 0.0, 1.0}});
  });
  try {
    solver.stableDt();
  } catch (const UnphysicalStateError& e) {
    return e.what();
  }
  return "no error";
}

std::string lastCell() {
  return "cell " + std::to_string(3 * 3 * 3 * 6 - 1) + " at (";
}

TEST(UnphysicalMessage, NamesANegativePressureAndItsCell) {
  const std::string m = messageFor(kPde.toConserved({{1.0, 0.0, 0.0, 0.0, -0.25}}));
  EXPECT_NE(m.find(lastCell()), std::string::npos) << m;
  EXPECT_NE(m.find("pressure -0.25"), std::string::npos) << m;
}

TEST(UnphysicalMessage, NamesANegativeDensity) {
  const std::string m = messageFor({{-0.5, 0.0, 0.0, 0.0, 2.0}});
  EXPECT_NE(m.find(lastCell()), std::string::npos) << m;
  EXPECT_NE(m.find("density -0.5"), std::string::npos) << m;
}

TEST(UnphysicalMessage, NamesTheVariableThatIsNotFinite) {
  const std::string m =
      messageFor({{1.0, 0.0, std::numeric_limits<double>::quiet_NaN(), 0.0, 2.0}});
  EXPECT_NE(m.find(lastCell()), std::string::npos) << m;
  EXPECT_NE(m.find("momentum_y nan"), std::string::npos) << m;
}

// The patch solver names the first cell whose own state fails, its centre and the value (the
// device's twin in test_amr_device.cpp).
TEST(UnphysicalMessage, PatchSolverNamesTheCellItsCentreAndTheValue) {
  const std::string m = test::unphysicalPatchMessage(MemorySpace::Host);
  EXPECT_NE(m.find(test::kUnphysicalPatchMessage), std::string::npos) << m;
}

// A system that declares no positive variables is judged by finiteness and its eigenvalues only,
// and the message names the failing quantity by the system's own names.
TEST(UnphysicalMessage, ASystemWithoutPositiveVariablesIsJudgedByFinitenessAndEigenvalues) {
  Advection<2> pde;
  EXPECT_EQ(unphysicalQuantity(pde, {{-3.0}}), "") << "a negative scalar is physical";
  EXPECT_EQ(unphysicalQuantity(pde, {{std::nan("")}}), "scalar nan");
  pde.velocity = {{1.0, std::numeric_limits<double>::infinity()}};
  EXPECT_EQ(unphysicalQuantity(pde, {{1.0}}), "largest eigenvalue along axis 1 inf");
}

} // namespace
} // namespace tessera
