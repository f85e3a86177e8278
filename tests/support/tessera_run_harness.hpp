#pragma once
// What the tests of whole tessera runs share: a test folder holding a case file, `tessera run` on
// it (with a launcher such as mpiexec) into an output folder of its own, its checkpoints and their
// state, output compared file by file, and a run started in the background to be signalled.
#include <array>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>

extern char** environ;

namespace tessera::testing {

namespace fs = std::filesystem;

inline std::string fileText(const fs::path& file) {
  std::stringstream text;
  text << std::ifstream(file, std::ios::binary).rdbuf();
  return text.str();
}

// The values of a checkpoint's state.bin (after its 64-byte header: records, values per record).
inline std::vector<double> stateValues(const fs::path& checkpoint) {
  const std::string bytes = fileText(checkpoint / "state.bin");
  std::uint64_t records = 0, perRecord = 0;
  std::memcpy(&records, bytes.data() + 16, 8);
  std::memcpy(&perRecord, bytes.data() + 24, 8);
  std::vector<double> values(records * perRecord);
  std::memcpy(values.data(), bytes.data() + 64, values.size() * sizeof(double));
  return values;
}

// The largest difference of two states relative to the largest magnitude of the first.
inline double relativeDifference(const std::vector<double>& expected,
                                 const std::vector<double>& actual) {
  double scale = 0.0, worst = 0.0;
  for (std::size_t i = 0; i < expected.size() && i < actual.size(); ++i) {
    scale = std::max(scale, std::fabs(expected[i]));
    worst = std::max(worst, std::fabs(actual[i] - expected[i]));
  }
  return worst / scale;
}

inline int countOf(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

struct Result {
  int exitCode;
  std::string output;
};

// mpiexec on two ranks, one thread each.
inline std::string twoRanks() {
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 '" +
         std::string(TESSERA_MPIEXEC) + "' --oversubscribe -n 2";
}

// A fixture whose test folder holds the case file `caseName` with caseText().
class TesseraRunHarness : public ::testing::Test {
protected:
  TesseraRunHarness(std::string caseName) : caseName_(std::move(caseName)) {}

  virtual std::string caseText() const = 0;

  void SetUp() override {
    // Named by suite and test: tests of the same name in two suites may run at once.
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("tessera_run_" + std::string(test->test_suite_name()) +
                                        "_" + std::string(test->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / caseName_) << caseText();
  }
  void TearDown() override {
    if (!HasFailure())
      fs::remove_all(dir_);
  }

  // tessera run on the case with extra arguments, its output in folder `out` of the test's folder
  // (and what it printed in out.txt).
  Result run(const std::string& out, const std::string& args, const std::string& launcher = "") {
    return tessera("run " + caseName_ + " --set output.directory=" + out + " " + args, out,
                   launcher);
  }
  // tessera with any arguments in the test's folder, what it printed going to `log`.txt.
  Result tessera(const std::string& args, const std::string& log,
                 const std::string& launcher = "") {
    const fs::path printed = dir_ / (log + ".txt");
    const std::string command = "cd '" + dir_.string() + "' && " + launcher + " '" +
                                TESSERA_EXECUTABLE "' " + args + " > '" + printed.string() +
                                "' 2>&1";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, fileText(printed)};
  }

  fs::path checkpointOf(const std::string& out, long long step) const {
    char name[32];
    std::snprintf(name, sizeof name, "checkpoint_%08lld", step);
    return dir_ / out / "checkpoints" / name;
  }
  // The newest checkpoint of a run.
  fs::path lastCheckpoint(const std::string& out) const {
    fs::path last;
    for (const auto& entry : fs::directory_iterator(dir_ / out / "checkpoints"))
      if (entry.path().extension() != ".tmp" && entry.path() > last)
        last = entry.path();
    return last;
  }
  // A copy of run `from`'s checkpoint at `step` in run `to`'s checkpoint folder; its path
  // relative to the test folder.
  std::string copyCheckpoint(const std::string& from, long long step, const std::string& to) {
    fs::create_directories(dir_ / to / "checkpoints");
    const fs::path source = checkpointOf(from, step);
    fs::copy(source, dir_ / to / "checkpoints" / source.filename(), fs::copy_options::recursive);
    return to + "/checkpoints/" + source.filename().string();
  }

  // Every file of the uninterrupted run's output (but the log and the checkpoints) has the same
  // bytes in the other run's; at least `least` of them where there is VTK output.
  void expectSameOutput(const std::string& a, const std::string& b, int least) const {
    int compared = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir_ / a)) {
      const fs::path relative = fs::relative(entry.path(), dir_ / a);
      if (!entry.is_regular_file() || relative.begin()->string() == "checkpoints" ||
          relative == "log.jsonl" || relative == "config.toml")
        continue;
      ASSERT_TRUE(fs::exists(dir_ / b / relative)) << relative;
      EXPECT_EQ(fileText(entry.path()), fileText(dir_ / b / relative)) << relative;
      ++compared;
    }
    EXPECT_GE(compared, TESSERA_HAS_VTK ? least : 0) << "the output files compared";
  }

