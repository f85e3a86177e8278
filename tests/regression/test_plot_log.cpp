// tools/plot_log.py on the logs of short runs, as a user draws a run's history: a time-dependent
// patch run (dt, cells, cell-updates/s, time) and a steady unstructured run (residual, CFL and the
// force coefficients) each give a PNG that is a whole image; with VTK output, so does
// tools/render_example.py (the README's pictures) on the patch run's last step.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>

#include "tests/support/tessera_cli_fixture.hpp"

namespace {

using namespace tessera::test;

// A PNG file: its 8-byte signature, and more than a blank canvas's few kilobytes.
void expectPng(const fs::path& file) {
  ASSERT_TRUE(fs::exists(file)) << file;
  const std::string bytes = fileText(file);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << file;
  EXPECT_GT(bytes.size(), 20000u) << file;
}

TEST_F(TesseraCli, PlotLogDrawsTheHistoryOfARun) {
  const std::string plot = "'" TESSERA_PYTHON "' '" TESSERA_SOURCE_DIR "/tools/plot_log.py' ";
  ASSERT_EQ(run("run " + writeCase(sodCase()).string()).exitCode, 0);
  const Result steps = shell(plot + "output/case -o steps.png");
  ASSERT_EQ(steps.exitCode, 0) << steps.output;
  expectPng(dir_ / "steps.png");

  const Result steady =
      run("run '" TESSERA_SOURCE_DIR "/examples/unstructured/bump_implicit.toml' --set "
          "implicit.max_iterations=20 --set output.enabled=false");
  ASSERT_EQ(steady.exitCode, 0) << steady.output;
  const Result iterations = shell(plot + "output/bump_implicit");
  ASSERT_EQ(iterations.exitCode, 0) << iterations.output;
  expectPng(dir_ / "output" / "bump_implicit" / "history.png");

#if TESSERA_HAS_VTK
  // The pictures' script on the same unsteady run's last step.
  const Result picture = shell("'" TESSERA_PYTHON "' '" TESSERA_SOURCE_DIR
                               "/tools/render_example.py' output/case/case.pvd density -o "
                               "density.png");
  ASSERT_EQ(picture.exitCode, 0) << picture.output;
  // Every cell of the strip (8 patches of 8^2), with Sod's densities between the initial states.
  EXPECT_NE(picture.output.find("density.png: 512 cells of density in [0.125"), std::string::npos)
      << picture.output;
  EXPECT_NE(picture.output.find(", 1]"), std::string::npos) << picture.output;
  const Result noField = shell("'" TESSERA_PYTHON "' '" TESSERA_SOURCE_DIR
                               "/tools/render_example.py' output/case/case.pvd vorticity -o x.png");
  EXPECT_NE(noField.exitCode, 0);
  EXPECT_NE(noField.output.find("no cell field 'vorticity' (there are: density"), std::string::npos)
      << noField.output;
#endif

  const Result missing = shell(plot + "nowhere");
  EXPECT_NE(missing.exitCode, 0);
  EXPECT_NE(missing.output.find("nowhere: no such file"), std::string::npos) << missing.output;
}

} // namespace
