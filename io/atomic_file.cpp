#include "io/atomic_file.hpp"

#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace tessera::io {

void writeAtomically(const std::filesystem::path& path,
                     const std::function<void(const std::filesystem::path&)>& writeTo) {
  std::filesystem::path temporary = path;
  temporary += ".tmp";
  try {
    writeTo(temporary);
    std::filesystem::rename(temporary, path);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw;
  }
}

void writeFileAtomically(const std::filesystem::path& path, std::string_view text) {
  writeAtomically(path, [&](const std::filesystem::path& temporary) {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(text.data(), std::streamsize(text.size()));
    out.close();
    if (!out)
      throw std::runtime_error(path.string() + ": cannot write the file");
  });
}

} // namespace tessera::io
