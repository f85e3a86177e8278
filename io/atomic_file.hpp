#pragma once
// Writes a whole file or nothing: the content goes to a temporary name in the same folder, which
// is renamed over the target only once it is complete (atomic within one file system), so readers
// see either the old file or the complete new one.
#include <filesystem>
#include <functional>
#include <string_view>

namespace tessera::io {

// Calls writeTo(temporaryPath), then renames the temporary to `path`. If writeTo throws, the
// temporary is removed and the exception passed on.
void writeAtomically(const std::filesystem::path& path,
                     const std::function<void(const std::filesystem::path&)>& writeTo);

// The same for a text.
void writeFileAtomically(const std::filesystem::path& path, std::string_view text);

} // namespace tessera::io
