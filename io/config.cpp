#include "io/config.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <system_error>
#include <type_traits>

namespace tessera::io {
namespace {

std::vector<std::string> splitKey(const std::string& key) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = key.find('.', start);
    parts.push_back(key.substr(start, dot - start));
    if (dot == std::string::npos)
      return parts;
    start = dot + 1;
  }
}

// Inserts `value` at a dotted key, creating tables on the way; false where a non-table is in the
// way (e.g. "mesh.dimension.x" when mesh.dimension is a number).
template <class T>
bool insertAt(toml::table& root, const std::string& key, T&& value) {
  const std::vector<std::string> parts = splitKey(key);
  toml::table* t = &root;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    auto [it, inserted] = t->insert(parts[i], toml::table{});
    t = it->second.as_table();
    if (!t)
      return false;
  }
  t->insert_or_assign(parts.back(), std::forward<T>(value));
  return true;
}

void collectLeafKeys(const toml::table& t, const std::string& prefix,
                     std::vector<std::string>& out) {
  for (const auto& [k, node] : t) {
    const std::string key =
        prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const toml::table* sub = node.as_table(); sub && !sub->empty())
      collectLeafKeys(*sub, key, out);
    else
      out.push_back(key);
  }
}

// Arrays longer than this show their first entries and their length.
constexpr std::size_t kQuotedEntries = 20;

// A value as the user would have written it: shortest round-trip numbers ("0.7", where toml++
// prints 0.69999999999999996) and "basic" strings (toml++ prints 'literal' ones), long strings
// and arrays cut (quotedForMessage).
std::string formatValue(const toml::node& n) {
  if (const auto* s = n.as_string())
    return quotedForMessage(s->get());
  if (const auto* f = n.as_floating_point()) {
    const std::string text = formatNumber(f->get());
    return text.find_first_of(".ein") == std::string::npos ? text + ".0" : text; // 2.0, not 2
  }
  if (const auto* a = n.as_array()) {
    std::string text = "[";
    const std::size_t shown = std::min(a->size(), kQuotedEntries);
    for (std::size_t i = 0; i < shown; ++i)
      text += (i ? ", " : "") + formatValue(*a->get(i));
    if (shown < a->size())
      text += ", ... (" + std::to_string(a->size()) + " entries)";
    return text + "]";
  }
  if (const auto* t = n.as_table())
    return t->empty() ? "{}" : "{...}";
  std::ostringstream os;
  n.visit([&](const auto& v) { os << v; });
  return os.str();
}

} // namespace

std::string shownForMessage(std::string_view text) {
  const bool plain = text.size() <= kQuotedCharacters &&
                     std::none_of(text.begin(), text.end(),
                                  [](char c) { return isControlCharacter(c) || c == '"'; });
  return plain ? std::string(text) : quotedForMessage(text);
}

std::string quotedForMessage(std::string_view text) {
  std::size_t end = std::min(text.size(), kQuotedCharacters);
  while (end < text.size() && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
    --end; // not within a UTF-8 character
  std::string quoted = "\"";
  for (const char c : text.substr(0, end)) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (isControlCharacter(c)) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
      quoted += escape;
    } else {
      quoted += c;
    }
  }
  quoted += '"';
  if (end < text.size())
    quoted += "... (" + std::to_string(text.size()) + " characters)";
  return quoted;
}

namespace {

// The edit distance (insertions, deletions, substitutions) between two keys.
std::size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The known key nearest to a misspelt one, if it is near enough to be what was meant: at most a
// third of the key's length away, and no more than 3 edits.
std::string nearestKey(const std::string& key, const std::set<std::string>& known) {
  std::string best;
  std::size_t bestDistance = std::min<std::size_t>(3, key.size() / 3) + 1;
  for (const std::string& candidate : known)
    if (const std::size_t d = editDistance(key, candidate); d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  return best;
}

// A TOML number as a double. toml++'s value<double>() gives nothing for an integer a double does
// not hold exactly (1111111111111111111): such an integer is taken at its nearest double, which
// the range checks then judge.
double numberOf(const toml::node& n) {
  if (const auto* integer = n.as_integer())
    return double(integer->get());
  return n.as_floating_point()->get();
}

} // namespace

std::string formatNumber(double x) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
}

