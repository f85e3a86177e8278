// The tessera program end to end: a small case runs and leaves complete output, and every kind of
// bad configuration stops it before any step with its own exit code and a message that names the
// source, the key and the value.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "engine/backend.hpp"
#include "engine/memory.hpp"
#include "tests/support/tessera_cli_fixture.hpp"

namespace {

using namespace tessera::test;

TEST_F(TesseraCli, SmallSodCaseRunsAndWritesCompleteOutput) {
  const Result r = run("run " + writeCase(sodCase()).string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const fs::path out = dir_ / "output" / "case";
  EXPECT_TRUE(fs::exists(out / "config.toml"));
  EXPECT_TRUE(fs::exists(out / "log.jsonl"));
#if TESSERA_HAS_VTK
  EXPECT_TRUE(fs::exists(out / "case.pvd"));
  EXPECT_EQ(occurrences(out / "case.pvd", "<DataSet"), 3) << "outputs at t = 0, 0.05 and 0.1";
#endif
  for (const auto& entry : fs::recursive_directory_iterator(out))
    EXPECT_NE(entry.path().extension(), ".tmp") << entry.path();
  const std::string effective = fileText(out / "config.toml");
  EXPECT_NE(effective.find("cfl = 0.4"), std::string::npos) << "defaults are written out";
}

TEST_F(TesseraCli, OverrideChangesTheRun) {
  const Result r =
      run("run " + writeCase(sodCase()).string() +
          " --set time.end_time=0.02 --set output.name=short --set output.enabled=false");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const std::string effective = fileText(dir_ / "output" / "short" / "config.toml");
  EXPECT_NE(effective.find("end_time = 0.02"), std::string::npos) << effective;
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
  expectError(sodCase(), "--set time.cfl=0.7", 7, {"time.cfl", "0.7", "[1e-06, 0.5]"});
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

// Where the run computes: "auto" on a GPU says so, on the host says nothing; "device" without a
// GPU stops with its own exit code and says what is missing; anything else is an unknown choice.
TEST_F(TesseraCli, AutoBackendNamesTheGpuOnly) {
  const Result r = run("run " + writeCase(sodCase()).string() + " --set output.enabled=false");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const bool onDevice =
      tessera::compiledDeviceBackend() != tessera::Backend::Host && tessera::deviceAvailable();
  if (onDevice)
    EXPECT_NE(r.output.find("back end cuda"), std::string::npos) << r.output;
  else
    EXPECT_EQ(r.output.find("back end"), std::string::npos) << r.output;
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

// Non-finite and absurd values are refused when read, naming the key and the value.
TEST_F(TesseraCli, NonFiniteAndAbsurdValuesAreRefused) {
  expectError(sodCase(), "--set time.end_time=inf", 7, {"time.end_time", "inf"});
  expectError(sodCase(), "--set output.interval=1e-12", 7,
              {"output.interval", "1e-12", "output steps"});
  expectError(sodCase(), "--set time.cfl=1e-300", 7, {"time.cfl", "1e-300"});
  expectError(sodCase(), "--set initial.left.density=inf", 7, {"initial.left.density", "inf"});
  expectError(sodCase(), "--set initial.left.velocity=1e200", 7,
              {"initial.left.velocity", "1e+200"});
  expectError(sodCase(), "--set mesh.upper=[inf,1]", 7, {"mesh.upper", "inf"});
  expectError(sodCase(), "--set mesh.upper=[1e-300,1e-300]", 8,
              {"mesh.upper", "too small to compute with"});
}

// A misspelt key is an error that names the key it most likely meant; a key of a feature the
// case switched off is a warning, and the run goes on.
TEST_F(TesseraCli, MisspeltKeySaysWhatItMeant) {
  expectError(sodCase(), "--set time.end_tme=0.1", 5,
              {"time.end_tme", "did you mean time.end_time"});
}
TEST_F(TesseraCli, KeysOfASwitchedOffFeatureAreWarnings) {
  const Result r =
      run("run " + writeCase(sodCase() + "[amr]\nmax_level = 0\ncoarsen = 0.2\n").string());
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("warning: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("amr.coarsen = 0.2 is not used"), std::string::npos) << r.output;
}

// output.fields names fields the case's system has, each once; the AMR format is for patch
// meshes.
TEST_F(TesseraCli, OutputFieldsAndFormatAreChecked) {
  expectError(sodCase(), "--set 'output.fields=[\"density\", \"vorticty\"]'", 7,
              {"output.fields", "\"vorticty\"", "\"vorticity\"", "\"schlieren\""});
  expectError(sodCase(), "--set 'output.fields=[\"mach\", \"mach\"]'", 8,
              {"output.fields", "lists \"mach\" twice"});
  expectError(sodCase(), "--set 'output.fields=[]'", 6, {"output.fields", "an array of"});
  expectError(sodCase(), "--set physics.gas_constant=0", 7, {"physics.gas_constant", "0"});
  expectError(sodCase(), "--set output.format=vtk", 7, {"output.format", "\"amr\""});
  expectError(unstructuredCase(), "--set output.format=amr", 8,
              {"output.format", "\"amr\"", "patch meshes"});
}

// The AMR format on two ranks lists the same blocks in the same order as on one (the values are
// checked block by block in tessera_amr_output_tests, also on three ranks).
TEST_F(TesseraCli, AmrOutputOnTwoRanksListsTheBlocksOfOne) {
  const auto [one, two] = runOnOneAndTwoRanks(
      "run " + writeCase(sedovCase()).string() +
      " --set output.format=amr --set 'output.fields=[\"primitive\", \"mach\", \"vorticity\"]'");
  ASSERT_EQ(one.exitCode, 0) << one.output;
  ASSERT_EQ(two.exitCode, 0) << two.output;
  if (!TESSERA_HAS_VTK)
    GTEST_SKIP() << "a build without VTK writes no output";
  int steps = 0;
  for (const auto& entry : fs::directory_iterator(dir_ / "one"))
    if (entry.path().extension() == ".vthb") {
      ++steps;
      const std::string blocks = fileText(entry.path());
      EXPECT_NE(blocks.find("<Block level=\"2\""), std::string::npos) << blocks;
      EXPECT_EQ(blocks, fileText(dir_ / "two" / entry.path().filename()));
    }
  EXPECT_EQ(steps, 3); // t = 0, 0.002, 0.004
  EXPECT_TRUE(fs::exists(dir_ / "one" / "case.vthb.series"));
}

// A 2D Gmsh mesh runs as one layer of prisms and hexahedra; its planes are symmetry planes
// unless the case names them: a strip [0, 1] x [0, 0.25] of 4 quadrangles and 8 triangles.
// A closed Sod tube: the walls at the ends feel the undisturbed states' pressures at t = 0.1 (the
// rarefaction's head is at x = 0.38, the shock at 0.68), p A along the outward normal with
// A = 0.05^2: -0.0025 on xlo and 0.00025 on xhi, in the summary and in log.jsonl at every output
// step; with VTK the walls' surface series lists the same steps.
TEST_F(TesseraCli, WallsReportTheirForcesAndASurface) {
  const Result r = run("run " + writeCase(unstructuredCase()).string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("force (-0.0025, "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("force (0.00025, "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("coefficients"), std::string::npos) << "no freestream: " << r.output;
  const std::string log = fileText(dir_ / "output" / "case" / "log.jsonl");
  std::size_t events = 0;
  for (std::size_t at = log.find("\"event\":\"forces\""); at != std::string::npos;
       at = log.find("\"event\":\"forces\"", at + 1))
    ++events;
  EXPECT_EQ(events, 3u) << log; // t = 0, 0.05, 0.1
  EXPECT_NE(log.find("\"xlo\":{\"force\":[-0.0025"), std::string::npos) << log;
  if (!TESSERA_HAS_VTK)
    GTEST_SKIP() << "a build without VTK writes no surface";
  const std::string series = fileText(dir_ / "output" / "case" / "case_surface.pvd");
  EXPECT_NE(series.find("case_surface_000000.pvtp"), std::string::npos) << series;
  EXPECT_TRUE(fs::exists(dir_ / "output" / "case" / "case_surface_000000" / "rank_0.vtp"));
}

TEST_F(TesseraCli, A2DMeshRunsAsOneLayer) {
  std::ofstream mesh(dir_ / "strip.msh");
  mesh << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n2\n1 1 \"walls\"\n"
          "1 2 \"ends\"\n$EndPhysicalNames\n$Nodes\n18\n";
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i <= 8; ++i)
      mesh << 1 + i + 9 * j << " " << i / 8.0 << " " << 0.25 * j << " 0\n";
  mesh << "$EndNodes\n$Elements\n" << 16 + 2 + 4 + 8 << "\n";
  int element = 0;
  for (int i = 0; i < 8; ++i) { // bottom and top walls
    mesh << ++element << " 1 2 1 1 " << 1 + i << " " << 2 + i << "\n";
    mesh << ++element << " 1 2 1 1 " << 10 + i << " " << 11 + i << "\n";
  }
  mesh << ++element << " 1 2 2 2 1 10\n";
  mesh << ++element << " 1 2 2 2 9 18\n";
  for (int i = 0; i < 8; ++i) { // quadrangles on the left half, pairs of triangles on the right
    if (i < 4) {
      mesh << ++element << " 3 2 3 3 " << 1 + i << " " << 2 + i << " " << 11 + i << " " << 10 + i
           << "\n";
      continue;
    }
    mesh << ++element << " 2 2 3 3 " << 1 + i << " " << 2 + i << " " << 11 + i << "\n";
    mesh << ++element << " 2 2 3 3 " << 1 + i << " " << 11 + i << " " << 10 + i << "\n";
  }
  mesh << "$EndElements\n";
  mesh.close();
  const std::string text =
      "[mesh]\ntype = \"unstructured\"\nfile = \"strip.msh\"\n"
      "[boundary]\nwalls = \"slip_wall\"\nends = \"slip_wall\"\n"
      "[initial]\ntype = \"riemann\"\nleft = { density = 1.0, pressure = 1.0 }\n"
      "right = { density = 0.125, pressure = 0.1 }\n"
      "[time]\nend_time = 0.02\n[output]\ninterval = 0\nprogress_every = 0\n";
  // Named, the planes take what the case says.
  expectError(text, "--set boundary.layer_planes=wall", 7, {"boundary.layer_planes", "\"wall\""});
  const Result r = run("run " + writeCase(text).string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("unstructured, 12 cells"), std::string::npos) << r.output;
  const std::string effective = fileText(dir_ / "output" / "case" / "config.toml");
  EXPECT_NE(effective.find("layer_planes = 'symmetry'"), std::string::npos) << effective;
}

// On two ranks an error found on one rank ends both with one message, never a hang: an output
// folder that cannot be made, and a mesh of one patch (a rank without patches).
TEST_F(TesseraCli, ErrorsEndEveryRankWithOneMessage) {
  std::ofstream(dir_ / "a_file") << "in the way\n";
  const std::string mpi =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 '" TESSERA_MPIEXEC
      "' -n 2 --oversubscribe";
  const Result r =
      run("run " + writeCase(sodCase()).string() + " --set output.directory=a_file/out", mpi);
  EXPECT_EQ(r.exitCode, 10) << r.output;
  std::size_t said = 0;
  for (auto at = r.output.find("cannot create the folder"); at != std::string::npos;
       at = r.output.find("cannot create the folder", at + 1))
    ++said;
  EXPECT_EQ(said, 1u) << r.output;

  const Result one = run("run " + writeCase(sodCase()).string() +
                             " --set mesh.patches=[1,1] --set 'output.directory=\"one\"'",
                         mpi);
  EXPECT_EQ(one.exitCode, 0) << one.output;
  EXPECT_EQ(one.output.find("eigenvalue"), std::string::npos) << one.output;
}

// A mesh that cannot fit in memory is refused before anything is allocated (it used to abort in
// p4est's allocator), naming the key, the estimate and the memory available.
TEST_F(TesseraCli, MeshesTooLargeForMemoryAreRefused) {
  for (const char* patches : {"[1000000,1000000]", "[65536,65536]"})
    expectError(sodCase(), std::string("--set run.backend=host --set mesh.patches=") + patches, 7,
                {"mesh.patches", "would need at least", "GB", "available"});
  expectError(sodCase(), "--set mesh.cells_per_patch=128 --set mesh.patches=[2048,2048]", 7,
              {"mesh.patches", "mesh.cells_per_patch", "would need at least"});
  expectError(replaced(sodCase(), "dimension = 2", "dimension = 3"),
              "--set mesh.patches=[1000000,1000000,1000000] --set mesh.upper=[1,1,1]", 7,
              {"mesh.patches", "would need at least"});
}

// A device run is sized against its device's free memory first (the host's would also refuse
// this one). Skipped without a device.
TEST_F(TesseraCli, MeshesTooLargeForTheDeviceAreRefused) {
  if (tessera::compiledDeviceBackend() == tessera::Backend::Host || !tessera::deviceAvailable())
    GTEST_SKIP() << "no device";
  expectError(replaced(sodCase(), "dimension = 2", "dimension = 3"),
              "--set run.backend=device --set mesh.cells_per_patch=16 "
              "--set mesh.patches=[100,100,100] --set mesh.upper=[1,1,1]",
              7, {"mesh.patches", "of device memory", "is free on each rank's device"});
}

// A second run into the same output folder moves the first run's files aside, and says so.
TEST_F(TesseraCli, ASecondRunMovesTheFirstAside) {
  const fs::path file = writeCase(sodCase());
  ASSERT_EQ(run("run " + file.string()).exitCode, 0);
  const Result second = run("run " + file.string());
  EXPECT_EQ(second.exitCode, 0) << second.output;
  EXPECT_NE(second.output.find("held an earlier run: moved to"), std::string::npos)
      << second.output;
  EXPECT_TRUE(fs::exists(dir_ / "output" / "case.previous-1" / "log.jsonl"));
  EXPECT_TRUE(fs::exists(dir_ / "output" / "case" / "log.jsonl"));
}

TEST_F(TesseraCli, AFolderIsNotACaseFile) {
  const Result r = run("run " + dir_.string());
  EXPECT_EQ(r.exitCode, 3) << r.output;
  EXPECT_NE(r.output.find("is a folder, not a case file"), std::string::npos) << r.output;
}

// --set's errors name the --set, also for keys inside a table it gave; a value may not smuggle in
// keys of its own through a line break.
TEST_F(TesseraCli, SetErrorsNameTheSet) {
  expectError(sodCase(), "--set 'initial.right={density=0.125}'", 9,
              {"--set initial.right", "initial.right.pressure"});
  expectError(sodCase(), "--set 'initial.right={density=0.125, pressure=\"high\"}'", 6,
              {"--set initial.right.pressure"});
  expectError(sodCase(), "--set \"$(printf 'time.end_time=0.1\\noutput.interval=0.05')\"", 4,
              {"--set time.end_time", "one line"});
}

TEST_F(TesseraCli, OutputFolderCannotBeCreated) {
  const Result r = run("run " + writeCase(sodCase()).string() +
                       " --set output.directory=/proc/tessera_cannot_write_here");
  EXPECT_EQ(r.exitCode, 10) << r.output;
  EXPECT_NE(r.output.find("/proc/tessera_cannot_write_here"), std::string::npos) << r.output;
}

TEST_F(TesseraCli, UnstructuredCaseRunsAndWritesCompleteOutput) {
  const Result r = run("run " + writeCase(unstructuredCase()).string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("atomic strategy of the residual scatter: picked"), std::string::npos)
      << r.output;
  const fs::path out = dir_ / "output" / "case";
  const std::string log = fileText(out / "log.jsonl");
  EXPECT_NE(log.find("\"event\":\"atomic_strategy\",\"scatter\":\"residual\""), std::string::npos)
      << log;
  EXPECT_NE(log.find("\"scatter\":\"wave_speed\""), std::string::npos) << log;
  EXPECT_TRUE(fs::exists(out / "config.toml"));
  EXPECT_TRUE(fs::exists(out / "log.jsonl"));
#if TESSERA_HAS_VTK
  EXPECT_EQ(occurrences(out / "case.pvd", "<DataSet"), 3) << "outputs at t = 0, 0.05 and 0.1";
#endif
  const std::string effective = fileText(out / "config.toml");
  EXPECT_NE(effective.find("residual_strategy = 'auto'"), std::string::npos) << effective;
  EXPECT_NE(effective.find("wave_speed_strategy = 'auto'"), std::string::npos) << effective;
}

TEST_F(TesseraCli, UnstructuredForcedStrategy) {
  const Result r = run("run " + writeCase(unstructuredCase()).string() +
                       " --set unstructured.residual_strategy=gather --set output.enabled=false");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("residual scatter: picked gather (forced)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("wave_speed scatter: picked "), std::string::npos) << r.output;
}

TEST_F(TesseraCli, UnstructuredMeshFileRelativeToTheCase) {
  // One tetrahedron, its four faces in the physical surface "wall", the case in a subfolder.
  fs::create_directories(dir_ / "cases");
  std::ofstream(dir_ / "cases" / "one.msh")
      << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n1\n2 1 \"wall\"\n"
         "$EndPhysicalNames\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n"
         "$Elements\n5\n1 2 2 1 1 1 3 2\n2 2 2 1 1 1 2 4\n3 2 2 1 1 2 3 4\n4 2 2 1 1 1 4 3\n"
         "5 4 2 2 2 1 2 3 4\n$EndElements\n";
  std::ofstream(dir_ / "cases" / "case.toml")
      << "[mesh]\ntype = \"unstructured\"\nfile = \"one.msh\"\n[boundary]\nwall = \"slip_wall\"\n"
         "[initial]\ntype = \"uniform\"\ndensity = 1.0\npressure = 1.0\n"
         "[time]\nend_time = 0.01\n[output]\nenabled = false\nprogress_every = 0\n";
  const Result r = run("run cases/case.toml");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("1 cells, 4 faces"), std::string::npos) << r.output;
}

TEST_F(TesseraCli, UnstructuredMeshFileMissing) {
  const std::string box =
      "box = { upper = [1.0, 0.05, 0.05], cells = [20, 1, 1], shape = \"tetrahedra\" }\n";
  expectError(replaced(unstructuredCase(), box, "file = \"nowhere.msh\"\n"), "", 3,
              {"mesh.file", "nowhere.msh"});
}

TEST_F(TesseraCli, UnstructuredMeshTwice) {
  expectError(unstructuredCase(), "--set mesh.file=x.msh", 8, {"mesh.box", "not both"});
}

TEST_F(TesseraCli, UnstructuredUnknownShape) {
  expectError(unstructuredCase(), "--set mesh.box.shape=cubes", 7,
              {"mesh.box.shape", "\"cubes\"", "\"tetrahedra\""});
}

TEST_F(TesseraCli, UnstructuredTagWithoutCondition) {
  expectError(replaced(unstructuredCase(), "yhi = \"slip_wall\"\n", ""), "", 9,
              {"case.toml", "tag 4 (yhi)", "boundary.yhi", "boundary.4", "\"farfield\""});
}

TEST_F(TesseraCli, UnstructuredTagSetTwice) {
  expectError(unstructuredCase(), "--set boundary.4=outflow", 8, {"boundary.4", "boundary.yhi"});
}

TEST_F(TesseraCli, UnstructuredUnknownBoundaryKind) {
  expectError(unstructuredCase(), "--set boundary.xlo=wall", 7, {"boundary.xlo", "\"wall\""});
}

TEST_F(TesseraCli, UnstructuredBoundaryOfNoTag) {
  expectError(unstructuredCase(), "--set boundary.inlet=farfield", 5, {"boundary.inlet"});
}

TEST_F(TesseraCli, UnstructuredFarfieldNeedsItsState) {
  expectError(unstructuredCase(), "--set boundary.xlo=farfield", 9, {"farfield.density"});
}

TEST_F(TesseraCli, ImplicitCflRampMustNotShrink) {
  expectError(unstructuredCase(),
              "--set implicit.enabled=true --set implicit.cfl=100 --set implicit.cfl_max=10", 8,
              {"implicit.cfl_max", "implicit.cfl"});
}

TEST_F(TesseraCli, ImplicitUnknownPrecision) {
  expectError(unstructuredCase(), "--set implicit.enabled=true --set implicit.precision=half", 7,
              {"implicit.precision", "\"half\"", "\"mixed\"", "\"fp64\""});
}

TEST_F(TesseraCli, BumpHigherThanTheChannel) {
  const std::string withBump =
      replaced(unstructuredCase(), "shape = \"tetrahedra\" }",
               "shape = \"tetrahedra\", bump = { height = 2.0, from = 0.2, to = 0.4 } }");
  expectError(withBump, "", 7, {"mesh.box.bump.height", "2"});
}

TEST_F(TesseraCli, UnstructuredUnknownStrategy) {
  expectError(unstructuredCase(), "--set unstructured.wave_speed_strategy=fastest", 7,
              {"unstructured.wave_speed_strategy", "\"fastest\"", "\"global_atomic\""});
}

// One field ("dt", "patches", ...) of every step record in a run's log.jsonl, in order.
std::vector<double> stepField(const fs::path& logFile, const std::string& field) {
  std::vector<double> values;
  std::ifstream in(logFile);
  const std::string key = "\"" + field + "\":";
  for (std::string line; std::getline(in, line);) {
    const std::size_t at = line.find(key);
    if (line.find("\"event\":\"step\"") != std::string::npos && at != std::string::npos)
      values.push_back(std::stod(line.substr(at + key.size())));
  }
  return values;
}

// tessera on two MPI ranks (mpiexec, oversubscribed): the unstructured case takes the one-rank
// run's steps, each dt within 1e-12 relative (the ranks add a cell's face fluxes in another
// order), and every output's .pvtu names a piece per rank.
TEST_F(TesseraCli, UnstructuredCaseOnTwoRanksTakesTheOneRankSteps) {
  const std::string caseFile = writeCase(unstructuredCase()).string();
  const auto [one, two] = runOnOneAndTwoRanks("run " + caseFile);
  ASSERT_EQ(one.exitCode, 0) << one.output;
  ASSERT_EQ(two.exitCode, 0) << two.output;
  const std::vector<double> dtOne = stepField(dir_ / "one" / "log.jsonl", "dt");
  const std::vector<double> dtTwo = stepField(dir_ / "two" / "log.jsonl", "dt");
  ASSERT_FALSE(dtOne.empty());
  ASSERT_EQ(dtTwo.size(), dtOne.size());
  for (std::size_t i = 0; i < dtOne.size(); ++i)
    EXPECT_NEAR(dtTwo[i], dtOne[i], 1e-12 * dtOne[i]) << "step " << i + 1;
#if TESSERA_HAS_VTK
  int outputs = 0;
  for (const auto& entry : fs::directory_iterator(dir_ / "two"))
    if (entry.path().extension() == ".pvtu") {
      EXPECT_EQ(occurrences(entry.path(), "<Piece"), 2) << entry.path();
      ++outputs;
    }
  EXPECT_GT(outputs, 0);
#endif
}

// The relative residual that `tessera run` reports at the end of an implicit run (its summary).
double finalRelativeResidual(const std::string& output) {
  const std::string marker = "density residual dropped to ";
  const std::size_t at = output.rfind(marker);
  return at == std::string::npos ? -1.0 : std::stod(output.substr(at + marker.size()));
}

// The unstructured scheme's, the forces' and the implicit Jacobian's keys: names outside their
// choices, numbers outside their ranges, a limiter's keys in a first-order case (which reads
// none), a lift direction along the freestream: each an error naming the key and the value.
TEST_F(TesseraCli, UnstructuredSchemeAndForceKeysAreChecked) {
  expectError(unstructuredCase(), "--set unstructured.limiter=minmod", 7,
              {"unstructured.limiter", "\"minmod\"", "\"venkatakrishnan\""});
  expectError(unstructuredCase(), "--set unstructured.riemann_solver=ausm", 7,
              {"unstructured.riemann_solver", "\"ausm\"", "\"roe\""});
  expectError(unstructuredCase(), "--set unstructured.gradient=node", 7,
              {"unstructured.gradient", "\"node\"", "\"least_squares\""});
  expectError(unstructuredCase(), "--set unstructured.venkatakrishnan_k=0", 7,
              {"unstructured.venkatakrishnan_k", "0"});
  expectError(unstructuredCase(), "--set time.integrator=rk4", 7,
              {"time.integrator", "\"rk4\"", "\"ssp_rk3\""});
  expectError(unstructuredCase(),
              "--set unstructured.reconstruction=first_order --set unstructured.limiter=none", 5,
              {"unstructured.limiter"});
  expectError(unstructuredCase(), "--set forces.reference_area=-1", 7,
              {"forces.reference_area", "-1"});
  expectError(unstructuredCase(), "--set 'forces.lift_direction=[0, 1, 0]'", 8,
              {"forces.lift_direction", "farfield"});
  const Result jacobian =
      run("run '" TESSERA_SOURCE_DIR "/examples/unstructured/bump_implicit.toml' --set "
          "implicit.jacobian=newton --set output.enabled=false");
  EXPECT_EQ(jacobian.exitCode, 7) << jacobian.output;
  for (const char* part : {"implicit.jacobian", "\"newton\"", "\"roe\"", "\"rusanov\""})
    EXPECT_NE(jacobian.output.find(part), std::string::npos) << part << " in " << jacobian.output;
}

// The NACA 0012 examples run as they are on the smallest mesh of their family (32 x 16
// quadrilaterals, tests/data/naca0012_32.msh, made by the example's naca0012.geo with cells = 32):
// their keys are all valid, the implicit iteration converges, and the coefficients come out
// plausible for so coarse a mesh (the family's finer meshes: benchmarks/RESULTS.md): the
// transonic case lifts more and, with its shocks, drags more than the subsonic one (whose drag,
// zero for the exact flow, is still 0.037 on this mesh).
TEST_F(TesseraCli, TheNacaExamplesConvergeOnTheirSmallestMesh) {
  const auto coefficient = [](const std::string& output, const std::string& name) {
    const std::size_t at = output.rfind(name + " ");
    return at == std::string::npos ? std::nan("") : std::stod(output.substr(at + name.size() + 1));
  };
  double lift[2], drag[2];
  for (int transonic : {0, 1}) {
    const Result r = run("run '" TESSERA_SOURCE_DIR "/examples/unstructured/naca0012/naca0012_" +
                         std::string(transonic ? "transonic" : "subsonic") +
                         ".toml' --set 'mesh.file=\"" TESSERA_SOURCE_DIR
                         "/tests/data/naca0012_32.msh\"' --set output.enabled=false");
    ASSERT_EQ(r.exitCode, 0) << r.output;
    // Beside their Roe residual, Roe's Jacobian and its CFL limit by default.
    EXPECT_NE(r.output.find("implicit (roe's Jacobian, CFL up to 100,"), std::string::npos)
        << r.output;
    EXPECT_LE(finalRelativeResidual(r.output), 1e-8) << r.output;
    lift[transonic] = coefficient(r.output, "lift");
    drag[transonic] = coefficient(r.output, "drag");
  }
  EXPECT_GT(lift[0], 0.05);
  EXPECT_GT(lift[1], lift[0]);
  EXPECT_LT(lift[1], 0.5);
  EXPECT_GT(drag[1], drag[0]);
}

// tessera on two MPI ranks: the implicit bump case (coarsened to 30 x 10 x 2 hexahedra, fp64)
// takes as many iterations as on one rank to the same residual drop, and ends at the same
// relative residual to 1e-6 (the sweeps add in another order on each rank; the early steps
// amplify that, tests/mpi/test_distributed_implicit.cpp).
TEST_F(TesseraCli, ImplicitCaseOnTwoRanksTakesTheOneRankIterations) {
  const std::string args =
      "run '" TESSERA_SOURCE_DIR "/examples/unstructured/bump_implicit.toml' --set "
      "'mesh.box.cells=[30, 10, 2]' --set 'implicit.precision=\"fp64\"' --set "
      "implicit.residual_drop=1e-6 --set output.enabled=false";
  const auto [one, two] = runOnOneAndTwoRanks(args);
  ASSERT_EQ(one.exitCode, 0) << one.output;
  ASSERT_EQ(two.exitCode, 0) << two.output;
  EXPECT_NE(two.output.find("2 ranks"), std::string::npos) << two.output;
  const double residualOne = finalRelativeResidual(one.output);
  ASSERT_GT(residualOne, 0.0) << one.output;
  ASSERT_LE(residualOne, 1e-6) << one.output;
  EXPECT_NEAR(finalRelativeResidual(two.output), residualOne, 1e-6 * residualOne) << two.output;
  const auto iterations = [](const std::string& output) {
    const std::string marker = "tessera: finished at iteration ";
    const std::size_t at = output.rfind(marker);
    return at == std::string::npos ? -1 : std::stoi(output.substr(at + marker.size()));
  };
  EXPECT_EQ(iterations(two.output), iterations(one.output));
}

// tessera on two MPI ranks: the adaptive case takes exactly the one-rank run's steps on the same
// meshes (every rank computes its patches as one rank would, tests/mpi/test_distributed_amr.cpp),
// and every output's .pvtu names a piece per rank, each with its rank array.
TEST_F(TesseraCli, AmrCaseOnTwoRanksTakesTheOneRankSteps) {
  const std::string caseFile = writeCase(sedovCase()).string();
  const auto [one, two] = runOnOneAndTwoRanks("run " + caseFile);
  ASSERT_EQ(one.exitCode, 0) << one.output;
  ASSERT_EQ(two.exitCode, 0) << two.output;
  EXPECT_NE(two.output.find("2 ranks"), std::string::npos) << two.output;
  const std::vector<double> dtOne = stepField(dir_ / "one" / "log.jsonl", "dt");
  ASSERT_FALSE(dtOne.empty());
  EXPECT_EQ(stepField(dir_ / "two" / "log.jsonl", "dt"), dtOne);
  const std::vector<double> patchesOne = stepField(dir_ / "one" / "log.jsonl", "patches");
  EXPECT_GT(patchesOne.back(), patchesOne.front()) << "the blast did not refine";
  EXPECT_EQ(stepField(dir_ / "two" / "log.jsonl", "patches"), patchesOne);
#if TESSERA_HAS_VTK
  int outputs = 0;
  for (const auto& entry : fs::directory_iterator(dir_ / "two"))
    if (entry.path().extension() == ".pvtu") {
      EXPECT_EQ(occurrences(entry.path(), "<Piece"), 2) << entry.path();
      fs::path pieces = entry.path();
      pieces.replace_extension();
      for (const char* piece : {"rank_0.vtu", "rank_1.vtu"})
        EXPECT_EQ(occurrences(pieces / piece, "Name=\"rank\""), 1) << pieces / piece;
      ++outputs;
    }
  EXPECT_EQ(outputs, 3);
#endif
}

// A program of its own through the case runner: the double Mach reflection's, which adds an
// initial state and a boundary hook to Tessera's Euler system by name. It runs its case file,
// continues from a checkpoint bit for bit, and refuses what it does not register, naming the key.
TEST_F(TesseraCli, DoubleMachRunsAsACaseOfItsOwnProgram) {
  const std::string program = "'" TESSERA_DOUBLE_MACH "'";
  const std::string theCase = "'" TESSERA_SOURCE_DIR "/examples/double_mach/double_mach.toml'";
  const std::string shortRun = " --quiet --set time.end_time=0.003 --set output.enabled=false "
                               "--set amr.max_level=1 --set checkpoint.keep=100 ";
  const Result whole = shell(program + " run " + theCase + shortRun +
                             "--set checkpoint.every_steps=4 --set 'output.directory=\"whole\"'");
  ASSERT_EQ(whole.exitCode, 0) << whole.output;
  const Result continued = shell(
      program + " run " + theCase + shortRun +
      "--set 'output.directory=\"continued\"' --restart whole/checkpoints/checkpoint_00000004");
  ASSERT_EQ(continued.exitCode, 0) << continued.output;
  std::string last;
  for (const auto& entry : fs::directory_iterator(dir_ / "whole" / "checkpoints"))
    last = std::max(last, entry.path().filename().string());
  ASSERT_GT(last, "checkpoint_00000004") << "the run should take more than four steps";
  EXPECT_EQ(fileText(dir_ / "whole" / "checkpoints" / last / "state.bin"),
            fileText(dir_ / "continued" / "checkpoints" / last / "state.bin"))
      << "the continued run's " << last << " differs from the whole run's";

  const Result threeD = shell(program + " run " + theCase + " --set mesh.dimension=3");
  EXPECT_EQ(threeD.exitCode, 8) << threeD.output;
  EXPECT_NE(threeD.output.find("physics.system = \"euler\" runs in 2D only"), std::string::npos)
      << threeD.output;
  const Result hook = shell(program + " info " + theCase + " --set boundary.hook='\"wedge\"'");
  EXPECT_EQ(hook.exitCode, 7) << hook.output;
  EXPECT_NE(hook.output.find("\"double_mach\""), std::string::npos) << hook.output;
  // The tessera program registers no hook: the key is unknown there.
  const Result plain = run("info " + theCase);
  EXPECT_EQ(plain.exitCode, 7) << plain.output;
  EXPECT_NE(plain.output.find("initial.type"), std::string::npos) << plain.output;
}

// Gravity's cases: the examples run and say they are well balanced, `info` names the source term,
// and what cannot be well balanced or has no gravity to balance is refused naming the key.
TEST_F(TesseraCli, GravityCasesRunAndAreChecked) {
  const std::string atmosphere = "'" TESSERA_SOURCE_DIR "/examples/gravity/hydrostatic.toml'";
  const Result info = run("info " + atmosphere);
  ASSERT_EQ(info.exitCode, 0) << info.output;
  EXPECT_NE(info.output.find("source (source terms, added in every stage)"), std::string::npos)
      << info.output;
  const Result r =
      run("run " + atmosphere + " --set time.end_time=0.02 --set output.enabled=false");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("well balanced"), std::string::npos) << r.output;
  const Result rt = run("run '" TESSERA_SOURCE_DIR "/examples/gravity/rayleigh_taylor.toml' --set "
                        "time.end_time=0.01 --set output.enabled=false");
  ASSERT_EQ(rt.exitCode, 0) << rt.output;

  fs::remove_all(dir_ / "output"); // the refused cases below must not write one
  expectError(sodCase(), "--set physics.well_balanced=true", 8,
              {"physics.well_balanced", "\"riemann\""});
  expectError(fileText(TESSERA_SOURCE_DIR "/examples/gravity/hydrostatic.toml"),
              "--set 'physics.gravity=[0.0, 0.0]'", 8, {"physics.gravity", "hydrostatic"});
  expectError(fileText(TESSERA_SOURCE_DIR "/examples/gravity/rayleigh_taylor.toml"),
              "--set 'physics.gravity=[0.1, -0.1]'", 8, {"physics.gravity", "last axis"});
}

} // namespace
