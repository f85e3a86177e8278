#pragma once
// The pointwise pieces of a Newton-Krylov step (unstructured_implicit.hpp), the same code on the
// host and on the device:
// - the product of the step's matrix with a vector, without the matrix: for cell c,
//     w_c = V_c / (CFL dtau_c) v_c - (R(q + eps v) - R(q))_c / eps,
//   the pseudo-time diagonal times v less the residual's directional difference;
// - the size of the density fluxes that each cell's density residual sums, rho_c sum |S| lambda
//   (= rho_c V_c / its stable step), whose norm times a few hundred machine epsilons is what
//   round-off leaves in a residual: the round-off floor below which no step is taken.
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

// squares[c] = (rho_c V_c / cellStep_c)^2.
struct DensityFluxScaleSquares {
  const double* q;
  const double* volume;
  const double* cellStep;
  double* squares;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    const double scale = q[5 * c] * volume[c] / cellStep[c];
    squares[c] = scale * scale;
  }
};

} // namespace tessera
