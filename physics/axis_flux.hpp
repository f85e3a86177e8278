#pragma once
// A state's physical flux along an axis with the largest |eigenvalue| of its Jacobian there: what
// the Rusanov flux needs of each side of a face. A system may provide them together, as the
// optional members axisFlux(q, axis) and axisFluxes(q) (every axis), when that shares work
// (Euler: one division, one pressure and one square root for all of them);
// numerics/flux/rusanov.hpp falls back to flux and maxEigenvalue otherwise.

namespace tessera {

template <class State>
struct AxisFlux {
  State f;
  double lambda;
};

} // namespace tessera