bool Range::contains(double x) const {
  // No key takes inf or nan (an infinite end time or size is a mistake), nor a magnitude whose
  // square would overflow (a velocity of 1e200 makes an infinite energy).
  if (!std::isfinite(x) || std::fabs(x) > kLargestMagnitude)
    return false;
  const bool aboveLo = loOpen ? x > lo : x >= lo;
  const bool belowHi = hiOpen ? x < hi : x <= hi;
  return aboveLo && belowHi;
}

std::string Range::describe() const {
  const std::string lower = formatNumber(std::isinf(lo) ? -kLargestMagnitude : lo);
  const std::string upper = std::isinf(hi) ? formatNumber(kLargestMagnitude) : formatNumber(hi);
  return std::string(loOpen && !std::isinf(lo) ? "(" : "[") + lower + ", " + upper +
         (hiOpen && !std::isinf(hi) ? ")" : "]");
}

Config::Config(toml::table table, std::string sourceName)
    : table_(std::move(table)), sourceName_(std::move(sourceName)) {}

Config Config::fromFile(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw ConfigError(ConfigErrorKind::Unreadable,
                      file.string() + ": is a folder, not a case file (a .toml file)");
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw ConfigError(ConfigErrorKind::Unreadable,
                      file.string() + ": cannot open the case file for reading");
  // Read in pieces up to the bound: a device such as /dev/zero, or a file that is not a case, is
  // refused there instead of filling memory.
  std::string text;
  std::vector<char> chunk(std::size_t(1) << 16);
  while (in.read(chunk.data(), std::streamsize(chunk.size())) || in.gcount() > 0) {
    text.append(chunk.data(), std::size_t(in.gcount()));
    if (text.size() > kLargestCaseFile)
      throw ConfigError(ConfigErrorKind::Unreadable, file.string() + ": larger than " +
                                                         std::to_string(kLargestCaseFile >> 20) +
                                                         " MiB, not a case file");
  }
  return fromString(text, file.string());
}

Config Config::fromString(std::string_view toml, std::string sourceName) {
  try {
    return Config(toml::parse(toml, sourceName), sourceName);
  } catch (const toml::parse_error& e) {
    throw ConfigError(ConfigErrorKind::Syntax,
                      sourceName + ":" + std::to_string(e.source().begin.line) + ":" +
                          std::to_string(e.source().begin.column) +
                          ": not valid TOML: " + std::string(e.description()));
  }
}

void Config::applyOverride(std::string_view assignment) {
  const std::size_t eq = assignment.find('=');
  const std::string key(assignment.substr(0, eq));
  const std::vector<std::string> parts = splitKey(key);
  const bool emptyPart =
      std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); });
  if (eq == std::string_view::npos || emptyPart || key.find(' ') != std::string::npos)
    throw ConfigError(ConfigErrorKind::Syntax, "--set " + shownForMessage(assignment) +
                                                   ": expected key=value, e.g. time.cfl=0.3");
  const std::string value(assignment.substr(eq + 1));
  // A line break would let the value add keys of its own ("1\nother.key = 2").
  if (value.find_first_of("\n\r") != std::string::npos)
    throw ConfigError(ConfigErrorKind::Syntax,
                      "--set " + key + ": the value must be one line (it holds a line break)");
  // The value is TOML when it parses as such; anything else is taken as a bare string.
  bool inserted = false;
  try {
    toml::table parsed = toml::parse("value = " + value);
    inserted = insertAt(table_, key, std::move(*parsed.get("value")));
  } catch (const toml::parse_error&) {
    inserted = insertAt(table_, key, value);
  }
  if (!inserted)
    throw ConfigError(ConfigErrorKind::WrongType,
                      "--set " + key + ": a part of this key is a value, not a table");
  overridden_.insert(key);
}

const toml::node* Config::find(const std::string& key) const {
  return table_.at_path(key).node();
}

bool Config::has(const std::string& key) const {
  return find(key) != nullptr;
}

std::vector<std::string> Config::keysOf(const std::string& key) {
  const toml::node* n = find(key);
  if (!n) {
    checkSections(key);
    return {};
  }
  const toml::table* table = n->as_table();
  if (!table)
    fail(ConfigErrorKind::WrongType, key,
         "expected a table of keys, e.g. " + key + " = { a = 1.0 }");
  std::vector<std::string> keys;
  for (const auto& [name, value] : *table)
    keys.emplace_back(name.str());
  if (keys.empty())
    record(key, toml::table{});
  return keys;
}

