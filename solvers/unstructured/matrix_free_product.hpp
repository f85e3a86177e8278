#pragma once
// The product of a Newton-Krylov step's matrix with a vector, without the matrix
// (unstructured_implicit.hpp): for cell c,
//   w_c = V_c / (CFL dtau_c) v_c - (R(q + eps v) - R(q))_c / eps,
// the pseudo-time diagonal times v less the residual's directional difference. The same code on
// the host and on the device.
#include "engine/backend.hpp"

namespace tessera {

struct MatrixFreeProduct {
  const double* volume;
  const double* cellStep; // each cell's stable step V_c / sum |S| lambda; dtau_c = CFL times it
  double cfl;
  const double* v;
  const double* perturbed; // R(q + eps v)
  const double* residual;  // R(q)
  double eps;
  double* w;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    const double diagonal = volume[c] / (cfl * cellStep[c]);
    for (int k = 0; k < 5; ++k) {
      const int i = 5 * c + k;
      w[i] = diagonal * v[i] - (perturbed[i] - residual[i]) / eps;
    }
  }
};

} // namespace tessera
