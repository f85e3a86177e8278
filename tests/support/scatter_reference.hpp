#pragma once
// The serial reference sums of the synthetic face contribution on a mesh, and the check that a
// strategy's result equals them: within 1e-12 of the sum of magnitudes entering each entry (atomic
// additions reorder the sums; cancellation makes plain relative errors meaningless).
#include <cmath>
#include <cstddef>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "engine/atomics/scatter_host.hpp"
#include "tests/support/synthetic_contribution.hpp"

namespace tessera::test {

template <int K>
struct ScatterReference {
  std::vector<double> sums, scale;

  explicit ScatterReference(const unstructured::Mesh& mesh)
      : sums(sumOf(mesh, false)), scale(sumOf(mesh, true)) {}

  void expectMatches(const std::vector<double>& result, atomics::Strategy s) const {
    ASSERT_EQ(result.size(), sums.size());
    for (std::size_t i = 0; i < sums.size(); ++i)
      ASSERT_LE(std::fabs(result[i] - sums[i]), 1e-12 * scale[i])
          << atomics::strategyName(s) << " K " << K << " entry " << i;
  }

private:
  static std::vector<double> sumOf(const unstructured::Mesh& mesh, bool magnitude) {
    const atomics::FaceScatterPlan plan(mesh, MemorySpace::Host);
    std::vector<double> target(std::size_t(mesh.numCells()) * K, 0.0);
    atomics::scatterFacesReference<K>(plan.topology(), SyntheticContribution<K>{magnitude},
                                      target.data());
    return target;
  }
};

} // namespace tessera::test
