#pragma once
// The device side of bench_atomics: one benchmark mesh in device memory with a smooth Euler state,
// and the scatters seed 000 times on it, each one call (asynchronous):
//   K = 5   the unstructured Euler solver's Rusanov face flux (EulerFaceFlux), seed 000's roe-flux;
//   K = 15  the Green-Gauss gradient of the 5 conserved variables, seed 000's lstgs.
// Plain C++ so that the Google Benchmark program stays a host translation unit.
#include <memory>

#include "engine/atomics/strategy.hpp"
#include "engine/unstructured/mesh.hpp"

namespace tessera::bench {

class AtomicsBenchCase {
public:
  explicit AtomicsBenchCase(const unstructured::Mesh& mesh);
  ~AtomicsBenchCase();
  AtomicsBenchCase(const AtomicsBenchCase&) = delete;
  AtomicsBenchCase& operator=(const AtomicsBenchCase&) = delete;

  // The scatter of K values per face (K = 5 or 15) with a strategy, into the K-wide target.
  void scatter(int k, atomics::Strategy strategy);
  // The ceiling: the same face kernel storing its values with plain stores (a wrong result:
  // timing only).
  void plainStores(int k);
  // A device-to-device copy of bytesThatMustMove(k) / 2 bytes (read once, written once).
  void copy(int k);
  // The bytes a K-scatter cannot avoid: each face's owner, neighbour, kind and area vector once,
  // each cell's state once, the target read and written once.
  double bytesThatMustMove(int k) const;

private:
  struct Data;
  std::unique_ptr<Data> data_;
};

} // namespace tessera::bench
