#pragma once
// The unstructured solver's spatial scheme as data, chosen at run time, and its dispatch to the
// compile-time policies the residual's kernels are instantiated for (limiters: numerics/
// reconstruct/cell_limiters.hpp; Riemann solvers: numerics/flux/, shared with the patch engine).
//   reconstruction  first_order (cell values at the faces) or muscl (primitive variables
//                   extrapolated from the cell centroid with the limited gradient);
//   gradient        green_gauss (node-averaged face values), least_squares (over the face
//                   neighbours, weighted by the inverse squared distance), node_least_squares
//                   (the same over every cell sharing a node with the cell), or auto: node
//                   neighbours on a mesh with tetrahedra or pyramids, face neighbours on one of
//                   prisms and hexahedra only (engine/unstructured/reconstruction_geometry.hpp);
//   limiter         venkatakrishnan (with venkatakrishnanK), barth_jespersen or none;
//   riemann_solver  roe (Harten's entropy fix), hllc, hlle or rusanov.
// The defaults, MUSCL with least-squares gradients, Venkatakrishnan's limiter (K = 10) and Roe's
// flux, are the usual choice for steady aerodynamics. Least squares rather than Green-Gauss: at a
// boundary node whose cells lie on one side the node value is their average (engine/unstructured/
// reconstruction_geometry.hpp), so Green-Gauss gradients are first-order accurate in the cells at
// the boundary, and the bump channel's entropy error falls with order 1.5 (least squares: 2.0 to
// 2.3, tests/regression/test_unstructured_order.cpp). Over the node neighbours where there are
// tetrahedra: over the face neighbours, the scheme is unstable on them where the limiter is off.
// Face neighbours elsewhere: stable there, and a third to a ninth of the pairs.
//
// Venkatakrishnan's threshold eps^2 = (K h / L)^3, h the cell's size and L referenceLength (a
// case's reference length, the chord of a wing): the same iterates for a mesh in millimetres and
// in metres, and for L = 1 the textbook (K h)^3 (Venkatakrishnan 1995) of a unit-chord mesh.
// K = 10 rather than the textbook's 5: on the transonic NACA 0012's 256 and 512 meshes it gives one
// steady state, which both implicit solvers reach with the limiter live, where at K = 5 each
// solver's path ended at a steady state of its own (0.9% apart in lift on the 256 mesh) or with
// the limiter frozen; Newton-Krylov takes the 512 mesh there in a third of the iterations
// (benchmarks/RESULTS.md).
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/unstructured/mesh.hpp"
#include "numerics/flux/hllc.hpp"
#include "numerics/flux/hlle.hpp"
#include "numerics/flux/roe.hpp"
#include "numerics/flux/rusanov.hpp"
#include "numerics/reconstruct/cell_limiters.hpp"

namespace tessera {

enum class UnstructuredReconstruction { FirstOrder, Muscl };
enum class UnstructuredGradient { GreenGauss, LeastSquares, NodeLeastSquares, Auto };
enum class UnstructuredLimiter { Venkatakrishnan, BarthJespersen, None };
enum class UnstructuredFlux { Roe, Hllc, Hlle, Rusanov };

// Names as the case file spells them, in enum order.
inline constexpr std::string_view kUnstructuredReconstructionNames[] = {"first_order", "muscl"};
inline constexpr std::string_view kUnstructuredGradientNames[] = {"green_gauss", "least_squares",
                                                                  "node_least_squares", "auto"};
inline constexpr std::string_view kUnstructuredLimiterNames[] = {"venkatakrishnan",
                                                                 "barth_jespersen", "none"};
inline constexpr std::string_view kUnstructuredFluxNames[] = {"roe", "hllc", "hlle", "rusanov"};

struct UnstructuredScheme {
  UnstructuredReconstruction reconstruction = UnstructuredReconstruction::Muscl;
  UnstructuredGradient gradient = UnstructuredGradient::Auto;
  UnstructuredLimiter limiter = UnstructuredLimiter::Venkatakrishnan;
  double venkatakrishnanK = 10.0;
  double referenceLength = 1.0; // L of Venkatakrishnan's threshold, in the mesh's unit
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

// The scheme with an auto gradient made the one for this mesh (the others unchanged). A
// distributed solver resolves it on the global mesh, so that every rank computes the same.
inline UnstructuredScheme resolvedFor(UnstructuredScheme scheme, const unstructured::Mesh& mesh) {
  if (scheme.gradient != UnstructuredGradient::Auto)
    return scheme;
  const bool simplicial =
      std::any_of(mesh.cellShapes.begin(), mesh.cellShapes.end(), [](unstructured::CellShape s) {
        return s == unstructured::CellShape::Tetrahedron || s == unstructured::CellShape::Pyramid;
      });
  scheme.gradient =
      simplicial ? UnstructuredGradient::NodeLeastSquares : UnstructuredGradient::LeastSquares;
  return scheme;
}

// The stencil a resolved scheme's gradient reads beyond the face neighbours' cells: node
// neighbours for node_least_squares and for Green-Gauss (node values from the cells around each
// node).
inline bool readsNodeNeighbours(const UnstructuredScheme& s) {
  if (!s.secondOrder())
    return false;
  if (s.gradient == UnstructuredGradient::Auto)
    throw std::logic_error("an auto gradient must be resolved for the mesh first (resolvedFor)");
  return s.gradient != UnstructuredGradient::LeastSquares;
}

// 5, 0.25, 1000, 1e-07: a number as a person writes it.
inline std::string shortNumber(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

// "muscl (green_gauss, venkatakrishnan K = 10) + roe", "first_order + rusanov".
inline std::string describe(const UnstructuredScheme& s) {
  std::string d(kUnstructuredReconstructionNames[int(s.reconstruction)]);
  if (s.secondOrder()) {
    d += " (";
    d += kUnstructuredGradientNames[int(s.gradient)];
    d += ", ";
    d += kUnstructuredLimiterNames[int(s.limiter)];
    if (s.limiter == UnstructuredLimiter::Venkatakrishnan) {
      d += " K = " + shortNumber(s.venkatakrishnanK);
      if (s.referenceLength != 1.0)
        d += ", L = " + shortNumber(s.referenceLength);
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
