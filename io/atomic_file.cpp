#include "io/atomic_file.hpp"

#include <fstream>
#include <stdexcept>
#include <string>

namespace tessera::io {

void writeFileAtomically(const std::filesystem::path& path, std::string_view text) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(text.data(), std::streamsize(text.size()));
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      throw std::runtime_error(path.string() + ": cannot write the file");
    }
  }
  std::filesystem::rename(tmp, path);
}

} // namespace tessera::io
