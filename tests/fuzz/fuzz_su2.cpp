// libFuzzer: a mesh file as the SU2 reader reads it, then as the mesh builder builds it. The reader
// may refuse its input only with io::MeshReadError and the builder only with std::invalid_argument;
// any other exception, a crash or a sanitizer report is a defect.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

#include "engine/unstructured/mesh.hpp"
#include "io/su2_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The reader takes a path: the input goes to a file of this process's own.
  static const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                            ("tessera_fuzz_" + std::to_string(getpid()) + ".su2");
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), std::streamsize(size));
  try {
    tessera::unstructured::buildMesh(tessera::io::readSu2(file));
  } catch (const tessera::io::MeshReadError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
