#pragma once
// The loop body of the engine device tests, run by the device loop and by its host twin. Both
// runs live in engine_device_twins.cu: a device translation unit must not include GoogleTest,
// whose headers crash clang 15 (Debian 12's hipcc) in C++20 HIP mode.

namespace tessera::test {

// out[p * cellsPerPatch + c] = a nonlinear function of patch p and cell c; out is in device
// memory for the first, in host memory for the second.
void fillWithDeviceLoop(double* out, int numPatches, int cellsPerPatch);
void fillWithHostLoop(double* out, int numPatches, int cellsPerPatch);

// quotient[i] = divide(a[i], b[i]), inverse[i] = reciprocal(b[i]), root[i] = squareRoot(a[i])
// (engine/arithmetic.hpp) on the device; every array in device memory.
void arithmeticOnDevice(const double* a, const double* b, double* quotient, double* inverse,
                        double* root, int n);

// Queues a kernel that holds the device's work queue until *gate, in page-locked host memory
// (which the device reads through unified addressing), is no longer zero: work queued after it
// starts when the host opens the gate, whatever else shares the device.
void holdDeviceUntilOpened(const int* gate);

} // namespace tessera::test
