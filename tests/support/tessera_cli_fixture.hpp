#pragma once
// The tessera program end to end, as a user runs it: the fixture of the CLI suites. Each test
// gets a folder of its own (under the system's temporary folder, named after the test), writes its
// case there and runs the program, on one rank or under mpiexec, reading its exit code and output.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <utility>
#include <vector>

namespace tessera::test {

namespace fs = std::filesystem;

inline std::string fileText(const fs::path& file) {
  std::stringstream text;
  text << std::ifstream(file).rdbuf();
  return text.str();
}

#if TESSERA_HAS_VTK
// How often `what` stands in `file` (the output files' checks: builds without VTK write none).
inline int occurrences(const fs::path& file, const std::string& what) {
  const std::string text = fileText(file);
  int count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++count;
  return count;
}
#endif

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

  // tessera with args in the test's folder; launcher (e.g. mpiexec and its options) goes before.
  Result run(const std::string& args, const std::string& launcher = "") {
    return shell(launcher + " '" TESSERA_EXECUTABLE "' " + args);
  }

  // A shell command in the test's folder, its output and errors together.
  Result shell(const std::string& command) {
    const fs::path log = dir_ / "stdout.txt";
    const std::string line =
        "cd '" + dir_.string() + "' && " + command + " > '" + log.string() + "' 2>&1";
    const int status = std::system(line.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, fileText(log)};
  }

  // A valid small Sod case; tests break one thing at a time.
  static std::string sodCase() {
    return "[mesh]\ndimension = 2\ncells_per_patch = 8\npatches = [8, 1]\nupper = [1.0, 0.125]\n"
           "[boundary]\ny_lower = \"periodic\"\ny_upper = \"periodic\"\n"
           "[initial]\ntype = \"riemann\"\nleft = { density = 1.0, pressure = 1.0 }\n"
           "right = { density = 0.125, pressure = 0.1 }\n"
           "[time]\nend_time = 0.1\n[output]\ninterval = 0.05\nprogress_every = 0\n";
  }

  // A valid small unstructured case: Sod on a box of 20 x 1 x 1 cubes cut into tetrahedra, its
  // sides named (xlo .. yhi) or numbered (5) in [boundary].
  static std::string unstructuredCase() {
    return "[mesh]\ntype = \"unstructured\"\n"
           "box = { upper = [1.0, 0.05, 0.05], cells = [20, 1, 1], shape = \"tetrahedra\" }\n"
           "[boundary]\nxlo = \"slip_wall\"\nxhi = \"slip_wall\"\nylo = \"slip_wall\"\n"
           "yhi = \"slip_wall\"\n5 = \"symmetry\"\nzhi = \"symmetry\"\n"
           "[initial]\ntype = \"riemann\"\nleft = { density = 1.0, pressure = 1.0 }\n"
           "right = { density = 0.125, pressure = 0.1 }\n"
           "[time]\nend_time = 0.1\n[output]\ninterval = 0.05\nprogress_every = 0\n";
  }

  // A valid small adaptive case: a Sedov blast off the centre of a box of 4 x 4 patches of 8^2
  // cells, refined twice.
  static std::string sedovCase() {
    return "[mesh]\ndimension = 2\ncells_per_patch = 8\npatches = [4, 4]\n"
           "[amr]\nmax_level = 2\nregrid_interval = 4\nvariable = \"pressure\"\n"
           "[initial]\ntype = \"sedov\"\ncenter = [0.4, 0.45]\n"
           "[time]\nend_time = 0.004\n[output]\ninterval = 0.002\nprogress_every = 0\n";
  }

  // tessera with `args` on one rank and on two (mpiexec, oversubscribed), writing into the
  // folders "one" and "two".
  std::pair<Result, Result> runOnOneAndTwoRanks(const std::string& args) {
    return {run(args + " --set 'output.directory=\"one\"'"),
            run(args + " --set 'output.directory=\"two\"'",
                "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 "
                "'" TESSERA_MPIEXEC "' -n 2 --oversubscribe")};
  }

  static std::string replaced(std::string text, const std::string& from, const std::string& to) {
    return text.replace(text.find(from), from.size(), to);
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

} // namespace tessera::test
