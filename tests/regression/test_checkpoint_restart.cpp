// Checkpoint and restart of the tessera program, end to end: a run continued from a checkpoint
// ends bitwise where the uninterrupted run ends (state, mesh, output files and the .pvd series),
// from a checkpoint written right after a regrid and from one written between a regrid's flags
// and its adapt, on the host; on another rank count to
// 1e-13; SIGTERM and run.wall_limit stop a run with a complete checkpoint, one message, their exit
// codes and no temporary file; a damaged checkpoint or another case's is refused, naming the file
// and what is wrong, and nothing is overwritten.
#include <map>
#include <regex>
#include <string>

#include "tests/support/tessera_run_harness.hpp"

namespace {

using namespace tessera::testing;

class CheckpointRestart : public TesseraRunHarness {
protected:
  CheckpointRestart() : TesseraRunHarness("sedov.toml") {}

  // A small adaptive Sedov blast at second order: three levels, a regrid every 4 steps, output
  // every 0.01.
  std::string caseText() const override {
    return "[mesh]\ndimension = 2\ncells_per_patch = 8\npatches = [4, 4]\n"
           "[amr]\nmax_level = 2\nregrid_interval = 4\ncriterion = \"loehner\"\n"
           "variable = \"pressure\"\nrefine = 0.9\ncoarsen = 0.6\n"
           "[initial]\ntype = \"sedov\"\n[time]\nend_time = 0.04\n"
           "[output]\ninterval = 0.01\nprogress_every = 0\n";
  }

  // The patch count after each step, from the progress lines ("step 40 ... patches 112 ...").
  static std::map<long long, long long> patchesByStep(const std::string& output) {
    std::map<long long, long long> patches;
    const std::regex line(R"(step +(\d+) .* patches (\d+) )");
    for (auto it = std::sregex_iterator(output.begin(), output.end(), line);
         it != std::sregex_iterator(); ++it)
      patches[std::stoll((*it)[1])] = std::stoll((*it)[2]);
    return patches;
  }