std::string Config::where(const std::string& key) const {
  // The key, or a table it lies in, came from --set (e.g. --set initial.left={density=1}).
  for (const std::string& set : overridden_)
    if (key == set || key.rfind(set + ".", 0) == 0)
      return "--set " + key;
  const toml::node* n = find(key);
  if (n && n->source().begin.line > 0)
    return sourceName_ + ":" + std::to_string(n->source().begin.line) + ": " + key;
  return sourceName_ + ": " + key;
}

void Config::checkSections(const std::string& key) const {
  for (std::size_t dot = key.find('.'); dot != std::string::npos; dot = key.find('.', dot + 1)) {
    const std::string section = key.substr(0, dot);
    const toml::node* n = find(section);
    if (!n)
      return;
    if (!n->is_table())
      fail(ConfigErrorKind::WrongType, section,
           "expected a table of keys (" + key + " lies in it), e.g. [" + section + "]");
  }
}

std::string Config::valueText(const std::string& key) const {
  const toml::node* n = find(key);
  return n ? formatValue(*n) : "(not set)";
}

void Config::fail(ConfigErrorKind kind, const std::string& key, const std::string& reason) const {
  throw ConfigError(kind, where(key) + " = " + valueText(key) + ": " + reason);
}

template <class T>
void Config::record(const std::string& key, T value) {
  read_.insert(key);
  insertAt(effective_, key, std::move(value));
}

template <class T, class Convert>
T Config::get(const std::string& key, const std::optional<T>& fallback, const std::string& expected,
              Convert&& convert) {
  const toml::node* n = find(key);
  if (!n)
    checkSections(key);
  if (!n && !fallback) {
    // Missing from a table that --set gave: name that --set, not the case file.
    std::string source = sourceName_;
    for (const std::string& set : overridden_)
      if (key.rfind(set + ".", 0) == 0)
        source = "--set " + set;
    throw ConfigError(ConfigErrorKind::MissingKey,
                      source + ": required key '" + key + "' is missing (" + expected + ")");
  }
  if (!n)
    return *fallback;
  read_.insert(key);
  return convert(*n);
}

double Config::getDouble(const std::string& key, std::optional<double> fallback, Range range) {
  const double x = get(key, fallback, "a number", [&](const toml::node& n) {
    if (!n.is_number())
      fail(ConfigErrorKind::WrongType, key, "expected a number");
    const double v = numberOf(n);
    if (!range.contains(v))
      fail(ConfigErrorKind::OutOfRange, key, "must be in " + range.describe());
    return v;
  });
  record(key, x);
  return x;
}

int Config::getInt(const std::string& key, std::optional<int> fallback, Range range) {
  const int x = get(key, fallback, "an integer", [&](const toml::node& n) {
    if (!n.is_integer())
      fail(ConfigErrorKind::WrongType, key, "expected an integer");
    const long long v = n.value<long long>().value();
    if (!range.contains(double(v)) || v > INT32_MAX || v < INT32_MIN)
      fail(ConfigErrorKind::OutOfRange, key, "must be an integer in " + range.describe());
    return int(v);
  });
  record(key, (long long)x);
  return x;
}

bool Config::getBool(const std::string& key, std::optional<bool> fallback) {
  const bool x = get(key, fallback, "true or false", [&](const toml::node& n) {
    if (!n.is_boolean())
      fail(ConfigErrorKind::WrongType, key, "expected true or false");
    return n.value<bool>().value();
  });
  record(key, x);
  return x;
}

std::string Config::getString(const std::string& key, std::optional<std::string> fallback) {
  const std::string x = get(key, fallback, "a string", [&](const toml::node& n) {
    if (!n.is_string())
      fail(ConfigErrorKind::WrongType, key, "expected a string");
    return n.value<std::string>().value();
  });
  record(key, x);
  return x;
}

std::string Config::getChoice(const std::string& key, std::optional<std::string> fallback,
                              const std::vector<std::string>& choices) {
  std::string list;
  for (const std::string& c : choices)
    list += (list.empty() ? "\"" : ", \"") + c + "\"";
  const std::string x = get(key, fallback, "one of " + list, [&](const toml::node& n) {
    if (!n.is_string())
      fail(ConfigErrorKind::WrongType, key, "expected one of " + list);
    return n.value<std::string>().value();
  });
  if (std::find(choices.begin(), choices.end(), x) == choices.end())
    fail(ConfigErrorKind::OutOfRange, key, "must be one of " + list);
  record(key, x);
  return x;
}

