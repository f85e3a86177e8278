// The tessera program end to end: a small case runs and leaves complete output, and every kind of
// bad configuration stops it before any step with its own exit code and a message that names the
// source, the key and the value.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "engine/backend.hpp"
#include "engine/memory.hpp"

namespace {

namespace fs = std::filesystem;

struct Result {
  int exitCode;
  std::string output;
};

class TesseraCli : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tessera_cli_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path writeCase(const std::string& text) {
    const fs::path file = dir_ / "case.toml";
    std::ofstream(file) << text;
    return file;
  }

  Result run(const std::string& args) {
    const fs::path log = dir_ / "stdout.txt";
    const std::string command = "cd '" + dir_.string() + "' && '" TESSERA_EXECUTABLE "' " + args +
                                " > '" + log.string() + "' 2>&1";
    const int status = std::system(command.c_str());
    std::stringstream text;
    text << std::ifstream(log).rdbuf();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
  }

  // A valid small Sod case; tests break one thing at a time.
  static std::string sodCase() {
    return "[mesh]\ndimension = 2\ncells_per_patch = 8\npatches = [8, 1]\nupper = [1.0, 0.125]\n"
           "[boundary]\ny_lower = \"periodic\"\ny_upper = \"periodic\"\n"
           "[initial]\ntype = \"riemann\"\nleft = { density = 1.0, pressure = 1.0 }\n"
           "right = { density = 0.125, pressure = 0.1 }\n"
           "[time]\nend_time = 0.1\n[output]\ninterval = 0.05\nprogress_every = 0\n";
  }

  void expectError(const std::string& caseText, const std::string& extraArgs, int code,
                   const std::vector<std::string>& parts) {
    const Result r = run("run " + writeCase(caseText).string() + " " + extraArgs);
    EXPECT_EQ(r.exitCode, code) << r.output;
    for (const auto& part : parts)
      EXPECT_NE(r.output.find(part), std::string::npos) << "'" << part << "' not in: " << r.output;
    EXPECT_FALSE(fs::exists(dir_ / "output")) << "a failed configuration must not start a run";
  }

  fs::path dir_;
};

TEST_F(TesseraCli, SmallSodCaseRunsAndWritesCompleteOutput) {
  const Result r = run("run " + writeCase(sodCase()).string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const fs::path out = dir_ / "output" / "case";
  EXPECT_TRUE(fs::exists(out / "config.toml"));
  EXPECT_TRUE(fs::exists(out / "log.jsonl"));
#if TESSERA_HAS_VTK
  EXPECT_TRUE(fs::exists(out / "case.pvd"));
  std::stringstream text;
  text << std::ifstream(out / "case.pvd").rdbuf();
  const std::string pvd = text.str();
  int datasets = 0;
  for (std::size_t at = 0; (at = pvd.find("<DataSet", at)) != std::string::npos; ++at)
    ++datasets;
  EXPECT_EQ(datasets, 3) << "outputs at t = 0, 0.05 and 0.1";
#endif
  for (const auto& entry : fs::recursive_directory_iterator(out))
    EXPECT_NE(entry.path().extension(), ".tmp") << entry.path();
  std::stringstream effective;
  effective << std::ifstream(out / "config.toml").rdbuf();
  EXPECT_NE(effective.str().find("cfl = 0.4"), std::string::npos) << "defaults are written out";
}

TEST_F(TesseraCli, OverrideChangesTheRun) {
  const Result r =
      run("run " + writeCase(sodCase()).string() +
          " --set time.end_time=0.02 --set output.name=short --set output.enabled=false");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  std::stringstream effective;
  effective << std::ifstream(dir_ / "output" / "short" / "config.toml").rdbuf();
  EXPECT_NE(effective.str().find("end_time = 0.02"), std::string::npos) << effective.str();
}

TEST_F(TesseraCli, UsageError) {
  const Result r = run("run");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("case"), std::string::npos);
}

TEST_F(TesseraCli, UnreadableFile) {
  const Result r = run("run missing.toml");
  EXPECT_EQ(r.exitCode, 3) << r.output;
  EXPECT_NE(r.output.find("missing.toml"), std::string::npos) << r.output;
}

