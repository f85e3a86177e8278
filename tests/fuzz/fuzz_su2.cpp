// libFuzzer: a mesh file as the SU2 reader reads it (fuzz_mesh_reader.hpp).
#include "io/su2_reader.hpp"
#include "tests/fuzz/fuzz_mesh_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fuzzMeshReader(data, size, ".su2", tessera::io::readSu2);
}