std::vector<std::string> Config::getChoices(const std::string& key,
                                            std::optional<std::vector<std::string>> fallback,
                                            const std::vector<std::string>& choices) {
  std::string list;
  for (const std::string& c : choices)
    list += (list.empty() ? "\"" : ", \"") + c + "\"";
  const std::string expected = "an array of some of " + list;
  const std::vector<std::string> x = get(key, fallback, expected, [&](const toml::node& n) {
    const toml::array* a = n.as_array();
    if (!a || a->empty())
      fail(ConfigErrorKind::WrongType, key, "expected " + expected);
    std::vector<std::string> values;
    for (const toml::node& e : *a) {
      if (!e.is_string())
        fail(ConfigErrorKind::WrongType, key, "expected " + expected);
      const std::string value = e.value<std::string>().value();
      if (std::find(choices.begin(), choices.end(), value) == choices.end())
        fail(ConfigErrorKind::OutOfRange, key,
             "has \"" + value + "\"; every entry must be one of " + list);
      if (std::find(values.begin(), values.end(), value) != values.end())
        fail(ConfigErrorKind::Inconsistent, key, "lists \"" + value + "\" twice");
      values.push_back(value);
    }
    return values;
  });
  toml::array recorded;
  for (const std::string& v : x)
    recorded.push_back(v);
  record(key, std::move(recorded));
  return x;
}

template <class T>
std::vector<T> Config::getArray(const std::string& key,
                                const std::optional<std::vector<T>>& fallback, std::size_t size,
                                Range range) {
  constexpr bool kInteger = std::is_same_v<T, int>;
  const std::string expected = "an array of " +
                               (size == kAnyLength ? std::string() : std::to_string(size) + " ") +
                               (kInteger ? "integers" : "numbers");
  const std::vector<T> x = get(key, fallback, expected, [&](const toml::node& n) {
    const toml::array* a = n.as_array();
    if (!a || (size != kAnyLength && a->size() != size))
      fail(ConfigErrorKind::WrongType, key, "expected " + expected);
    std::vector<T> values;
    for (const toml::node& e : *a) {
      if (kInteger ? !e.is_integer() : !e.is_number())
        fail(ConfigErrorKind::WrongType, key, "expected " + expected);
      const double v = numberOf(e);
      if (!range.contains(v) || (kInteger && std::fabs(v) > INT32_MAX))
        fail(ConfigErrorKind::OutOfRange, key, "every entry must be in " + range.describe());
      values.push_back(kInteger ? T(e.value<long long>().value()) : T(v));
    }
    return values;
  });
  toml::array recorded;
  for (T v : x) {
    if constexpr (kInteger)
      recorded.push_back((long long)v); // TOML integers are 64-bit
    else
      recorded.push_back(v);
  }
  record(key, std::move(recorded));
  return x;
}

std::vector<double> Config::getDoubles(const std::string& key,
                                       std::optional<std::vector<double>> fallback,
                                       std::size_t size, Range range) {
  return getArray(key, fallback, size, range);
}

std::vector<int> Config::getInts(const std::string& key, std::optional<std::vector<int>> fallback,
                                 std::size_t size, Range range) {
  return getArray(key, fallback, size, range);
}

void Config::ignoreUnused(const std::string& prefix, const std::string& reason) {
  std::vector<std::string> keys;
  collectLeafKeys(table_, "", keys);
  for (const std::string& key : keys)
    if (key.rfind(prefix + ".", 0) == 0 && !read_.count(key))
      ignored_.emplace(key, reason);
}

void Config::rejectUnreadKeys() const {
  std::vector<std::string> keys;
  collectLeafKeys(table_, "", keys);
  for (const std::string& key : keys)
    if (const auto why = ignored_.find(key); why != ignored_.end() && !read_.count(key))
      std::printf("tessera: warning: %s = %s is not used: %s\n", where(key).c_str(),
                  valueText(key).c_str(), why->second.c_str());
  for (const std::string& key : keys) {
    if (read_.count(key) || ignored_.count(key))
      continue;
    // An empty table of a section the case reads (its keys all at their defaults).
    if (const toml::node* n = find(key); n && n->is_table() && effective_.at_path(key).is_table())
      continue;
    std::string message = where(key) + " = " + valueText(key) + ": unknown key";
    const std::string nearest = nearestKey(key, read_);
    message += nearest.empty() ? " (misspelt, or not used by this case)"
                               : " (did you mean " + nearest + "?)";
    throw ConfigError(ConfigErrorKind::UnknownKey, message);
  }
}

std::string Config::effectiveToml() const {
  std::ostringstream os;
  os << effective_ << '\n';
  return os.str();
}

} // namespace tessera::io
