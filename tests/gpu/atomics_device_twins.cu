#include <stdexcept>

#include "engine/atomics/scatter_device.hpp"
#include "engine/device_array.hpp"
#include "tests/gpu/atomics_device_twins.hpp"
#include "tests/support/synthetic_contribution.hpp"

namespace tessera::test {
namespace {

template <int K>
std::vector<double> scatterWith(const unstructured::Mesh& mesh, atomics::Strategy strategy) {
  const atomics::FaceScatterPlan plan(mesh, MemorySpace::Device);
  std::vector<double> host(std::size_t(mesh.numCells()) * K, 0.0);
  DeviceArray<double> target = toDevice(host);
  atomics::scatterFacesDevice<K>(plan, strategy, SyntheticContribution<K>{}, target.data());
  target.copyToHost(host);
  return host;
}

} // namespace

std::vector<double> scatterSyntheticOnDevice(const unstructured::Mesh& mesh,
                                             atomics::Strategy strategy, int k) {
  switch (k) {
  case 3:
    return scatterWith<3>(mesh, strategy);
  case 4:
    return scatterWith<4>(mesh, strategy);
  case 5:
    return scatterWith<5>(mesh, strategy);
  case 15:
    return scatterWith<15>(mesh, strategy);
  case 16:
    return scatterWith<16>(mesh, strategy);
  case 25:
    return scatterWith<25>(mesh, strategy);
  default:
    throw std::invalid_argument("scatterSyntheticOnDevice: K not instantiated");
  }
}

} // namespace tessera::test
