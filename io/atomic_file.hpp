#pragma once
// Writes a whole file or nothing: the text goes to a temporary name in the same folder, which is
// renamed over the target only once it is complete.
#include <filesystem>
#include <string_view>

namespace tessera::io {

void writeFileAtomically(const std::filesystem::path& path, std::string_view text);

} // namespace tessera::io
