// libFuzzer: a mesh file as the Gmsh reader reads it (fuzz_mesh_reader.hpp).
#include "io/gmsh_reader.hpp"
#include "tests/fuzz/fuzz_mesh_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fuzzMeshReader(data, size, ".msh", tessera::io::readGmsh);
}
