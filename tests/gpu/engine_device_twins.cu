#include <cmath>
#include <cstddef>

#include "engine/arithmetic.hpp"
#include "engine/backend.hpp"
#include "engine/parallel_for.hpp"
#include "engine/parallel_for_device.hpp"
#include "tests/gpu/engine_device_twins.hpp"

namespace tessera::test {
namespace {

// The loop body both back ends run: a value that depends on patch and cell in a nonlinear way.
struct FillBody {
  double* out;
  int cellsPerPatch;
  TESSERA_HOST_DEVICE void operator()(int p, int c) const {
    out[std::size_t(p) * cellsPerPatch + c] = std::sin(0.01 * c + 0.3 * p) * (1.0 + p % 7);
  }
};

} // namespace

void fillWithDeviceLoop(double* out, int numPatches, int cellsPerPatch) {
  forEachPatchCellDevice(numPatches, cellsPerPatch, FillBody{out, cellsPerPatch});
}

void holdDeviceUntilOpened(const int* gate) {
  const volatile int* flag = gate;
  forEachPatchCellDevice(1, 1, [=] TESSERA_HOST_DEVICE(int, int) {
    while (*flag == 0) {
    }
  });
}

void fillWithHostLoop(double* out, int numPatches, int cellsPerPatch) {
  forEachPatchCell(numPatches, cellsPerPatch, FillBody{out, cellsPerPatch});
}

void arithmeticOnDevice(const double* a, const double* b, double* quotient, double* inverse,
                        double* root, int n) {
  forEachPatchCellDevice(1, n, [=] TESSERA_HOST_DEVICE(int, int i) {
    quotient[i] = divide(a[i], b[i]);
    inverse[i] = reciprocal(b[i]);
    root[i] = squareRoot(a[i]);
  });
}

} // namespace tessera::test
