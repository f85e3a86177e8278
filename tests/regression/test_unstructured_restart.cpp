// Checkpoint and restart of unstructured runs in the tessera program, end to end. Explicit (Sod's
// tube on tetrahedra): a run continued from a checkpoint ends bitwise where the uninterrupted run
// ends, output files and .pvd series included, with race-free face scatters; on another rank
// count (the state is kept in the mesh's cell order, whatever the partition) to 1e-12; SIGTERM
// stops it with a checkpoint to continue from. Implicit (the bump channel): the iteration count,
// the CFL ramp's reference residual and the tuned strategies continue, bitwise on the same ranks
// and to 1e-13 on others. Another case's checkpoint is refused, naming what differs.
#include <string>

#include "tests/support/tessera_run_harness.hpp"

namespace {

using namespace tessera::testing;

// Sod's shock tube along x on 1440 tetrahedra (60 x 2 x 2 cubes of six), no wave at the ends by t =
// 0.1; the face scatters forced to the race-free coloring, so that two runs add in the same order.
class UnstructuredExplicitRestart : public TesseraRunHarness {
protected:
  UnstructuredExplicitRestart() : TesseraRunHarness("sod.toml") {}
  std::string caseText() const override {
    return "[mesh]\ntype = \"unstructured\"\n"
           "box = { lower = [0.0, 0.0, 0.0], upper = [1.0, 0.04, 0.04], cells = [60, 2, 2], "
           "shape = \"tetrahedra\" }\nrenumber = \"rcm\"\n"
           "[boundary]\nxlo = \"slip_wall\"\nxhi = \"slip_wall\"\nylo = \"slip_wall\"\n"
           "yhi = \"slip_wall\"\nzlo = \"slip_wall\"\nzhi = \"slip_wall\"\n"
           "[initial]\ntype = \"riemann\"\naxis = \"x\"\nposition = 0.5\n"
           "left = { density = 1.0, velocity = 0.0, pressure = 1.0 }\n"
           "right = { density = 0.125, velocity = 0.0, pressure = 0.1 }\n"
           "[time]\nend_time = 0.1\n[output]\ninterval = 0.025\nprogress_every = 0\n"
           "[unstructured]\nresidual_strategy = \"coloring\"\n"
           "wave_speed_strategy = \"coloring\"\ngradient_strategy = \"coloring\"\n";
  }
};

// The subsonic bump channel of examples/unstructured on 600 hexahedra, 60 implicit iterations;
// the strategies are tuned (the continued run must take the first part's).
class UnstructuredImplicitRestart : public TesseraRunHarness {
protected:
  UnstructuredImplicitRestart() : TesseraRunHarness("bump.toml") {}
  std::string caseText() const override {
    return "[mesh]\ntype = \"unstructured\"\n"
           "box = { lower = [0.0, 0.0, 0.0], upper = [3.0, 1.0, 0.2], cells = [30, 10, 2], "
           "shape = \"hexahedra\", bump = { height = 0.1, from = 1.0, to = 2.0 } }\n"
           "[boundary]\nxlo = \"farfield\"\nxhi = \"farfield\"\nylo = \"slip_wall\"\n"
           "yhi = \"slip_wall\"\nzlo = \"symmetry\"\nzhi = \"symmetry\"\n"
           "[farfield]\ndensity = 1.4\nvelocity = [0.5, 0.0, 0.0]\npressure = 1.0\n"
           "[initial]\ntype = \"uniform\"\ndensity = 1.4\nvelocity = [0.5, 0.0, 0.0]\n"
           "pressure = 1.0\n"
           "[implicit]\nenabled = true\nsweeps = 5\nprecision = \"fp64\"\n"
           "residual_drop = 1e-12\nmax_iterations = 60\n";
  }
};

TEST_F(UnstructuredExplicitRestart, ContinuesBitwiseFromACheckpoint) {
  const Result whole = run("whole", "");
  ASSERT_EQ(whole.exitCode, 0) << whole.output;
  const Result first = run("part", "--set checkpoint.every_steps=20 --set checkpoint.keep=100");
  ASSERT_EQ(first.exitCode, 0) << first.output;
  const fs::path end = lastCheckpoint("whole");
  // The second part writes the end again from step 20.
  const fs::path from = checkpointOf("part", 20);
  ASSERT_TRUE(fs::exists(from / "checkpoint.toml")) << first.output;
  for (const auto& entry : fs::directory_iterator(dir_ / "part" / "checkpoints"))
    if (entry.path() != from)
      fs::remove_all(entry.path());
  const Result second = run("part", "--restart part/checkpoints/" + from.filename().string());
  ASSERT_EQ(second.exitCode, 0) << second.output;
  EXPECT_NE(second.output.find("continuing from"), std::string::npos) << second.output;
  const fs::path partEnd = dir_ / "part" / "checkpoints" / end.filename();
  ASSERT_TRUE(fs::exists(partEnd)) << "the continued run ends at the same step";
  EXPECT_EQ(fileText(end / "state.bin"), fileText(partEnd / "state.bin"));
  expectSameOutput("whole", "part", 10); // 5 outputs of a piece and a .pvtu, and the .pvd
}

// Another rank count adds each cell's face fluxes in another order; the second-order default's
// limiter (a min over faces) lets those last bits grow a little further than first order did
// (measured 1.4e-13 relative to the largest value; first order stayed within 1e-13): bound 1e-12.
TEST_F(UnstructuredExplicitRestart, ContinuesOnAnotherRankCount) {
  const std::string every = "--set checkpoint.every_steps=20 --set checkpoint.keep=100";
  ASSERT_EQ(run("one", every).exitCode, 0);
  ASSERT_EQ(run("two", every, twoRanks()).exitCode, 0);
  const fs::path end = lastCheckpoint("one");
  const std::vector<double> expected = stateValues(end);
  ASSERT_EQ(expected.size(), 1440u * 5u);
  EXPECT_LE(relativeDifference(expected, stateValues(lastCheckpoint("two"))), 1e-12);
  for (const auto& [from, to, launcher] : std::array<std::array<std::string, 3>, 2>{
           {{"one", "oneThenTwo", twoRanks()}, {"two", "twoThenOne", ""}}}) {
    const Result r = run(to, "--restart " + copyCheckpoint(from, 20, to), launcher);
    ASSERT_EQ(r.exitCode, 0) << r.output;
    const std::vector<double> actual = stateValues(dir_ / to / "checkpoints" / end.filename());
    ASSERT_EQ(actual.size(), expected.size()) << to;
    EXPECT_LE(relativeDifference(expected, actual), 1e-12) << to;
  }
}

// A device checkpoint continued on the host and a host one on the device, each within round-off of
// both uninterrupted runs; a device one continued on the device, bitwise (the forced coloring is
// race-free there too). Skipped where this build or machine has no device.
TEST_F(UnstructuredExplicitRestart, ContinuesAcrossBackEnds) {
  expectContinuesAcrossBackEnds(20);
}

TEST_F(UnstructuredExplicitRestart, SigtermStopsWithACheckpointToContinueFrom) {
  ASSERT_EQ(run("whole", "").exitCode, 0);
  // A longer run, signalled once under way; it continues to the uninterrupted run's end time.
  const pid_t pid = startAndWait("signalled", {"--set", "time.end_time=100"}, 10);
  ASSERT_GT(pid, 0);
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "ended by the signal instead of stopping";
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  const std::string said = fileText(dir_ / "signalled.txt");
  EXPECT_EQ(countOf(said, "stopped by SIGTERM"), 1) << said;
  expectNoTemporaries("signalled");
  const fs::path from = lastCheckpoint("signalled");
  ASSERT_TRUE(fs::exists(from / "checkpoint.toml")) << said;
  const long long stoppedAt = std::stoll(from.filename().string().substr(11));
  const fs::path end = lastCheckpoint("whole");
  ASSERT_LT(stoppedAt, std::stoll(end.filename().string().substr(11)))
      << "signalled after the end of the short run";

  const Result rest = run("signalled", "--restart " + fs::relative(from, dir_).string());
  ASSERT_EQ(rest.exitCode, 0) << rest.output;
  EXPECT_EQ(fileText(end / "state.bin"),
            fileText(dir_ / "signalled" / "checkpoints" / end.filename() / "state.bin"));
}

TEST_F(UnstructuredExplicitRestart, RefusesAnotherCasesCheckpoint) {
  ASSERT_EQ(run("base", "").exitCode, 0);
  const fs::path good = lastCheckpoint("base");
  const auto refused = [&](const fs::path& checkpoint, const std::string& extra,
                           const std::string& expected) {
    const Result r = run("again", "--restart " + checkpoint.string() + " " + extra);
    EXPECT_EQ(r.exitCode, 14) << r.output;
    EXPECT_NE(r.output.find(expected), std::string::npos) << r.output;
  };
  refused(good, "--set mesh.box.cells=[60,2,3]", "mesh.cells is 1440 there, 2160 here");
  // The same counts on another mesh: the fingerprint tells them apart.
  refused(good, "--set mesh.box.upper=[1.0,0.05,0.04]", "mesh.fingerprint is");
  // A patch run's checkpoint for an unstructured case, and the reverse.
  std::ofstream(dir_ / "patch.toml") << "[mesh]\ndimension = 2\ncells_per_patch = 8\n"
                                        "patches = [2, 2]\n[initial]\ntype = \"sedov\"\n"
                                        "[time]\nend_time = 0.001\n";
  const std::string patchRun = "cd '" + dir_.string() +
                               "' && '" TESSERA_EXECUTABLE
                               "' run patch.toml --set output.directory=patch > patch.txt 2>&1";
  ASSERT_EQ(std::system(patchRun.c_str()), 0) << fileText(dir_ / "patch.txt");
  refused(lastCheckpoint("patch"), "", "mesh.type is patches there, unstructured here");
  const std::string reverse = "cd '" + dir_.string() +
                              "' && '" TESSERA_EXECUTABLE
                              "' run patch.toml --set output.directory=patch2 --restart '" +
                              good.string() + "' > reverse.txt 2>&1";
  const int status = std::system(reverse.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 14);
  EXPECT_NE(fileText(dir_ / "reverse.txt").find("mesh.type is unstructured there, patches here"),
            std::string::npos)
      << fileText(dir_ / "reverse.txt");
}

// The first run tunes its strategies; the continued one takes them from the checkpoint, so that
// it ends bitwise where the first run ended (another tuning could pick another order of sums).
// On the host with one thread: an atomic strategy's sums on several threads or on the device come
// in a varying order, so that not even two uninterrupted runs would agree bitwise.
TEST_F(UnstructuredImplicitRestart, ContinuesTheIterationBitwise) {
  const std::string oneThread = "OMP_NUM_THREADS=1";
  const Result first = run(
      "part",
      "--verbose --set run.backend=host --set checkpoint.every_steps=25 --set checkpoint.keep=100",
      oneThread);
  ASSERT_EQ(first.exitCode, 0) << first.output;
  const fs::path end = lastCheckpoint("part");
  ASSERT_EQ(end.filename(), "checkpoint_00000060");
  const std::string from = copyCheckpoint("part", 25, "rest");
  const Result rest = run("rest", "--verbose --set run.backend=host --restart " + from, oneThread);
  ASSERT_EQ(rest.exitCode, 0) << rest.output;
  EXPECT_NE(rest.output.find("continuing from " + from + " at iteration 25"), std::string::npos)
      << rest.output;
  // The continued run prints the same residuals for iterations 25 to 60 as the first run.
  for (const char* line : {"iteration    25  density residual", "iteration    60  density"}) {
    const auto at = first.output.find(line);
    ASSERT_NE(at, std::string::npos) << first.output;
    const std::string expected = first.output.substr(at, first.output.find(')', at) - at);
    EXPECT_NE(rest.output.find(expected), std::string::npos) << expected << "\n" << rest.output;
  }
  EXPECT_EQ(fileText(end / "state.bin"),
            fileText(dir_ / "rest" / "checkpoints" / end.filename() / "state.bin"));
  // On two ranks from the same checkpoint.
  const std::string again = copyCheckpoint("part", 25, "restOnTwo");
  const Result two = run("restOnTwo", "--set run.backend=host --restart " + again, twoRanks());
  ASSERT_EQ(two.exitCode, 0) << two.output;
  EXPECT_LE(relativeDifference(stateValues(end),
                               stateValues(dir_ / "restOnTwo" / "checkpoints" / end.filename())),
            1e-13);
}

// Newton-Krylov continues bitwise too: its CFL rule's state (the residual the last step started
// from, whether that step grows the CFL) and its preconditioner's sweeps travel in the checkpoint
// with the rest. Restarted without the CFL rule's state, the run ended with another state.
class NewtonKrylovRestart : public UnstructuredImplicitRestart {
protected:
  // The run with `settings`, and the run continued from its checkpoint at iteration `from`: both
  // end with the same state and the same finish line.
  void expectContinuesBitwise(const std::string& settings, int from) {
    const std::string oneThread = "OMP_NUM_THREADS=1";
    const std::string gmres =
        "--verbose --set run.backend=host --set 'implicit.linear_solver=\"gmres\"' " + settings;
    const Result first =
        run("nk", gmres + " --set checkpoint.every_steps=1 --set checkpoint.keep=100", oneThread);
    ASSERT_EQ(first.exitCode, 0) << first.output;
    const fs::path end = lastCheckpoint("nk");
    const std::string rest = copyCheckpoint("nk", from, "nkRest");
    const Result second = run("nkRest", gmres + " --restart " + rest, oneThread);
    ASSERT_EQ(second.exitCode, 0) << second.output;
    EXPECT_NE(
        second.output.find("continuing from " + rest + " at iteration " + std::to_string(from)),
        std::string::npos)
        << second.output;
    const auto finished = [](const std::string& output) {
      const auto at = output.find("finished at iteration ");
      return at == std::string::npos ? std::string()
                                     : output.substr(at, output.find('\n', at) - at);
    };
    EXPECT_FALSE(finished(first.output).empty()) << first.output;
    EXPECT_EQ(finished(second.output), finished(first.output)) << second.output;
    EXPECT_EQ(fileText(end / "state.bin"),
              fileText(dir_ / "nkRest" / "checkpoints" / end.filename() / "state.bin"));
  }
};

// From iteration 2, while the CFL still climbs.
TEST_F(NewtonKrylovRestart, ContinuesBitwise) {
  expectContinuesBitwise("", 2);
}

// GMRES of 2 vectors preconditioned by 2 sweeps stalls at iterations 2, 5 and 10 (the sweeps grow
// to 3, 5 and 8): from iteration 12.
TEST_F(NewtonKrylovRestart, ContinuesBitwiseWithTheSweepsGrown) {
  expectContinuesBitwise("--set implicit.krylov_vectors=2 --set implicit.sweeps=2 --set "
                         "implicit.cfl_max=1e5",
                         12);
}

// A run whose limiter was frozen prints the residual its last state has with the limiter live:
// the residual that the same state's first iteration measures when continued from the end's
// checkpoint (a restart takes the frozen factors anew from the state). At Venkatakrishnan's K = 5:
// at the default 10 the refreshes bring the bump to the live steady state, and the two residuals
// would not tell the live one from the frozen.
TEST_F(UnstructuredImplicitRestart, AFrozenLimitersLiveResidualIsTheContinuedRunsFirst) {
  const std::string frozen = "--verbose --set implicit.freeze_limiter_below=0.3 --set "
                             "implicit.max_iterations=400 --set implicit.residual_drop=1e-10 "
                             "--set unstructured.venkatakrishnan_k=5";
  const Result first = run("frozen", frozen);
  ASSERT_EQ(first.exitCode, 0) << first.output;
  const std::string said = "limiter          frozen; with it live the residual is ";
  const auto at = first.output.find(said);
  ASSERT_NE(at, std::string::npos) << first.output;
  const double live = std::stod(first.output.substr(at + said.size()));
  const auto dropped = first.output.find("dropped to ");
  ASSERT_NE(dropped, std::string::npos) << first.output;
  // Not the frozen residual: the refreshes leave the live one 6 times above it here.
  EXPECT_GT(live, 2.0 * std::stod(first.output.substr(dropped + 11))) << first.output;
  const Result rest = run("frozenRest", frozen + " --restart " + lastCheckpoint("frozen").string());
  ASSERT_EQ(rest.exitCode, 0) << rest.output;
  const auto value = rest.output.find("(relative ", rest.output.find("continuing from"));
  ASSERT_NE(value, std::string::npos) << rest.output;
  EXPECT_NEAR(std::stod(rest.output.substr(value + 10)), live, 1e-3 * live) << rest.output;
}

// An explicit run's checkpoint does not continue an implicit run of the same mesh.
TEST_F(UnstructuredImplicitRestart, RefusesAnExplicitRunsCheckpoint) {
  const std::string implicitCase = caseText();
  std::ofstream(dir_ / "explicit.toml")
      << implicitCase.substr(0, implicitCase.find("[implicit]")) << "[time]\nend_time = 0.01\n";
  const std::string explicitRun =
      "cd '" + dir_.string() +
      "' && '" TESSERA_EXECUTABLE
      "' run explicit.toml --set output.directory=explicit > explicit.txt 2>&1";
  ASSERT_EQ(std::system(explicitRun.c_str()), 0) << fileText(dir_ / "explicit.txt");
  const Result r = run("again", "--restart " + lastCheckpoint("explicit").string());
  EXPECT_EQ(r.exitCode, 14) << r.output;
  EXPECT_NE(r.output.find("implicit.enabled is false there, true here"), std::string::npos)
      << r.output;
}

TEST_F(UnstructuredImplicitRestart, RefusesACheckpointIntervalInSimulatedTime) {
  const Result r = run("interval", "--set checkpoint.interval=0.5");
  EXPECT_EQ(r.exitCode, 8) << r.output; // inconsistent
  EXPECT_NE(r.output.find("checkpoint.interval"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("checkpoint.every_steps"), std::string::npos) << r.output;
}

} // namespace
