// The tessera program given the inputs a malformed-case harness and users found (issue 46): each
// stops before the first step, with the exit code of README's table and a message that names the
// source, the key and the value, quoted at most a few hundred characters.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

#include "tests/support/tessera_cli_fixture.hpp"

namespace {

using namespace tessera::test;

// The Sedov blast's centre outside the domain: no cell would take its energy. `info` refuses it
// as `run` does.
TEST_F(TesseraCli, SedovCentreOutsideTheDomain) {
  expectError(sedovCase(), "--set 'initial.center=[5.0,5.0]'", 7,
              {"--set initial.center = [5.0, 5.0]", "must lie in the domain"});
  const Result info =
      run("info " + writeCase(sedovCase()).string() + " --set 'initial.center=[5.0,5.0]'");
  EXPECT_EQ(info.exitCode, 7) << info.output;
}

// Names with control characters, a NUL among them, are refused whole, and quoted escaped.
TEST_F(TesseraCli, OutputNamesWithControlCharacters) {
  expectError(sodCase(), "--set 'output.name=\"\\u0000x\"'", 7,
              {"output.name = \"\\u0000x\"", "no control characters"});
  expectError(sodCase(), "--set 'output.directory=\"\"'", 7,
              {"--set output.directory = \"\"", "must name a folder"});
  expectError(sodCase(), "--set 'checkpoint.directory=\"\"'", 7,
              {"--set checkpoint.directory = \"\"", "must name a folder"});
}

// A file that never ends is refused at the case files' bound, not read until memory runs out.
TEST_F(TesseraCli, CaseFileLargerThanAnyCase) {
  const Result r = run("run /dev/zero");
  EXPECT_EQ(r.exitCode, 3) << r.output;
  EXPECT_NE(r.output.find("/dev/zero: larger than 64 MiB"), std::string::npos) << r.output;
}

// A section given a value, or a value where a section belongs: the wrong type (6), naming it.
TEST_F(TesseraCli, SectionsOfTheWrongType) {
  expectError(sodCase(), "--set time=1", 6, {"--set time = 1", "expected a table"});
  expectError(sodCase(), "--set initial.left=3", 6, {"--set initial.left = 3", "expected a table"});
  std::string tables = sodCase();
  tables.replace(tables.find("[mesh]"), 6, "[[mesh]]");
  expectError(tables, "", 6, {"case.toml:1: mesh = [{...}]", "expected a table"});
  expectError(sodCase(), "--set .=1", 4, {"--set .=1: expected key=value"});
}

// An empty table of a section the case reads is harmless; one this case does not read is an
// unknown key shown as {}.
TEST_F(TesseraCli, EmptySections) {
  const Result r =
      run("run " + writeCase(sodCase() + "[amr]\n").string() + " --set 'output.directory=\"ok\"'");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  expectError(unstructuredCase() + "[amr]\n", "", 5, {"amr = {}: unknown key"});
}

// A message quotes a long value's beginning and says how long it is.
TEST_F(TesseraCli, LongValuesAreQuotedInPart) {
  const std::string name(100000, 'n');
  const Result r =
      run("run " + writeCase(sodCase()).string() + " --set 'output.name=\"" + name + "/\"'");
  EXPECT_EQ(r.exitCode, 7) << r.output.substr(0, 2000);
  EXPECT_NE(r.output.find("... (100001 characters)"), std::string::npos)
      << r.output.substr(0, 2000);
  EXPECT_LT(r.output.size(), 2000u);

  // One more output time than a run may list.
  std::string times = "[";
  for (int i = 1; i <= 100001; ++i)
    times += (i > 1 ? "," : "") + std::to_string(i);
  std::string text = sodCase();
  text.replace(text.find("interval = 0.05"), 15, "times = " + times + "]");
  text.replace(text.find("end_time = 0.1"), 14, "end_time = 1e6");
  const Result many = run("run " + writeCase(text).string());
  EXPECT_EQ(many.exitCode, 7) << many.output.substr(0, 2000);
  EXPECT_NE(many.output.find("... (100001 entries)]"), std::string::npos)
      << many.output.substr(0, 2000);
  EXPECT_LT(many.output.size(), 2000u);
}

// checkpoint.directory is checked before the first step, as output.directory is: a folder that
// cannot be made or written, or a file, stops the run at once (exit code 10), naming the key.
TEST_F(TesseraCli, CheckpointFolderCheckedBeforeTheFirstStep) {
  std::ofstream(dir_ / "a_file") << "in the way\n";
  for (const std::string& folder : {std::string("/proc/tessera_x"), std::string("a_file")}) {
    const Result r = run("run " + writeCase(sodCase()).string() +
                         " --set 'checkpoint.directory=\"" + folder + "\"'");
    EXPECT_EQ(r.exitCode, 10) << r.output;
    EXPECT_NE(r.output.find("checkpoint.directory = \"" + folder + "\": cannot write checkpoints"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("finished at step"), std::string::npos) << r.output;
    EXPECT_EQ(fileText(dir_ / "output" / "case" / "log.jsonl").find("\"event\":\"step\""),
              std::string::npos);
  }
}

// checkpoint.at_end = false: a throw-away run writes no checkpoint at its end.
TEST_F(TesseraCli, NoCheckpointAtTheEndWhenAsked) {
  const Result r = run("run " + writeCase(sodCase()).string() + " --set checkpoint.at_end=false");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const fs::path folder = dir_ / "output" / "case" / "checkpoints";
  EXPECT_TRUE(fs::is_directory(folder));
  EXPECT_TRUE(fs::is_empty(folder));
  const Result kept =
      run("run " + writeCase(sodCase()).string() + " --set 'output.directory=\"kept\"'");
  ASSERT_EQ(kept.exitCode, 0) << kept.output;
  EXPECT_FALSE(fs::is_empty(dir_ / "kept" / "checkpoints"));
}

// More MPI ranks than an unstructured mesh has cells: refused on every rank with one message
// naming the mesh's key, before the partition.
TEST_F(TesseraCli, MoreRanksThanCells) {
  std::string text = unstructuredCase();
  text.replace(text.find("cells = [20, 1, 1], shape = \"tetrahedra\""), 41,
               "cells = [1, 1, 1], shape = \"hexahedra\"");
  const Result r =
      run("run " + writeCase(text).string(),
          "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 "
          "timeout 120 '" TESSERA_MPIEXEC "' -n 2 --oversubscribe");
  EXPECT_EQ(r.exitCode, 8) << r.output;
  EXPECT_NE(r.output.find("mesh.box.cells = [1, 1, 1]: gives 1 cells for 2 MPI ranks"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("partitionCells"), std::string::npos) << r.output;
}

} // namespace

namespace {

using namespace tessera::test;

// implicit.linear_solver = "gmres" through the tessera program: the bump example converges (its
// sweeps take 214 iterations to 8 orders with the defaults) from a first-order start unless the
// case sets its own, and on two ranks in the same number
// of iterations give or take one (the ranks sum the residual norm and the Krylov vectors' dot
// products in another order) to the same lift to the digits printed.
TEST_F(TesseraCli, NewtonKrylovThroughTheProgram) {
  const std::string bump = "'" TESSERA_SOURCE_DIR "/examples/unstructured/bump_implicit.toml'";
  const std::string settings = " --set 'implicit.linear_solver=\"gmres\"' --set "
                               "checkpoint.at_end=false --set output.enabled=false";
  const Result one = run("run " + bump + settings);
  const Result two =
      run("run " + bump + settings,
          "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
          "OMP_NUM_THREADS=1 timeout 120 '" TESSERA_MPIEXEC "' -n 2 --oversubscribe");
  const auto iterations = [](const Result& r) {
    const std::size_t at = r.output.find("finished at iteration ");
    return at == std::string::npos ? -1 : std::stoi(r.output.substr(at + 22));
  };
  const auto lift = [](const Result& r) {
    const std::size_t at = r.output.find("coefficients     lift ");
    return at == std::string::npos ? std::string() : r.output.substr(at, 32);
  };
  ASSERT_EQ(one.exitCode, 0) << one.output;
  ASSERT_EQ(two.exitCode, 0) << two.output;
  EXPECT_NE(one.output.find("Newton-Krylov: GMRES of 20 vectors preconditioned by 15 sweeps"),
            std::string::npos)
      << one.output;
  // Newton-Krylov's default start, and a case's own start in its place.
  EXPECT_NE(one.output.find("first order to a residual drop of 0.001"), std::string::npos)
      << one.output;
  const Result counted = run("run " + bump + settings + " --set implicit.first_order_iterations=3");
  ASSERT_EQ(counted.exitCode, 0) << counted.output;
  EXPECT_NE(counted.output.find("first order for 3 iterations\n"), std::string::npos)
      << counted.output;
  EXPECT_GT(iterations(one), 0) << one.output;
  EXPECT_LT(iterations(one), 100) << one.output;
  EXPECT_LE(std::abs(iterations(two) - iterations(one)), 1) << one.output << two.output;
  EXPECT_FALSE(lift(one).empty()) << one.output;
  EXPECT_EQ(lift(two), lift(one)) << one.output << two.output;
}

} // namespace
