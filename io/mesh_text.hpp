#pragma once
// What the mesh readers share: the error they throw, naming the file and the line, and the
// line-by-line reading with numbered lines and checked numbers.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::io {

// The message is "<file>:<line>: <what>", as for configuration syntax errors.
class MeshReadError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

namespace detail {

// The line-by-line reading shared by the Gmsh and SU2 readers: the current line, its
// whitespace-separated tokens and its number, so that every error can name where it is.
class MeshText {
public:
  // `comment` starts a comment running to the end of the line ('\0': none). Throws MeshReadError
  // if the file cannot be opened.
  MeshText(const std::filesystem::path& file, char comment);

  // Moves to the next line that is not blank once comments are removed; false at the end of the
  // file, where lineNumber() becomes the file's last line.
  bool next();
  // As next(), but the end of the file is an error saying that `expected` is missing.
  void require(const std::string& expected);

  std::string_view line() const { return line_; } // trimmed
  const std::vector<std::string_view>& tokens() const { return tokens_; }
  int lineNumber() const { return lineNumber_; }
  // Lines of the file after the current one: a section's count may not exceed it (a count of
  // 2e9 in a small file would otherwise allocate for 2e9 records before finding them missing).
  long long linesLeft() const { return totalLines_ - lineNumber_; }

  // Fails unless the line has exactly `count` tokens; `what` says what the line should hold.
  void expectTokens(std::size_t count, const std::string& what) const;
  long long integer(std::string_view token) const;
  long long integer(std::size_t token) const { return integer(tokenAt(token)); }
  double real(std::string_view token) const; // finite only
  double real(std::size_t token) const { return real(tokenAt(token)); }

  [[noreturn]] void fail(const std::string& what) const { failAt(lineNumber_, what); }
  [[noreturn]] void failAt(int line, const std::string& what) const;

private:
  std::string_view tokenAt(std::size_t token) const;

  std::string name_;
  std::string content_;
  std::size_t position_ = 0;
  char comment_;
  std::string_view line_;
  std::vector<std::string_view> tokens_;
  int lineNumber_ = 0;
  long long totalLines_ = 0;
};

std::vector<std::string_view> splitTokens(std::string_view text);
std::string_view trim(std::string_view text);

} // namespace detail

} // namespace tessera::io
