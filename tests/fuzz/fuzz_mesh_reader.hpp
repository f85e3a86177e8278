#pragma once
// The body of the mesh-reader fuzz targets: the input as a mesh file read by `read`, then built
// by the mesh builder. The reader may refuse its input only with io::MeshReadError and the
// builder only with std::invalid_argument; any other exception, a crash or a sanitizer report is
// a defect.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "engine/unstructured/mesh.hpp"
#include "io/mesh_text.hpp"

template <class Read>
int fuzzMeshReader(const std::uint8_t* data, std::size_t size, const char* extension, Read&& read) {
  // The readers take a path: the input goes to a file of this process's own.
  static const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("tessera_fuzz_" + std::to_string(getpid()) + extension);
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), std::streamsize(size));
  try {
    tessera::unstructured::buildMesh(read(file));
  } catch (const tessera::io::MeshReadError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
