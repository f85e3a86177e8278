#pragma once
// Every second-order unstructured scheme: each gradient, limiter and Riemann solver combined
// (MUSCL, Venkatakrishnan's default K), for the tests that must hold for all of them.
#include <vector>

#include "solvers/unstructured/unstructured_scheme.hpp"

namespace tessera::test {

inline std::vector<UnstructuredScheme> everySecondOrderScheme() {
  std::vector<UnstructuredScheme> schemes;
  for (auto gradient : {UnstructuredGradient::GreenGauss, UnstructuredGradient::LeastSquares,
                        UnstructuredGradient::NodeLeastSquares})
    for (auto limiter : {UnstructuredLimiter::Venkatakrishnan, UnstructuredLimiter::BarthJespersen,
                         UnstructuredLimiter::None})
      for (auto flux : {UnstructuredFlux::Roe, UnstructuredFlux::Hllc, UnstructuredFlux::Hlle,
                        UnstructuredFlux::Rusanov}) {
        UnstructuredScheme scheme;
        scheme.gradient = gradient;
        scheme.limiter = limiter;
        scheme.flux = flux;
        schemes.push_back(scheme);
      }
  return schemes;
}

} // namespace tessera::test
