#pragma once
// The global time step reduced on the device: dt = CFL * min over patches of (smallest dx /
// largest eigenvalue), the twin of stableTimeStep (time_step.hpp). Only dt crosses to the host;
// where an eigenvalue is negative or not finite, the eigenvalues follow it so that the host twin
// names the patch in its error.
#include "engine/device_array.hpp"
#include "patches/patch_geometry.hpp"

namespace tessera {

template <int Dim>
class DeviceTimeStep {
public:
  DeviceTimeStep() : result_(2, MemorySpace::Device) {}

  // patchLambda and geometry: device arrays of numPatches entries. Waits for the device.
  double operator()(double cfl, const double* patchLambda, const PatchGeometry<Dim>* geometry,
                    int numPatches);

private:
  DeviceArray<double> result_; // the smallest dx / lambda, and 1 where an eigenvalue is bad
};

} // namespace tessera
