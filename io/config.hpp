#pragma once
// Case configuration: a TOML file (toml++) plus `--set key=value` overrides. Every read names its
// key, so a value of the wrong type or out of range, a key nobody read and a missing required key
// are errors that name the source (file or --set), the key and the value. What was read, defaults
// included, is the effective configuration written next to the output.
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// HIP's and CUDA's runtime headers define __noinline__ as a macro, which breaks toml++'s
// __has_attribute(__noinline__) test when a device-build translation unit includes them first.
#pragma push_macro("__noinline__")
#undef __noinline__
#include <toml++/toml.h>
#pragma pop_macro("__noinline__")

namespace tessera::io {

// Each kind of bad configuration has its own process exit code (README lists them).
enum class ConfigErrorKind {
  Usage = 2,        // command line not understood
  Unreadable = 3,   // the case file cannot be opened
  Syntax = 4,       // not valid TOML, or a --set that is not key=value
  UnknownKey = 5,   // a key that nothing reads (misspelt, or not used by this case)
  WrongType = 6,    // e.g. a string where a number belongs, or a vector of the wrong length
  OutOfRange = 7,   // a number outside its range or a name outside its choices
  Inconsistent = 8, // values that are fine alone but not together
  MissingKey = 9,   // a required key is absent
  Unavailable = 12, // asks for what this build or machine lacks (a GPU back end)
};

class ConfigError : public std::runtime_error {
public:
  ConfigError(ConfigErrorKind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  ConfigErrorKind kind() const { return kind_; }
  int exitCode() const { return static_cast<int>(kind_); }

private:
  ConfigErrorKind kind_;
};

// The largest case file read (a case is a few kilobytes; output.times with a million entries
// about 20 MB).
inline constexpr std::size_t kLargestCaseFile = std::size_t(64) << 20;

// The shortest text that reads back as x (for messages that quote numbers).
std::string formatNumber(double x);

// A string as a message quotes it: in double quotes, control characters (a NUL among them)
// escaped as \u0000, and at most kQuotedCharacters of it, a longer one cut with its whole length
// said, so that neither a terminal nor a log takes the message apart.
inline constexpr std::size_t kQuotedCharacters = 200;
// A control character (below 0x20, or DEL), which a message escapes and a name may not hold.
constexpr bool isControlCharacter(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7F;
}
std::string quotedForMessage(std::string_view text);
// The text as it is where it is short and plain, quoted as above otherwise (a --set as typed).
std::string shownForMessage(std::string_view text);

// No number a case gives may exceed this in magnitude (its square must not overflow).
inline constexpr double kLargestMagnitude = 1e100;

// An interval of admissible numbers; open or closed at either end; finite and at most
// kLargestMagnitude in magnitude whatever its ends.
struct Range {
  double lo = -INFINITY, hi = INFINITY;
  bool loOpen = false, hiOpen = false;

  static Range closed(double lo, double hi) { return {lo, hi, false, false}; }
  static Range positive() { return {0.0, INFINITY, true, false}; }
  static Range atLeast(double lo) { return {lo, INFINITY, false, false}; }
  bool contains(double x) const;
  std::string describe() const;
};

class Config {
public:
  // Parses a case file; Unreadable or Syntax errors name the file (and line and column).
  static Config fromFile(const std::filesystem::path& file);
  static Config fromString(std::string_view toml, std::string sourceName);

  // Applies `key=value`; the value is TOML (numbers, arrays, quoted or bare strings).
  void applyOverride(std::string_view assignment);

  double getDouble(const std::string& key, std::optional<double> fallback, Range range = {});
  int getInt(const std::string& key, std::optional<int> fallback, Range range = {});
  bool getBool(const std::string& key, std::optional<bool> fallback);
  std::string getString(const std::string& key, std::optional<std::string> fallback);
  std::string getChoice(const std::string& key, std::optional<std::string> fallback,
                        const std::vector<std::string>& choices);
  // A non-empty array of strings, each one of `choices` and none twice.
  std::vector<std::string> getChoices(const std::string& key,
                                      std::optional<std::vector<std::string>> fallback,
                                      const std::vector<std::string>& choices);
  // getDoubles and getInts with this size take an array of any length.
  static constexpr std::size_t kAnyLength = std::size_t(-1);
  std::vector<double> getDoubles(const std::string& key,
                                 std::optional<std::vector<double>> fallback, std::size_t size,
                                 Range range = {});
  std::vector<int> getInts(const std::string& key, std::optional<std::vector<int>> fallback,
                           std::size_t size, Range range = {});
  bool has(const std::string& key) const;
  // The names of the keys in the table `key`, sorted (none where it is absent; a
  // WrongType error where it is not a table). Each key is then read by a get*() call; an empty
  // table counts as read.
  std::vector<std::string> keysOf(const std::string& key);

  // The keys under `prefix` (e.g. "amr") that this case does not use because another setting
  // turns their feature off (`reason`, e.g. "amr.max_level = 0 turns adaptivity off"): not
  // errors; rejectUnreadKeys prints a warning for each one given.
  void ignoreUnused(const std::string& prefix, const std::string& reason);

  // Prints the warnings of ignoreUnused, then throws UnknownKey naming the first key that no
  // get*() call read, with the nearest key this case does read where one is close ("did you
  // mean").
  void rejectUnreadKeys() const;

  // Throws an Inconsistent error that names the key and its current value.
  [[noreturn]] void fail(ConfigErrorKind kind, const std::string& key,
                         const std::string& reason) const;

  // The effective configuration: everything read, with defaults filled in.
  const toml::table& effective() const { return effective_; }
  std::string effectiveToml() const;
  const std::string& sourceName() const { return sourceName_; }

private:
  Config(toml::table table, std::string sourceName);
  const toml::node* find(const std::string& key) const;
  std::string where(const std::string& key) const; // "file.toml: key" or "--set key"
  std::string valueText(const std::string& key) const;
  // Throws ConfigError (WrongType) where a table that would hold `key` is a value instead
  // (`time = 1`, `initial.left = 3`, an array of tables [[mesh]]).
  void checkSections(const std::string& key) const;
  template <class T>
  void record(const std::string& key, T value);
  template <class T, class Convert>
  T get(const std::string& key, const std::optional<T>& fallback, const std::string& expected,
        Convert&& convert);
  template <class T>
  std::vector<T> getArray(const std::string& key, const std::optional<std::vector<T>>& fallback,
                          std::size_t size, Range range);

  toml::table table_;
  toml::table effective_;
  std::string sourceName_;
  std::set<std::string> overridden_;
  mutable std::set<std::string> read_;
  std::map<std::string, std::string> ignored_; // key -> why it is not used
};

} // namespace tessera::io
