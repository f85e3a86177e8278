#pragma once
// The device side of the atomic-strategy tests: the synthetic contribution scattered by a device
// strategy, in a .cu of its own (device translation units must not include GoogleTest).
#include <vector>

#include "engine/atomics/strategy.hpp"
#include "engine/unstructured/mesh.hpp"

namespace tessera::test {

// The K-values-per-cell target (host copy) of scatterFacesDevice with SyntheticContribution, for
// K in kDeviceScatterLengths; throws std::invalid_argument for another K.
inline constexpr int kDeviceScatterLengths[] = {3, 4, 5, 15, 16, 25};
std::vector<double> scatterSyntheticOnDevice(const unstructured::Mesh& mesh,
                                             atomics::Strategy strategy, int k);

} // namespace tessera::test
