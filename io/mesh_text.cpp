#include "io/mesh_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

namespace tessera::io {

namespace detail {

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\f\v");
  if (first == std::string_view::npos)
    return {};
  return text.substr(first, text.find_last_not_of(" \t\r\f\v") - first + 1);
}

std::vector<std::string_view> splitTokens(std::string_view text) {
  std::vector<std::string_view> tokens;
  std::size_t pos = 0;
  while ((pos = text.find_first_not_of(" \t\r\f\v", pos)) != std::string_view::npos) {
    const auto end = std::min(text.find_first_of(" \t\r\f\v", pos), text.size());
    tokens.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return tokens;
}

MeshText::MeshText(const std::filesystem::path& file, char comment)
    : name_(file.string()), comment_(comment) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw MeshReadError(name_ + ":0: cannot open the mesh file for reading");
  std::stringstream text;
  text << in.rdbuf();
  content_ = text.str();
  totalLines_ = std::count(content_.begin(), content_.end(), '\n') +
                (!content_.empty() && content_.back() != '\n');
}

bool MeshText::next() {
  while (position_ < content_.size()) {
    const auto end = std::min(content_.find('\n', position_), content_.size());
    std::string_view raw(content_.data() + position_, end - position_);
    position_ = end + 1;
    ++lineNumber_;
    if (comment_ != '\0')
      raw = raw.substr(0, raw.find(comment_));
    line_ = trim(raw);
    if (!line_.empty()) {
      tokens_ = splitTokens(line_);
      return true;
    }
  }
  line_ = {};
  tokens_.clear();
  return false;
}

void MeshText::require(const std::string& expected) {
  if (!next())
    fail("the file ends where " + expected + " should be");
}

void MeshText::expectTokens(std::size_t count, const std::string& what) const {
  if (tokens_.size() != count)
    fail("expected " + std::to_string(count) + " values (" + what + "), found " +
         std::to_string(tokens_.size()) + " in '" + std::string(line_) + "'");
}

std::string_view MeshText::tokenAt(std::size_t token) const {
  if (token >= tokens_.size())
    fail("expected at least " + std::to_string(token + 1) + " values, found " +
         std::to_string(tokens_.size()) + " in '" + std::string(line_) + "'");
  return tokens_[token];
}

namespace {

// 'token', built by appending (GCC 12 warns wrongly, -Wrestrict, on "'" + std::string(token)).
std::string quoted(std::string_view token) {
  std::string text(1, '\'');
  text.append(token);
  text.push_back('\'');
  return text;
}

} // namespace

long long MeshText::integer(std::string_view token) const {
  long long value = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (error != std::errc() || end != token.data() + token.size())
    fail(quoted(token) + " is not an integer");
  return value;
}

double MeshText::real(std::string_view token) const {
  // from_chars rejects the leading '+' that some writers put on exponents-free numbers.
  std::string_view digits = token.starts_with('+') ? token.substr(1) : token;
  double value = 0.0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size() || !std::isfinite(value))
    fail(quoted(token) + " is not a finite number");
  return value;
}

void MeshText::failAt(int line, const std::string& what) const {
  throw MeshReadError(name_ + ":" + std::to_string(line) + ": " + what);
}

} // namespace detail

} // namespace tessera::io
