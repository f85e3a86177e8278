// Configuration reading: each kind of mistake is reported with its kind, the source, the key and
// the value; overrides from --set replace file values and are named as such.
#include <functional>
#include <gtest/gtest.h>

#include "io/config.hpp"

namespace tessera::io {
namespace {

ConfigError errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no ConfigError thrown";
  return ConfigError(ConfigErrorKind::Usage, "");
}

void expectContains(const std::string& text, const std::vector<std::string>& parts) {
  for (const auto& part : parts)
    EXPECT_NE(text.find(part), std::string::npos) << "'" << part << "' not in: " << text;
}

TEST(Config, ReadsValuesAndFillsDefaultsIntoTheEffectiveConfiguration) {
  Config cfg = Config::fromString("[mesh]\ncells_per_patch = 8\nlower = [0, 0.5]\n", "case.toml");
  EXPECT_EQ(cfg.getInt("mesh.cells_per_patch", 16, Range::closed(2, 128)), 8);
  EXPECT_EQ(cfg.getDoubles("mesh.lower", std::nullopt, 2), (std::vector<double>{0.0, 0.5}));
  EXPECT_DOUBLE_EQ(cfg.getDouble("time.cfl", 0.4), 0.4);
  cfg.rejectUnreadKeys();
  const std::string effective = cfg.effectiveToml();
  expectContains(effective, {"cells_per_patch = 8", "cfl = 0.4"});
}

// Found by fuzz_case: an integer that a double does not hold exactly, where a number is read,
// crashed the reader (std::bad_optional_access); it is read at its nearest double.
TEST(Config, ReadsIntegersBeyondDoublePrecisionAsNumbers) {
  Config cfg = Config::fromString("upper = [1.0, 1111111111111111111]\nend = 1111111111111111111\n",
                                  "case.toml");
  EXPECT_EQ(cfg.getDoubles("upper", std::nullopt, 2),
            (std::vector<double>{1.0, 1111111111111111111.0}));
  EXPECT_EQ(cfg.getDouble("end", std::nullopt), 1111111111111111111.0);
}

TEST(Config, SyntaxErrorNamesFileAndLine) {
  const auto e = errorOf([] { Config::fromString("[mesh]\ncells = = 3\n", "bad.toml"); });
  EXPECT_EQ(e.kind(), ConfigErrorKind::Syntax);
  expectContains(e.what(), {"bad.toml:2:"});
}

TEST(Config, UnreadableFile) {
  const auto e = errorOf([] { Config::fromFile("/nonexistent/case.toml"); });
  EXPECT_EQ(e.kind(), ConfigErrorKind::Unreadable);
  expectContains(e.what(), {"/nonexistent/case.toml"});
}

TEST(Config, UnknownKeyNamesFileLineKeyAndValue) {
  Config cfg = Config::fromString("[time]\ncfl = 0.3\nend_tme = 2.0\n", "case.toml");
  cfg.getDouble("time.cfl", 0.4);
  const auto e = errorOf([&] { cfg.rejectUnreadKeys(); });
  EXPECT_EQ(e.kind(), ConfigErrorKind::UnknownKey);
  expectContains(e.what(), {"case.toml:3", "time.end_tme", "2.0"});
}

TEST(Config, WrongTypeNamesKeyAndValue) {
  Config cfg = Config::fromString("[mesh]\ncells_per_patch = \"sixteen\"\n", "case.toml");
  const auto e = errorOf([&] { cfg.getInt("mesh.cells_per_patch", 16); });
  EXPECT_EQ(e.kind(), ConfigErrorKind::WrongType);
  expectContains(e.what(), {"case.toml:2", "mesh.cells_per_patch", "\"sixteen\"", "integer"});
  Config floats = Config::fromString("n = 2.5\nv = [1, 2]\n", "f.toml");
  EXPECT_EQ(errorOf([&] { floats.getInt("n", 1); }).kind(), ConfigErrorKind::WrongType);
  EXPECT_EQ(errorOf([&] { floats.getDoubles("v", std::nullopt, 3); }).kind(),
            ConfigErrorKind::WrongType);
}

TEST(Config, OutOfRangeNamesTheRange) {
  Config cfg = Config::fromString("[time]\ncfl = 1.5\n", "case.toml");
  const auto e = errorOf([&] { cfg.getDouble("time.cfl", 0.4, Range{0.0, 0.5, true, false}); });
  EXPECT_EQ(e.kind(), ConfigErrorKind::OutOfRange);
  expectContains(e.what(), {"time.cfl", "1.5", "(0, 0.5]"});
}

TEST(Config, ChoiceOutsideTheListIsOutOfRange) {
  Config cfg = Config::fromString("[boundary]\nx_lower = \"wall\"\n", "case.toml");
  const auto e = errorOf([&] {
    cfg.getChoice("boundary.x_lower", "outflow", {"outflow", "reflecting"});
  });
  EXPECT_EQ(e.kind(), ConfigErrorKind::OutOfRange);
  expectContains(e.what(), {"boundary.x_lower", "\"wall\"", "\"outflow\", \"reflecting\""});
}

TEST(Config, MissingRequiredKey) {
  Config cfg = Config::fromString("", "case.toml");
  const auto e = errorOf([&] { cfg.getDouble("time.end_time", std::nullopt); });
  EXPECT_EQ(e.kind(), ConfigErrorKind::MissingKey);
  expectContains(e.what(), {"case.toml", "time.end_time"});
}

TEST(Config, OverridesReplaceFileValuesAndAreNamedInErrors) {
  Config cfg = Config::fromString("[time]\ncfl = 0.3\n", "case.toml");
  cfg.applyOverride("time.cfl=0.25");
  cfg.applyOverride("initial.type=sedov"); // a bare word is a string
  cfg.applyOverride("mesh.patches=[4, 2]");
  EXPECT_DOUBLE_EQ(cfg.getDouble("time.cfl", std::nullopt), 0.25);
  EXPECT_EQ(cfg.getString("initial.type", std::nullopt), "sedov");
  EXPECT_EQ(cfg.getInts("mesh.patches", std::nullopt, 2), (std::vector<int>{4, 2}));
  cfg.applyOverride("time.end_time=-1");
  const auto e = errorOf([&] { cfg.getDouble("time.end_time", 1.0, Range::positive()); });
  EXPECT_EQ(e.kind(), ConfigErrorKind::OutOfRange);
  expectContains(e.what(), {"--set time.end_time", "-1"});
}

TEST(Config, MalformedOverride) {
  Config cfg = Config::fromString("", "case.toml");
  EXPECT_EQ(errorOf([&] { cfg.applyOverride("time.cfl"); }).kind(), ConfigErrorKind::Syntax);
  EXPECT_EQ(errorOf([&] { cfg.applyOverride("=3"); }).kind(), ConfigErrorKind::Syntax);
  cfg.applyOverride("time.cfl=0.3");
  EXPECT_EQ(errorOf([&] { cfg.applyOverride("time.cfl.x=1"); }).kind(), ConfigErrorKind::WrongType);
}

} // namespace
} // namespace tessera::io
