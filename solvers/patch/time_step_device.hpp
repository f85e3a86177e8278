#pragma once
// The global time step reduced on the device: dt = CFL * min over patches of (smallest dx /
// largest eigenvalue), the twin of stableTimeStep (time_step.hpp). Only dt crosses to the host;
// where an eigenvalue is negative or not finite, the eigenvalues follow it so that the host twin
// names the patch in its error.
#include <functional>

#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "patches/patch_geometry.hpp"

namespace tessera {

template <int Dim>
class DeviceTimeStep {
public:
  DeviceTimeStep();
  ~DeviceTimeStep();
  DeviceTimeStep(const DeviceTimeStep&) = delete;
  DeviceTimeStep& operator=(const DeviceTimeStep&) = delete;

  // patchLambda and geometry: device arrays of numPatches entries. Launches the reduction and the
  // copy of its result, runs `beside` (work that needs no dt: launches the device takes on after
  // the reduction while the result crosses to the host), then waits for the result only.
  double operator()(double cfl, const double* patchLambda, const PatchGeometry<Dim>* geometry,
                    int numPatches, const std::function<void()>& beside = {});

private:
  DeviceArray<double> result_;  // the smallest dx / lambda, and 1 where an eigenvalue is bad
  PinnedArray<double> arrived_; // result_ on the host
  void* copied_ = nullptr;      // gpuEvent_t after the copy (opaque: this header is host code)
};

} // namespace tessera
