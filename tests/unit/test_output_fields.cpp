// Output fields (output.fields): which names a PDE's output takes, and the values of the derived
// quantities against their definitions, evaluated here from the test's own data: Mach number,
// sound speed, temperature and entropy of one state; vorticity and the density gradient of linear
// fields, which central differences reproduce exactly.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/output_fields.hpp"
#include "io/patch_output.hpp"
#include "physics/advection/advection.hpp"

namespace tessera::io {
namespace {

std::vector<std::string> namesOf(const std::vector<OutputField>& fields) {
  std::vector<std::string> names;
  for (const OutputField& field : fields)
    names.push_back(field.name);
  return names;
}

TEST(OutputFields, GroupsExpandInOrderAndEachFieldOnce) {
  using Names = std::vector<std::string>;
  EXPECT_EQ(namesOf(selectOutputFields<Euler<2>>({"primitive"}, true)),
            (Names{"density", "velocity", "pressure"}));
  EXPECT_EQ(namesOf(selectOutputFields<Euler<3>>({"conserved", "primitive"}, true)),
            (Names{"density", "momentum", "energy", "velocity", "pressure"}));
  EXPECT_EQ(namesOf(selectOutputFields<Euler<2>>({"mach", "primitive", "density"}, true)),
            (Names{"mach", "density", "velocity", "pressure"}));
  // Vectors are 3-vectors in 2D as in 3D; 2D vorticity is one value, 3D vorticity a vector.
  EXPECT_EQ(selectOutputFields<Euler<2>>({"velocity"}, true)[0].components, 3);
  EXPECT_EQ(selectOutputFields<Euler<2>>({"vorticity"}, true)[0].components, 1);
  EXPECT_EQ(selectOutputFields<Euler<3>>({"vorticity"}, true)[0].components, 3);
}

TEST(OutputFields, UnknownNamesAndFieldsThatNeedNeighboursAreRefused) {
  EXPECT_THROW(selectOutputFields<Euler<2>>({"vorticty"}, true), std::invalid_argument);
  // Without neighbour cells (unstructured output) there is no vorticity or schlieren.
  EXPECT_THROW(selectOutputFields<Euler<3>>({"vorticity"}, false), std::invalid_argument);
  EXPECT_THROW(selectOutputFields<Euler<3>>({"schlieren"}, false), std::invalid_argument);
  // A system that is not a gas has its variables only.
  const std::vector<std::string> advection = outputFieldChoices<Advection<2>>(true);
  EXPECT_EQ(std::count(advection.begin(), advection.end(), "mach"), 0);
  EXPECT_THROW(selectOutputFields<Advection<2>>({"temperature"}, true), std::invalid_argument);
}

TEST(OutputFields, PointwiseQuantitiesFollowTheirDefinitions) {
  Euler<2> gas;
  gas.gamma = 1.4;
  const double rho = 2.0, u = 3.0, v = -4.0, p = 5.0, R = 287.0;
  const Euler<2>::State w{rho, u, v, p};
  const Euler<2>::State q = gas.toConserved(w);
  OutputFields output{selectOutputFields<Euler<2>>(
                          {"mach", "sound_speed", "temperature", "entropy", "momentum"}, true),
                      R};
  const double c = std::sqrt(1.4 * 5.0 / 2.0);
  const double expected[] = {5.0 / c, c, 5.0 / (2.0 * 287.0),
                             287.0 / 0.4 * std::log(5.0 / std::pow(2.0, 1.4))};
  for (int f = 0; f < 4; ++f) {
    double value = 0.0;
    pointwiseValues(gas, output.fields[std::size_t(f)], q, gas.toPrimitive(q), R, &value);
    EXPECT_NEAR(value, expected[f], 1e-13 * std::fabs(expected[f])) << output.fields[f].name;
  }
  double momentum[3] = {1.0, 1.0, 1.0};
  pointwiseValues(gas, output.fields[4], q, gas.toPrimitive(q), R, momentum);
  EXPECT_DOUBLE_EQ(momentum[0], rho * u);
  EXPECT_DOUBLE_EQ(momentum[1], rho * v);
  EXPECT_EQ(momentum[2], 0.0);
}

// Fills every cell of a store, halos included, with the primitive state prim(x) at its centre.
template <int Dim, class Primitive>
void fillWith(const Euler<Dim>& gas, PatchStore<Dim>& store,
              const std::vector<PatchGeometry<Dim>>& geometry, Primitive prim) {
  const auto& layout = store.layout();
  const int h = layout.halo, n = layout.cellsPerAxis;
  const int extent = n + 2 * h;
  int total = 1;
  for (int a = 0; a < Dim; ++a)
    total *= extent;
  for (int p = 0; p < store.numPatches(); ++p)
    for (int m = 0; m < total; ++m) {
      CellIndex<Dim> c{};
      Vec<double, Dim> x{};
      int rest = m;
      for (int a = 0; a < Dim; ++a) {
        c[a] = rest % extent - h;
        rest /= extent;
        x[a] = geometry[std::size_t(p)].cellCenter(a, c[a]);
      }
      const auto q = gas.toConserved(prim(x));
      for (int v = 0; v < Euler<Dim>::kNumVars; ++v)
        store.at(p, v, c) = q[v];
    }
}

TEST(OutputFields, VorticityAndDensityGradientOfLinearFieldsIn2D) {
  Euler<2> gas;
  PatchLayout<2> layout{6, 2, Euler<2>::kNumVars};
  // Two patches of different cell sizes: each difference uses its own patch's spacing.
  std::vector<PatchGeometry<2>> geometry{{{0.0, 0.0}, {0.1, 0.1}}, {{0.6, 0.0}, {0.05, 0.05}}};
  PatchStore<2> store(layout, 2, MemorySpace::Host);
  // u = (0.3 + 2x - 5y, -1 + 7x + y): curl u = 7 - (-5) = 12; rho = 1 + 0.5x + 0.25y.
  fillWith(gas, store, geometry, [](const Vec<double, 2>& x) {
    return Euler<2>::State{1.0 + 0.5 * x[0] + 0.25 * x[1], 0.3 + 2.0 * x[0] - 5.0 * x[1],
                           -1.0 + 7.0 * x[0] + x[1], 2.0};
  });
  const auto fields =
      cellFields(gas, store, std::span<const PatchGeometry<2>>(geometry),
                 OutputFields{selectOutputFields<Euler<2>>({"vorticity", "schlieren"}, true)});
  ASSERT_EQ(fields.size(), 2u);
  ASSERT_EQ(fields[0].values.size(), 72u);
  for (std::size_t c = 0; c < 72; ++c) {
    EXPECT_NEAR(fields[0].values[c], 12.0, 1e-11) << c;
    EXPECT_NEAR(fields[1].values[c], std::hypot(0.5, 0.25), 1e-12) << c;
  }
}

TEST(OutputFields, VorticityVectorOfALinearFieldIn3D) {
  Euler<3> gas;
  PatchLayout<3> layout{4, 1, Euler<3>::kNumVars};
  std::vector<PatchGeometry<3>> geometry{{{0.0, 0.0, 0.0}, {0.25, 0.25, 0.25}}};
  PatchStore<3> store(layout, 1, MemorySpace::Host);
  // u = w x r + shear (a solid rotation with w = (1, -2, 3), plus u_x = 4z): curl = 2w + (0, 4, 0).
  fillWith(gas, store, geometry, [](const Vec<double, 3>& r) {
    const double w[3] = {1.0, -2.0, 3.0};
    return Euler<3>::State{1.0, w[1] * r[2] - w[2] * r[1] + 4.0 * r[2], w[2] * r[0] - w[0] * r[2],
                           w[0] * r[1] - w[1] * r[0], 1.0};
  });
  const auto fields = cellFields(gas, store, std::span<const PatchGeometry<3>>(geometry),
                                 OutputFields{selectOutputFields<Euler<3>>({"vorticity"}, true)});
  ASSERT_EQ(fields[0].values.size(), 3u * 64u);
  const double expected[3] = {2.0, 0.0, 6.0};
  for (std::size_t c = 0; c < 64; ++c)
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(fields[0].values[3 * c + std::size_t(a)], expected[a], 1e-12) << c;
}

} // namespace
} // namespace tessera::io
