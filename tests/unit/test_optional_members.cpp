// The optional members of a system (physics/optional_members.hpp): found only with the names and
// signatures Tessera looks for, so that `tessera info` can say what runs; a system that declares
// the members it means to provide (kOptionalMembers) is told at compile time when one is not
// found; and what is not found really falls back (the HLL wave speeds below).
#include <array>
#include <gtest/gtest.h>
#include <string_view>
#include <utility>

#include "numerics/flux/wave_speeds.hpp"
#include "physics/advection/advection.hpp"
#include "physics/euler/euler.hpp"
#include "physics/optional_members.hpp"

namespace tessera {
namespace {

// A scalar carried at speed 2 with no optional member.
struct Bare {
  static constexpr int kDim = 2;
  static constexpr int kNumVars = 1;
  using State = Vec<double, 1>;
  State flux(const State& q, int) const { return {{2.0 * q[0]}}; }
  double maxEigenvalue(const State&, int) const { return 2.0; }
  State toPrimitive(const State& q) const { return q; }
  State toConserved(const State& w) const { return w; }
  static constexpr double reflectionParity(int, int) { return 1.0; }
  static constexpr std::array<std::string_view, 1> conservedNames() { return {"q"}; }
  static constexpr std::array<std::string_view, 1> primitiveNames() { return {"q"}; }
};
static_assert(ConservationLaw<Bare>);

// The wave speeds a user meant to give, under a misspelled name.
struct Misspelled : Bare {
  static constexpr std::array<std::string_view, 1> kOptionalMembers{"waveSpeeds"};
  WaveSpeeds waveSpeed(const State&, int) const { return {0.0, 2.0}; }
};

// The wave speeds with the right name and another return type, and admissible returning int.
struct OtherSignatures : Bare {
  std::pair<double, double> waveSpeeds(const State&, int) const { return {0.0, 2.0}; }
  int admissible(const State&) const { return 1; }
};

// The wave speeds as Tessera looks for them, declared.
struct Declared : Bare {
  static constexpr std::array<std::string_view, 1> kOptionalMembers{"waveSpeeds"};
  WaveSpeeds waveSpeeds(const State&, int) const { return {0.0, 2.0}; }
};

// A name that is no optional member of any system.
struct UnknownName : Declared {
  static constexpr std::array<std::string_view, 2> kOptionalMembers{"waveSpeeds", "sourceTerms"};
};

template <class P>
int providedCount() {
  int n = 0;
  for (const OptionalMember& m : optionalMembers<P>())
    n += m.provided;
  return n;
}

TEST(OptionalMembers, EulerProvidesAllAndAdvectionItsWaveSpeeds) {
  EXPECT_EQ(providedCount<Euler<3>>(), 7);
  EXPECT_EQ(providedCount<Euler<2>>(), 7);
  EXPECT_EQ(providedCount<Advection<2>>(), 1);
  EXPECT_TRUE(optionalMembers<Advection<3>>()[0].provided);
  EXPECT_EQ(optionalMembers<Advection<3>>()[0].name, "waveSpeeds");
  EXPECT_TRUE(declaredOptionalMembersProvided<Euler<3>>());
  EXPECT_TRUE(declaredOptionalMembersProvided<Advection<2>>());
}

// Euler's source is gravity's, on only where a run gives it; advection has none.
TEST(OptionalMembers, ASourcePassRunsWhereTheSystemsSourceIsOn) {
  Euler<2> gas;
  EXPECT_FALSE(sourceActive(gas));
  gas.gravity = {{0.0, -9.81}};
  EXPECT_TRUE(sourceActive(gas));
  const Euler<2>::State s = gas.source(gas.toConserved({{2.0, 3.0, 1.0, 1.0}}), {{0.0, 0.0}}, 0.0);
  EXPECT_EQ(s[0], 0.0);
  EXPECT_EQ(s[1], 0.0);
  EXPECT_DOUBLE_EQ(s[2], 2.0 * -9.81);       // rho g
  EXPECT_DOUBLE_EQ(s[3], 2.0 * 1.0 * -9.81); // rho u.g
  EXPECT_FALSE(sourceActive(Advection<2>{}));
}

TEST(OptionalMembers, AMisspelledOrOtherSignatureIsNotFoundAndFallsBack) {
  EXPECT_EQ(providedCount<Bare>(), 0);
  EXPECT_EQ(providedCount<Misspelled>(), 0);
  EXPECT_EQ(providedCount<OtherSignatures>(), 0);
  EXPECT_EQ(providedCount<Declared>(), 1);
  // HLLE's speeds: the fallback's -+ maxEigenvalue where the member is not found.
  const Vec<double, 1> q{{1.0}};
  EXPECT_EQ(waveSpeedsOf(Misspelled{}, q, 0).slowest, -2.0);
  EXPECT_EQ(waveSpeedsOf(OtherSignatures{}, q, 0).slowest, -2.0);
  EXPECT_EQ(waveSpeedsOf(Declared{}, q, 0).slowest, 0.0);
}

TEST(OptionalMembers, ADeclaredMemberThatIsNotFoundFailsTheCheck) {
  EXPECT_FALSE(declaredOptionalMembersProvided<Misspelled>());
  EXPECT_FALSE(declaredOptionalMembersProvided<UnknownName>());
  EXPECT_TRUE(declaredOptionalMembersProvided<Declared>());
  EXPECT_TRUE(declaredOptionalMembersProvided<Bare>()); // declares nothing
}

} // namespace
} // namespace tessera
