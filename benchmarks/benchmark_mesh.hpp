#pragma once
// The device benchmarks' mesh: a box of n^3 cubes cut into 6 n^3 tetrahedra (n = 70: 2.06M cells),
// numbered in box order or randomly (seed 2026). TESSERA_BENCH_CUBES=n sets n; benchmarks that
// read TESSERA_BENCH_CELLS can take hexahedra instead.
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "engine/unstructured/box_mesh.hpp"
#include "engine/unstructured/mesh.hpp"

namespace tessera::bench {

// n from TESSERA_BENCH_CUBES (default 70); exits with a message naming the value when it is not a
// positive integer.
inline int benchmarkCubes() {
  const char* text = std::getenv("TESSERA_BENCH_CUBES");
  if (text == nullptr)
    return 70;
  const std::string_view s(text);
  int cubes = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), cubes);
  if (error != std::errc() || end != s.data() + s.size() || cubes < 1) {
    std::fprintf(stderr, "TESSERA_BENCH_CUBES='%s': expected a positive integer\n", text);
    std::exit(2);
  }
  return cubes;
}

// The cells of the box from TESSERA_BENCH_CELLS, for the benchmarks that read it: "tetrahedra"
// (the default, 6 per cube: 4 neighbours per cell) or "hexahedra" (1 per cube: 6 neighbours);
// exits with a message naming the value otherwise.
inline unstructured::BoxCells benchmarkCells() {
  const char* text = std::getenv("TESSERA_BENCH_CELLS");
  if (text == nullptr || std::string_view(text) == "tetrahedra")
    return unstructured::BoxCells::Tetrahedra;
  if (std::string_view(text) == "hexahedra")
    return unstructured::BoxCells::Hexahedra;
  std::fprintf(stderr, "TESSERA_BENCH_CELLS='%s': expected tetrahedra or hexahedra\n", text);
  std::exit(2);
}

inline unstructured::Mesh benchmarkBox(int cubes, unstructured::BoxCells cells, bool shuffled) {
  unstructured::BoxMeshSpec spec;
  spec.nx = spec.ny = spec.nz = cubes;
  spec.cells = cells;
  spec.shuffle = shuffled;
  spec.seed = 2026;
  return unstructured::buildMesh(unstructured::boxMesh(spec));
}

inline unstructured::Mesh tetrahedralBenchmarkBox(int cubes, bool shuffled) {
  return benchmarkBox(cubes, unstructured::BoxCells::Tetrahedra, shuffled);
}

} // namespace tessera::bench