  // The uninterrupted run, then one restarted from the checkpoint written after step `at`: the
  // final state, the mesh and every output file are bitwise the same.
  void expectContinuesBitwiseFrom(int at, bool flagsPending) {
    const Result whole = run("whole", "--set output.progress_every=1");
    ASSERT_EQ(whole.exitCode, 0) << whole.output;
    const std::string every = std::to_string(at);
    const Result first =
        run("part", "--set checkpoint.every_steps=" + every + " --set checkpoint.keep=100");
    ASSERT_EQ(first.exitCode, 0) << first.output;
    const fs::path end = lastCheckpoint("whole");
    const fs::path from = checkpointOf("part", at);
    ASSERT_TRUE(fs::exists(from / "checkpoint.toml"));
    EXPECT_EQ(fs::exists(from / "regrid_flags.bin"), flagsPending);
    EXPECT_EQ(fileText(from / "checkpoint.toml").find("regrid_flags.bin") != std::string::npos,
              flagsPending);
    // The second part must write the end again: remove what the first part wrote after `at`.
    for (const auto& entry : fs::directory_iterator(dir_ / "part" / "checkpoints"))
      if (entry.path() != from)
        fs::remove_all(entry.path());
    const Result second = run("part", "--restart part/checkpoints/" + from.filename().string() +
                                          " --set output.progress_every=1");
    ASSERT_EQ(second.exitCode, 0) << second.output;
    EXPECT_NE(second.output.find("continuing from"), std::string::npos) << second.output;
    // Step by step the same mesh (a regrid ahead of the blast can change no value: the patch
    // counts show it).
    const std::map<long long, long long> patches = patchesByStep(second.output);
    ASSERT_FALSE(patches.empty()) << second.output;
    EXPECT_EQ(patches.begin()->first, at + 1);
    const std::map<long long, long long> wholePatches = patchesByStep(whole.output);
    for (const auto& [step, count] : patches)
      EXPECT_EQ(count, wholePatches.at(step)) << "patches after step " << step;

    const fs::path partEnd = dir_ / "part" / "checkpoints" / end.filename();
    ASSERT_TRUE(fs::exists(partEnd)) << "the continued run ends at the same step";
    EXPECT_EQ(fileText(end / "state.bin"), fileText(partEnd / "state.bin"));
    EXPECT_EQ(fileText(end / "forest.p4est"), fileText(partEnd / "forest.p4est"));
    expectSameOutput("whole", "part", 6);
  }
};

// From a checkpoint written after step 40, whose regrid changed the mesh (88 -> 112 patches).
TEST_F(CheckpointRestart, ContinuesBitwiseFromACheckpointAfterARegrid) {
  expectContinuesBitwiseFrom(40, false);
}

// From one written after step 39: step 37 took the flags that step 40's regrid adapts to, and
// beside steps 38 and 39 the forest adapted to them (a forest of its own) and the new patches were
// planned. The checkpoint keeps the flags and the forest the patches are on (without the flags the
// continued run keeps 88 patches).
TEST_F(CheckpointRestart, ContinuesBitwiseFromACheckpointWithARegridsFlagsPending) {
  expectContinuesBitwiseFrom(39, true);
}

// A checkpoint of one rank continued on two, and one of two continued on one: the end states
// agree to 1e-13 relative (and the meshes exactly). Written after step 39, it holds the flags of
// step 40's regrid, which each rank reads for its own patches.
TEST_F(CheckpointRestart, ContinuesOnAnotherRankCount) {
  const std::string mpi = twoRanks();
  ASSERT_EQ(run("one", "--set checkpoint.every_steps=39 --set checkpoint.keep=100").exitCode, 0);
  ASSERT_EQ(run("two", "--set checkpoint.every_steps=39 --set checkpoint.keep=100", mpi).exitCode,
            0);
  const fs::path end = lastCheckpoint("one");
  for (const auto& [from, to, launcher] : std::array<std::array<std::string, 3>, 2>{
           {{"one", "oneThenTwo", mpi}, {"two", "twoThenOne", ""}}}) {
    const Result r = run(to, "--restart " + copyCheckpoint(from, 39, to), launcher);
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const std::vector<double> expected = stateValues(end);
    const std::vector<double> actual = stateValues(dir_ / to / "checkpoints" / end.filename());
    ASSERT_EQ(actual.size(), expected.size()) << to;
    double worst = 0.0;
    for (std::size_t i = 0; i < expected.size(); ++i)
      worst =
          std::max(worst, std::fabs(actual[i] - expected[i]) / (std::fabs(expected[i]) + 1e-300));
    EXPECT_LE(worst, 1e-13) << to;
  }
}

// SIGTERM in the middle of a run: the step finishes, a complete checkpoint is written, one line
// says so, the exit code is 128 + 15, no temporary file is left; continuing from that checkpoint
// ends where the uninterrupted run ends.
TEST_F(CheckpointRestart, SigtermStopsWithACheckpointToContinueFrom) {
  ASSERT_EQ(run("whole", "").exitCode, 0);
  // Signalled once the run is well under way: 30 steps in its log.
  const pid_t pid = startAndWait("signalled", {}, 30);
  ASSERT_GT(pid, 0);
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by the signal instead of stopping";
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  const std::string said = fileText(dir_ / "signalled.txt");
  EXPECT_EQ(countOf(said, "stopped by SIGTERM"), 1) << said;
  // Said as the signal came: what the run finishes before it stops.
  EXPECT_EQ(countOf(said, "tessera: stop requested: finishing the "), 1) << said;
  expectNoTemporaries("signalled");
  const fs::path from = lastCheckpoint("signalled");
  ASSERT_TRUE(fs::exists(from / "checkpoint.toml")) << said;

  const Result rest = run("signalled", "--restart " + fs::relative(from, dir_).string());
  ASSERT_EQ(rest.exitCode, 0) << rest.output;
  const fs::path end = lastCheckpoint("whole");
  EXPECT_EQ(fileText(end / "state.bin"),
            fileText(dir_ / "signalled" / "checkpoints" / end.filename() / "state.bin"));
  expectSameOutput("whole", "signalled", 6);
}

// run.wall_limit: the run stops before it with a checkpoint and exit code 15.
TEST_F(CheckpointRestart, WallLimitStopsWithACheckpoint) {
  const Result r = run("walled", "--set run.wall_limit=0.5 --set time.end_time=10");
  EXPECT_EQ(r.exitCode, 15) << r.output;
  EXPECT_EQ(countOf(r.output, "stopped by run.wall_limit"), 1) << r.output;
  EXPECT_TRUE(fs::exists(lastCheckpoint("walled") / "checkpoint.toml"));
  expectNoTemporaries("walled");
}

// A run whose state becomes unphysical (two streams pulling apart into vacuum) stops with exit
// code 11, keeps its last good checkpoint (none of the failing state) and writes the failing state
// as a diagnostic output with the offending cells marked.
TEST_F(CheckpointRestart, UnphysicalStateKeepsTheLastGoodCheckpoint) {
  std::ofstream(dir_ / "vacuum.toml")
      << "[mesh]\ndimension = 2\ncells_per_patch = 8\npatches = [8, 1]\nupper = [1.0, 0.125]\n"
         "[boundary]\ny_lower = \"periodic\"\ny_upper = \"periodic\"\n"
         "[initial]\ntype = \"riemann\"\n"
         "left = { density = 1.0, pressure = 1e-10, velocity = -1000.0 }\n"
         "right = { density = 1.0, pressure = 1e-10, velocity = 1000.0 }\n"
         "[time]\nend_time = 1e-4\n[output]\nprogress_every = 0\n"
         "[checkpoint]\nevery_steps = 4\nkeep = 100\n";
  const fs::path log = dir_ / "vacuum.txt";
  const std::string command = "cd '" + dir_.string() +
                              "' && '" TESSERA_EXECUTABLE
                              "' run vacuum.toml --set output.directory=vacuum > '" +
                              log.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  const std::string said = fileText(log);
  ASSERT_TRUE(WIFEXITED(status)) << said;
  EXPECT_EQ(WEXITSTATUS(status), 11) << said;
  // The error, and (with VTK output) where the failing state was written.
  EXPECT_EQ(countOf(said, "became unphysical"), TESSERA_HAS_VTK ? 2 : 1) << said;
#if TESSERA_HAS_VTK
  long long failedAt = -1;
  fs::path diagnostic;
  for (const auto& entry : fs::directory_iterator(dir_ / "vacuum"))
    if (entry.path().extension() == ".pvtu" &&
        entry.path().filename().string().rfind("vacuum_unphysical_", 0) == 0) {
      diagnostic = entry.path();
      failedAt = std::stoll(entry.path().stem().string().substr(18));
    }
  ASSERT_FALSE(diagnostic.empty()) << "no diagnostic output: " << said;
  EXPECT_EQ(countOf(fileText(diagnostic), "Name=\"unphysical\""), 1);
  ASSERT_GT(failedAt, 4) << "the case should run a few steps first";
  const fs::path last = lastCheckpoint("vacuum");
  ASSERT_TRUE(fs::exists(last / "checkpoint.toml"));
  EXPECT_LT(std::stoll(last.filename().string().substr(11)), failedAt)
      << "a checkpoint of the failing state was written";
#endif
  expectNoTemporaries("vacuum");
}

// A checkpoint written by the device back end continues on the host and one of the host on the
// device, each ending within round-off of both uninterrupted runs (the device agrees with the host
// to round-off, not bitwise); one of the device continued on the device ends bitwise where the
// uninterrupted device run ends. Skipped where this build or machine has no device.
TEST_F(CheckpointRestart, ContinuesAcrossBackEnds) {
  expectContinuesAcrossBackEnds(40);
}

// Refusals, exit code 14, the file and what is wrong named, the checkpoint left as it was.
TEST_F(CheckpointRestart, RefusesDamagedAndForeignCheckpoints) {
  ASSERT_EQ(run("base", "").exitCode, 0);
  const fs::path good = lastCheckpoint("base");
  const auto copyOf = [&](const std::string& name) {
    const fs::path to = dir_ / name;
    fs::copy(good, to, fs::copy_options::recursive);
    return to;
  };
  const auto refused = [&](const fs::path& checkpoint, const std::string& extra,
                           const std::string& expected) {
    const std::string before = fileText(checkpoint / "state.bin");
    const Result r = run("again", "--restart " + checkpoint.string() + " " + extra);
    EXPECT_EQ(r.exitCode, 14) << r.output;
    EXPECT_NE(r.output.find(expected), std::string::npos) << r.output;
    EXPECT_EQ(fileText(checkpoint / "state.bin"), before) << "the checkpoint was changed";
  };

  const fs::path flipped = copyOf("flipped");
  {
    std::fstream f(flipped / "state.bin", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(64 + 8 * 1000);
    f.put('\x55');
  }
  refused(flipped, "", "state.bin: damaged: patch");

  const fs::path truncated = copyOf("truncated");
  fs::resize_file(truncated / "forest.p4est", fs::file_size(truncated / "forest.p4est") / 2);
  refused(truncated, "", "forest.p4est: damaged");

#if TESSERA_HAS_VTK
  // An [[output]] step lost from checkpoint.toml: the continued series would lack it.
  const fs::path lost = copyOf("lost");
  {
    std::string info = fileText(lost / "checkpoint.toml");
    const std::size_t first = info.find("\n[[output]]");
    ASSERT_NE(first, std::string::npos) << info;
    info.erase(first, info.find("\n[", first + 1) - first);
    std::ofstream(lost / "checkpoint.toml") << info;
  }
  refused(lost, "", "damaged: it lists");
#endif

  refused(good, "--set mesh.cells_per_patch=16", "mesh.cells_per_patch is 8 there, 16 here");
  refused(good, "--set mesh.patches=[4,8]", "mesh.patches is [4, 4] there, [4, 8] here");

  const Result missing = run("again", "--restart nowhere");
  EXPECT_EQ(missing.exitCode, 14) << missing.output;
  EXPECT_NE(missing.output.find("nowhere/checkpoint.toml: not found"), std::string::npos)
      << missing.output;
}

} // namespace