TEST_F(TesseraCli, SyntaxError) {
  expectError("[mesh\ndimension = 2\n", "", 4, {"case.toml:1"});
}

TEST_F(TesseraCli, MalformedOverride) {
  expectError(sodCase(), "--set time.end_time", 4, {"--set time.end_time"});
}

TEST_F(TesseraCli, UnknownKey) {
  expectError(sodCase() + "[physics]\ngama = 1.4\n", "", 5, {"case.toml:", "physics.gama", "1.4"});
}

TEST_F(TesseraCli, WrongType) {
  expectError(sodCase(), "--set mesh.cells_per_patch=\"eight\"", 6,
              {"--set mesh.cells_per_patch", "\"eight\"", "integer"});
}

TEST_F(TesseraCli, WrongVectorLength) {
  expectError(sodCase(), "--set mesh.patches=[8,1,1]", 6, {"mesh.patches", "2 integers"});
}

TEST_F(TesseraCli, OutOfRange) {
  expectError(sodCase(), "--set time.cfl=0.7", 7, {"time.cfl", "0.7", "(0, 0.5]"});
}

TEST_F(TesseraCli, UnknownChoice) {
  expectError(sodCase(), "--set boundary.x_lower=wall", 7, {"boundary.x_lower", "\"wall\""});
}

TEST_F(TesseraCli, Inconsistent) {
  expectError(sodCase(), "--set boundary.y_upper=outflow", 8,
              {"boundary.y_upper", "periodic boundaries come in pairs"});
}

TEST_F(TesseraCli, MissingKey) {
  expectError(sodCase(), "--set initial.right={density=0.125}", 9, {"initial.right.pressure"});
}

// Where the run computes: "auto" says what it chose; "device" without a GPU stops with its own
// exit code and says what is missing; anything else is an unknown choice.
TEST_F(TesseraCli, AutoBackendSaysWhichItChose) {
  const Result r = run("run " + writeCase(sodCase()).string() + " --set output.enabled=false");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const bool onDevice =
      tessera::compiledDeviceBackend() != tessera::Backend::Host && tessera::deviceAvailable();
  EXPECT_NE(r.output.find(onDevice ? "back end cuda" : "back end host"), std::string::npos)
      << r.output;
}

TEST_F(TesseraCli, DeviceBackendWithoutGpu) {
  if (tessera::compiledDeviceBackend() != tessera::Backend::Host && tessera::deviceAvailable())
    GTEST_SKIP() << "this machine has a GPU: run.backend = \"device\" runs";
  expectError(sodCase(), "--set run.backend=device", 12, {"run.backend", "\"device\"", "GPU"});
}

TEST_F(TesseraCli, UnknownBackend) {
  expectError(sodCase(), "--set run.backend=gpu", 7, {"run.backend", "\"gpu\""});
}

TEST_F(TesseraCli, AdaptiveRunWritesLevels) {
  const Result r = run("run " + writeCase(sodCase()).string() +
                       " --set amr.max_level=1 --set amr.criterion=gradient");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("levels 0 to 1"), std::string::npos) << r.output;
}

TEST_F(TesseraCli, AmrLevelsInconsistent) {
  expectError(sodCase(), "--set amr.max_level=1 --set amr.min_level=2", 8,
              {"amr.min_level", "2", "must not exceed amr.max_level"});
}

TEST_F(TesseraCli, AmrUnknownVariable) {
  expectError(sodCase(), "--set amr.max_level=2 --set amr.variable=temperature", 7,
              {"amr.variable", "\"temperature\"", "\"pressure\""});
}

TEST_F(TesseraCli, AmrNeedsEvenPatches) {
  expectError(sodCase(), "--set amr.max_level=1 --set mesh.cells_per_patch=7", 8,
              {"mesh.cells_per_patch", "7", "even"});
}

TEST_F(TesseraCli, OutputFolderCannotBeCreated) {
  const Result r = run("run " + writeCase(sodCase()).string() +
                       " --set output.directory=/proc/tessera_cannot_write_here");
  EXPECT_EQ(r.exitCode, 10) << r.output;
  EXPECT_NE(r.output.find("/proc/tessera_cannot_write_here"), std::string::npos) << r.output;
}

} // namespace
