#pragma once
// The unstructured solver's spatial scheme as data, chosen at run time, and its dispatch to the
// compile-time policies the residual's kernels are instantiated for (limiters: numerics/
// reconstruct/cell_limiters.hpp; Riemann solvers: numerics/flux/, shared with the patch engine).
//   reconstruction  first_order (cell values at the faces) or muscl (primitive variables
//                   extrapolated from the cell centroid with the limited gradient);
//   gradient        green_gauss (node-averaged face values) or least_squares (weighted by the
//                   inverse squared distance), engine/unstructured/reconstruction_geometry.hpp;
//   limiter         venkatakrishnan (with venkatakrishnanK), barth_jespersen or none;
//   riemann_solver  roe (Harten's entropy fix), hllc, hlle or rusanov.
// The defaults, MUSCL with least-squares gradients, Venkatakrishnan's limiter (K = 5) and Roe's
// flux, are the usual choice for steady aerodynamics. Least squares rather than Green-Gauss: at a
// boundary node whose cells lie on one side the node value is their average (engine/unstructured/
// reconstruction_geometry.hpp), so Green-Gauss gradients are first-order accurate in the cells at
// the boundary, and the bump channel's entropy error falls with order 1.5 (least squares: 2.0 to
// 2.3, tests/regression/test_unstructured_order.cpp).
#include <stdexcept>
#include <string>
#include <string_view>

#include "numerics/flux/hllc.hpp"
#include "numerics/flux/hlle.hpp"
#include "numerics/flux/roe.hpp"
#include "numerics/flux/rusanov.hpp"
#include "numerics/reconstruct/cell_limiters.hpp"

namespace tessera {

enum class UnstructuredReconstruction { FirstOrder, Muscl };
enum class UnstructuredGradient { GreenGauss, LeastSquares };
enum class UnstructuredLimiter { Venkatakrishnan, BarthJespersen, None };
enum class UnstructuredFlux { Roe, Hllc, Hlle, Rusanov };

// Names as the case file spells them, in enum order.
inline constexpr std::string_view kUnstructuredReconstructionNames[] = {"first_order", "muscl"};
inline constexpr std::string_view kUnstructuredGradientNames[] = {"green_gauss", "least_squares"};
inline constexpr std::string_view kUnstructuredLimiterNames[] = {"venkatakrishnan",
                                                                 "barth_jespersen", "none"};
inline constexpr std::string_view kUnstructuredFluxNames[] = {"roe", "hllc", "hlle", "rusanov"};

struct UnstructuredScheme {
  UnstructuredReconstruction reconstruction = UnstructuredReconstruction::Muscl;
  UnstructuredGradient gradient = UnstructuredGradient::LeastSquares;
  UnstructuredLimiter limiter = UnstructuredLimiter::Venkatakrishnan;
  double venkatakrishnanK = 5.0;
  UnstructuredFlux flux = UnstructuredFlux::Roe;

  bool secondOrder() const { return reconstruction == UnstructuredReconstruction::Muscl; }

  // The first-order Rusanov scheme of Tessera's first unstructured solver.
  static UnstructuredScheme firstOrderRusanov() {
    UnstructuredScheme s;
    s.reconstruction = UnstructuredReconstruction::FirstOrder;
    s.flux = UnstructuredFlux::Rusanov;
    return s;
  }
};

// "muscl (green_gauss, venkatakrishnan K = 5) + roe", "first_order + rusanov".
inline std::string describe(const UnstructuredScheme& s) {
  std::string d(kUnstructuredReconstructionNames[int(s.reconstruction)]);
  if (s.secondOrder()) {
    d += " (";
    d += kUnstructuredGradientNames[int(s.gradient)];
    d += ", ";
    d += kUnstructuredLimiterNames[int(s.limiter)];
    if (s.limiter == UnstructuredLimiter::Venkatakrishnan) {
      std::string k = std::to_string(s.venkatakrishnanK);
      k.erase(k.find_last_not_of('0') + 1);
      if (k.back() == '.')
        k.pop_back();
      d += " K = " + k;
    }
    d += ")";
  }
  return d + " + " + std::string(kUnstructuredFluxNames[int(s.flux)]);
}

// visit.template operator()<Limiter>() for the scheme's limiter.
template <class Visitor>
decltype(auto) withCellLimiter(UnstructuredLimiter kind, Visitor&& visit) {
  switch (kind) {
  case UnstructuredLimiter::BarthJespersen:
    return visit.template operator()<BarthJespersen>();
  case UnstructuredLimiter::None:
    return visit.template operator()<NoCellLimiter>();
  case UnstructuredLimiter::Venkatakrishnan:
    break;
  }
  return visit.template operator()<Venkatakrishnan>();
}

// visit.template operator()<RiemannSolver>() for the scheme's flux.
template <class Visitor>
decltype(auto) withUnstructuredFlux(UnstructuredFlux kind, Visitor&& visit) {
  switch (kind) {
  case UnstructuredFlux::Hllc:
    return visit.template operator()<Hllc>();
  case UnstructuredFlux::Hlle:
    return visit.template operator()<Hlle>();
  case UnstructuredFlux::Rusanov:
    return visit.template operator()<Rusanov>();
  case UnstructuredFlux::Roe:
    break;
  }
  return visit.template operator()<Roe>();
}

} // namespace tessera