  // A device checkpoint (written every `step` steps) continued on the host, a host one on the
  // device and a device one on the device each end within 1e-12 of both uninterrupted runs, the
  // last bitwise where the uninterrupted device run ends. Skips the test where this build or
  // machine has no device.
  void expectContinuesAcrossBackEnds(long long step) {
    const std::string every =
        "--set checkpoint.every_steps=" + std::to_string(step) + " --set checkpoint.keep=100 ";
    const Result device = run("device", every + "--set run.backend=device");
    if (device.exitCode == 12)
      GTEST_SKIP() << "no device: " << device.output;
    ASSERT_EQ(device.exitCode, 0) << device.output;
    ASSERT_EQ(run("host", every + "--set run.backend=host").exitCode, 0);
    const fs::path end = lastCheckpoint("host");
    for (const auto& [from, to, backend] :
         std::array<std::array<std::string, 3>, 3>{{{"device", "deviceThenHost", "host"},
                                                    {"host", "hostThenDevice", "device"},
                                                    {"device", "deviceThenDevice", "device"}}}) {
      const Result r =
          run(to, "--set run.backend=" + backend + " --restart " + copyCheckpoint(from, step, to));
      ASSERT_EQ(r.exitCode, 0) << r.output;
      const std::vector<double> actual = stateValues(dir_ / to / "checkpoints" / end.filename());
      for (const char* uninterrupted : {"device", "host"}) {
        const std::vector<double> expected =
            stateValues(dir_ / uninterrupted / "checkpoints" / end.filename());
        ASSERT_EQ(actual.size(), expected.size()) << to << " against " << uninterrupted;
        EXPECT_LE(relativeDifference(expected, actual), 1e-12)
            << to << " against " << uninterrupted;
      }
    }
    EXPECT_EQ(fileText(dir_ / "device" / "checkpoints" / end.filename() / "state.bin"),
              fileText(dir_ / "deviceThenDevice" / "checkpoints" / end.filename() / "state.bin"));
  }

  // No temporary file or folder anywhere in a run's output.
  void expectNoTemporaries(const std::string& out) const {
    for (const auto& entry : fs::recursive_directory_iterator(dir_ / out))
      EXPECT_NE(entry.path().extension(), ".tmp") << entry.path();
  }

  // Starts `tessera run` on the case into folder `out` with extra arguments (each a separate
  // word), its output going to out.txt, and waits until its log has `steps` step events; returns
  // its process id (0 where it could not start).
  pid_t startAndWait(const std::string& out, std::vector<std::string> extra, int steps) {
    const std::string program = TESSERA_EXECUTABLE;
    const std::string log = (dir_ / (out + ".txt")).string();
    std::vector<std::string> args = {program, "run", (dir_ / caseName_).string(), "--set",
                                     "output.directory=" + (dir_ / out).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid = 0;
    const int started = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (started != 0)
      return 0;
    const fs::path runLog = dir_ / out / "log.jsonl";
    for (int waited = 0; waited < 6000; ++waited) {
      if (fs::exists(runLog) && countOf(fileText(runLog), "\"event\":\"step\"") >= steps)
        break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return pid;
  }

  fs::path dir_;

private:
  std::string caseName_;
};

} // namespace tessera::testing
