// What the tessera program tells its user: the default case prints tens of progress lines, not one
// a step, and a summary; --verbose and --quiet; its log.jsonl keeps one object per step (and per
// implicit iteration) and a finish; output by step count and at listed times; `tessera info`
// checks a case and runs nothing; a host run prints no back-end line.
#include <chrono>
#include <string>

#include "tests/support/tessera_run_harness.hpp"

namespace {

using namespace tessera::testing;

// The lines of `text` that begin with `prefix`.
int linesStartingWith(const std::string& text, const std::string& prefix) {
  int n = text.rfind(prefix, 0) == 0 ? 1 : 0;
  return n + countOf(text, "\n" + prefix);
}

// The default case of README (examples/sedov/sedov2d.toml, copied into the test's folder).
class DefaultCaseReporting : public TesseraRunHarness {
protected:
  DefaultCaseReporting() : TesseraRunHarness("sedov2d.toml") {}
  std::string caseText() const override {
    return fileText(fs::path(TESSERA_SOURCE_DIR) / "examples" / "sedov" / "sedov2d.toml");
  }
};

TEST_F(DefaultCaseReporting, PrintsTensOfProgressLinesAndASummary) {
  const auto started = std::chrono::steady_clock::now();
  const Result r = run("default", "--set run.backend=host");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const std::string log = fileText(dir_ / "default" / "log.jsonl");
  const int steps = countOf(log, "\"event\":\"step\"");
  ASSERT_GT(steps, 500) << "the default case takes hundreds of steps";
  EXPECT_EQ(r.output.find("back end"), std::string::npos) << "a host run names no back end";
  const int lines = linesStartingWith(r.output, "step ");
  // The first and the last step, and (where there is VTK output) one per output at least; beyond
  // those, one a second: tens of lines in the few seconds the case takes here, and a tenth of the
  // steps at most however slow the build (a sanitizer's).
  EXPECT_GE(lines, TESSERA_HAS_VTK ? 11 : 2) << r.output;
  EXPECT_LE(lines, 13 + int(seconds)) << "in " << seconds << " s\n" << r.output;
  EXPECT_LE(lines, steps / 10) << r.output;
  // The summary: where it ended, the cells, the rate, the time split (the regrid's by its phases:
  // the case adapts), the output and checkpoint.
  for (const char* row : {"tessera: finished at step", "\n  cells ", "\n  cell-updates/s ",
                          "\n  time split ", "\n  regrid split ", "\n  output ", "\n  checkpoint "})
    EXPECT_EQ(countOf(r.output, row), 1) << row << "\n" << r.output;
  EXPECT_EQ(countOf(log, "\"event\":\"finish\""), 1);
  EXPECT_EQ(countOf(log, "\"regrid_phase_seconds\":{\"flags\":"), 1) << log;
#if TESSERA_HAS_VTK
  EXPECT_NE(r.output.find("sedov2d.pvd"), std::string::npos) << r.output;
  EXPECT_EQ(countOf(log, "\"event\":\"output\""), 11) << "t = 0 and every 0.01 to 0.1";
#endif
}

TEST_F(DefaultCaseReporting, VerboseAndQuiet) {
  const std::string shorter = "--set time.end_time=0.01 ";
  const Result verbose = run("verbose", shorter + "--verbose");
  ASSERT_EQ(verbose.exitCode, 0) << verbose.output;
  const int steps = countOf(fileText(dir_ / "verbose" / "log.jsonl"), "\"event\":\"step\"");
  EXPECT_EQ(linesStartingWith(verbose.output, "step "), steps);
  const Result quiet = run("quiet", shorter + "--quiet");
  ASSERT_EQ(quiet.exitCode, 0) << quiet.output;
  EXPECT_EQ(linesStartingWith(quiet.output, "step "), 0) << quiet.output;
  EXPECT_EQ(countOf(quiet.output, "tessera: finished at step"), 1) << quiet.output;
}

// Output every 40 steps, or at listed times: the log's output events say when (a build without
// VTK writes no output: only the refusals are checked there).
TEST_F(DefaultCaseReporting, OutputByStepsAndAtListedTimes) {
  const Result bySteps = run(
      "bySteps", "--set time.end_time=0.01 --set output.every_steps=40 --set output.interval=0");
  ASSERT_EQ(bySteps.exitCode, 0) << bySteps.output;
#if TESSERA_HAS_VTK
  const std::string log = fileText(dir_ / "bySteps" / "log.jsonl");
  const int steps = countOf(log, "\"event\":\"step\"");
  // The first state, every 40th step before the end, and the end.
  EXPECT_EQ(countOf(log, "\"event\":\"output\""), 1 + (steps - 1) / 40 + 1) << log;
  EXPECT_NE(log.find("\"event\":\"output\",\"step\":40,"), std::string::npos) << log;
#endif

  // The case without its output.interval, which output.times replaces.
  std::string untimed = caseText();
  untimed.replace(untimed.find("interval = 0.01"), 15, "");
  std::ofstream(dir_ / "untimed.toml") << untimed;
  const Result atTimes = tessera("run untimed.toml --set output.directory=atTimes "
                                 "--set time.end_time=0.01 --set output.times=[0.002,0.005]",
                                 "atTimes");
  ASSERT_EQ(atTimes.exitCode, 0) << atTimes.output;
#if TESSERA_HAS_VTK
  const std::string timed = fileText(dir_ / "atTimes" / "log.jsonl");
  EXPECT_EQ(countOf(timed, "\"event\":\"output\""), 4) << timed; // 0, 0.002, 0.005, 0.01
  EXPECT_NE(timed.find("\"time\":0.002,"), std::string::npos) << timed;
  EXPECT_NE(timed.find("\"time\":0.0050000000000000001,"), std::string::npos) << timed;
#endif

  const Result both = run("both", "--set output.times=[0.002] --set output.interval=0.01");
  EXPECT_EQ(both.exitCode, 8) << both.output;
  EXPECT_NE(both.output.find("output.times"), std::string::npos) << both.output;
  const Result unsorted =
      tessera("run untimed.toml --set output.directory=unsorted --set output.times=[0.005,0.002]",
              "unsorted");
  EXPECT_EQ(unsorted.exitCode, 7) << unsorted.output;
  EXPECT_NE(unsorted.output.find("ascending"), std::string::npos) << unsorted.output;
}

// `tessera info` and `tessera run --check`: the effective configuration, the mesh and the memory
// estimate; no output folder, no step.
TEST_F(DefaultCaseReporting, InfoChecksTheCaseAndRunsNothing) {
  for (const std::string& command :
       {std::string("info sedov2d.toml --set output.directory=info"),
        std::string("run sedov2d.toml --check --set output.directory=info")}) {
    const Result r = tessera(command, "info");
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("# The effective configuration"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("cells_per_patch = 8"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("a valid case: 2D, 64 patches of 8^2 cells (4096 cells) at the start"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("memory at the start: about"), std::string::npos) << r.output;
    EXPECT_EQ(linesStartingWith(r.output, "step "), 0) << r.output;
    EXPECT_FALSE(fs::exists(dir_ / "info")) << "a check writes nothing";
  }
  const Result bad = tessera("info sedov2d.toml --set time.cfl=2", "bad");
  EXPECT_EQ(bad.exitCode, 7) << bad.output;
  EXPECT_NE(bad.output.find("time.cfl"), std::string::npos) << bad.output;
}

// A steady implicit run: throttled iteration lines, one log object per iteration, a finish.
class ImplicitReporting : public TesseraRunHarness {
protected:
  ImplicitReporting() : TesseraRunHarness("bump.toml") {}
  std::string caseText() const override {
    return fileText(fs::path(TESSERA_SOURCE_DIR) / "examples" / "unstructured" /
                    "bump_implicit.toml");
  }
};

TEST_F(ImplicitReporting, LogsEveryIterationAndPrintsFewLines) {
  // Stopped by the limit, before the residual drop (about 110 iterations).
  const Result r = run("bump", "--set implicit.max_iterations=60");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const std::string log = fileText(dir_ / "bump" / "log.jsonl");
  EXPECT_EQ(countOf(log, "\"event\":\"iteration\""), 61) << "iterations 0 to 60";
  EXPECT_EQ(countOf(log, "\"event\":\"finish\",\"iterations\":60"), 1) << log;
  const int lines = linesStartingWith(r.output, "iteration ");
  EXPECT_GE(lines, 2) << "the first and the last\n" << r.output;
  EXPECT_LT(lines, 60) << r.output;
  EXPECT_EQ(countOf(r.output, "tessera: finished at iteration 60"), 1) << r.output;
  EXPECT_NE(r.output.find("  density residual "), std::string::npos) << r.output;
}

} // namespace
