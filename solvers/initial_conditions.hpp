#pragma once
// Initial data of Tessera's standard cases, as functions from a cell centre to the conserved
// state. Each is a small value type, so a case is described by data rather than by code paths.
#include <cmath>
#include <span>
#include <stdexcept>

#include "engine/small_vector.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "solvers/advection.hpp"
#include "solvers/euler.hpp"

namespace tessera {

// A Riemann problem along one axis: primitive (density, normal velocity, pressure) left and right
// of the plane x[axis] = position; tangential velocities are zero.
template <int Dim>
struct RiemannProblem {
  Euler<Dim> pde;
  int axis = 0;
  double position = 0.5;
  double left[3] = {1.0, 0.0, 1.0};
  double right[3] = {0.125, 0.0, 0.1};

  typename Euler<Dim>::State operator()(const Vec<double, Dim>& x) const {
    const double* side = x[axis] < position ? left : right;
    typename Euler<Dim>::State w = Euler<Dim>::State::filled(0.0);
    w[Euler<Dim>::kDensity] = side[0];
    w[Euler<Dim>::kMomentum + axis] = side[1];
    w[Euler<Dim>::kEnergy] = side[2];
    return pde.toConserved(w);
  }
};

// The Sedov-Taylor point explosion: gas at rest with density rho0 and pressure p0, and the energy
// E0 added as internal energy, evenly, to the cells whose centres lie within `radius` of `centre`.
template <int Dim>
struct SedovBlast {
  Euler<Dim> pde;
  double energy = 1.0;
  double density = 1.0;
  double pressure = 1e-5;
  Vec<double, Dim> centre{};
  double radius = 0.0;
  double depositRadius = 0.0; // the radius placeOn settled on
  double depositVolume = 0.0; // total volume of the cells that receive the energy

  // Fills depositVolume for a set of patches, deciding cell by cell with the same cell centres the
  // solver's initialisation uses. On a mesh too coarse for the radius (the first rounds of an
  // adaptive start) the energy goes into the cells around the centre: the deposit radius is at
  // least 0.6 sqrt(Dim) of the smallest cell. Throws when no cell centre lies within it.
  void placeOn(const PatchLayout<Dim>& layout, std::span<const PatchGeometry<Dim>> geometry) {
    double smallest = INFINITY;
    for (const PatchGeometry<Dim>& g : geometry)
      smallest = std::fmin(smallest, g.minSpacing());
    depositRadius = std::fmax(radius, 0.6 * std::sqrt(double(Dim)) * smallest);
    depositVolume = 0.0;
    for (const PatchGeometry<Dim>& g : geometry)
      for (int n = 0; n < layout.interiorCells(); ++n) {
        const CellIndex<Dim> c = layout.interiorCell(n);
        Vec<double, Dim> x;
        for (int a = 0; a < Dim; ++a)
          x[a] = g.cellCenter(a, c[a]);
        if (contains(x))
          depositVolume += g.cellVolume();
      }
    if (depositVolume == 0.0)
      throw std::invalid_argument("Sedov blast: no cell centre lies within the blast radius");
  }
  void placeOn(const UniformPatchGrid<Dim>& grid) {
    const auto geometry = grid.geometries();
    placeOn(grid.layout(), geometry);
  }

  bool contains(const Vec<double, Dim>& x) const {
    double r2 = 0.0;
    for (int a = 0; a < Dim; ++a)
      r2 += (x[a] - centre[a]) * (x[a] - centre[a]);
    return r2 < depositRadius * depositRadius;
  }

  typename Euler<Dim>::State operator()(const Vec<double, Dim>& x) const {
    typename Euler<Dim>::State w = Euler<Dim>::State::filled(0.0);
    w[Euler<Dim>::kDensity] = density;
    w[Euler<Dim>::kEnergy] = pressure;
    typename Euler<Dim>::State q = pde.toConserved(w);
    if (contains(x))
      q[Euler<Dim>::kEnergy] += energy / depositVolume;
    return q;
  }
};

// A smooth Gaussian bump of density (Euler, carried by a uniform velocity at uniform pressure) or
// of the advected scalar: value = background + amplitude exp(-|x - centre|^2 / width^2).
template <int Dim>
struct GaussianPulse {
  Vec<double, Dim> centre{};
  double width = 0.1;
  double amplitude = 1.0;
  double background = 1.0;

  double value(const Vec<double, Dim>& x) const {
    double r2 = 0.0;
    for (int a = 0; a < Dim; ++a)
      r2 += (x[a] - centre[a]) * (x[a] - centre[a]);
    return background + amplitude * std::exp(-r2 / (width * width));
  }
};

template <int Dim>
struct EulerPulse {
  Euler<Dim> pde;
  GaussianPulse<Dim> pulse;
  Vec<double, Dim> velocity{};
  double pressure = 1.0;

  typename Euler<Dim>::State operator()(const Vec<double, Dim>& x) const {
    typename Euler<Dim>::State w;
    w[Euler<Dim>::kDensity] = pulse.value(x);
    for (int a = 0; a < Dim; ++a)
      w[Euler<Dim>::kMomentum + a] = velocity[a];
    w[Euler<Dim>::kEnergy] = pressure;
    return pde.toConserved(w);
  }
};

template <int Dim>
struct ScalarPulse {
  GaussianPulse<Dim> pulse;
  typename Advection<Dim>::State operator()(const Vec<double, Dim>& x) const {
    return {{pulse.value(x)}};
  }
};

} // namespace tessera
