#pragma once
// Initial data of Tessera's standard cases, as functions from a cell centre to the conserved
// state. Each is a small value type, so a case is described by data rather than by code paths.
#include <cmath>
#include <map>
#include <mpi.h>
#include <span>
#include <stdexcept>
#include <vector>

#include "engine/mpi/rank_count.hpp"
#include "engine/small_vector.hpp"
#include "patches/uniform_patch_grid.hpp"
#include "physics/advection/advection.hpp"
#include "physics/euler/euler.hpp"

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
  //
  // On several MPI ranks each passes its own patches and all agree on the result. The volume is
  // summed as count x volume over the distinct cell volumes, smallest first, so that it is the
  // same to the last bit whatever the ranks and the order of the patches.
  void placeOn(const PatchLayout<Dim>& layout, std::span<const PatchGeometry<Dim>> geometry,
               MPI_Comm comm = MPI_COMM_SELF) {
    double smallest = INFINITY;
    for (const PatchGeometry<Dim>& g : geometry)
      smallest = std::fmin(smallest, g.minSpacing());
    if (mpi::rankCount(comm) > 1)
      MPI_Allreduce(MPI_IN_PLACE, &smallest, 1, MPI_DOUBLE, MPI_MIN, comm);
    depositRadius = std::fmax(radius, 0.6 * std::sqrt(double(Dim)) * smallest);
    std::map<double, long long> cellsOfVolume;
    for (const PatchGeometry<Dim>& g : geometry)
      for (int n = 0; n < layout.interiorCells(); ++n) {
        const CellIndex<Dim> c = layout.interiorCell(n);
        Vec<double, Dim> x;
        for (int a = 0; a < Dim; ++a)
          x[a] = g.cellCenter(a, c[a]);
        if (contains(x))
          ++cellsOfVolume[g.cellVolume()];
      }
    depositVolume = 0.0;
    for (const auto& [volume, cells] : allRanks(cellsOfVolume, comm))
      depositVolume += double(cells) * volume;
    if (depositVolume == 0.0)
      throw std::invalid_argument("Sedov blast: no cell centre lies within the blast radius");
  }
  void placeOn(const UniformPatchGrid<Dim>& grid) {
    const auto geometry = grid.geometries();
    placeOn(grid.layout(), geometry);
  }

  // The cell counts of every rank, merged.
  static std::map<double, long long> allRanks(const std::map<double, long long>& own,
                                              MPI_Comm comm) {
    const int ranks = mpi::rankCount(comm);
    if (ranks == 1)
      return own;
    std::vector<double> volumes, counts;
    for (const auto& [volume, cells] : own) {
      volumes.push_back(volume);
      counts.push_back(double(cells)); // exact: far fewer than 2^53 cells
    }
    int size = int(volumes.size());
    std::vector<int> sizes(ranks), offsets(ranks, 0);
    MPI_Allgather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, comm);
    for (int r = 1; r < ranks; ++r)
      offsets[r] = offsets[r - 1] + sizes[r - 1];
    const int total = offsets[ranks - 1] + sizes[ranks - 1];
    std::vector<double> allVolumes(total), allCounts(total);
    MPI_Allgatherv(volumes.data(), size, MPI_DOUBLE, allVolumes.data(), sizes.data(),
                   offsets.data(), MPI_DOUBLE, comm);
    MPI_Allgatherv(counts.data(), size, MPI_DOUBLE, allCounts.data(), sizes.data(), offsets.data(),
                   MPI_DOUBLE, comm);
    std::map<double, long long> merged;
    for (int i = 0; i < total; ++i)
      merged[allVolumes[i]] += (long long)allCounts[i];
    return merged;
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

// The isentropic vortex (Yee, Sandham & Djomehri 1999; Shu 1998): a smooth exact solution that
// the free stream `velocity` carries unchanged through a periodic box. Around `centre` (in the
// x-y plane; uniform along z in 3D), with r the distance and beta the strength,
//   du = -beta / (2 pi) exp((1 - r^2) / 2) (y - y_c),  dv = beta / (2 pi) exp((1 - r^2) / 2) (x -
//   x_c), T = 1 - (gamma - 1) beta^2 / (8 gamma pi^2) exp(1 - r^2),  rho = T^(1 / (gamma - 1)), p =
//   rho^gamma.
template <int Dim>
struct IsentropicVortex {
  Euler<Dim> pde;
  Vec<double, Dim> centre{};
  Vec<double, Dim> velocity = Vec<double, Dim>::filled(0.0);
  double strength = 5.0;

  typename Euler<Dim>::State operator()(const Vec<double, Dim>& x) const {
    const double dx = x[0] - centre[0], dy = x[1] - centre[1];
    const double bump =
        strength / (2.0 * 3.14159265358979323846) * std::exp(0.5 * (1.0 - dx * dx - dy * dy));
    const double g = pde.gamma;
    const double temperature = 1.0 - (g - 1.0) / (2.0 * g) * bump * bump;
    typename Euler<Dim>::State w;
    w[Euler<Dim>::kDensity] = std::pow(temperature, 1.0 / (g - 1.0));
    for (int a = 0; a < Dim; ++a)
      w[Euler<Dim>::kMomentum + a] = velocity[a];
    w[Euler<Dim>::kMomentum] -= bump * dy;
    w[Euler<Dim>::kMomentum + 1] += bump * dx;
    w[Euler<Dim>::kEnergy] = std::pow(w[Euler<Dim>::kDensity], g);
    return pde.toConserved(w);
  }
};

// The Kelvin-Helmholtz instability of two shear layers in a periodic box [0, 1]^2 (in 3D uniform
// along z), as in McNally, Lyra & Passy (2012) but with sharp layers: density `inner` moving at
// +shear / 2 along x for |y - 1/2| < 1/4, `outer` moving at -shear / 2 elsewhere, pressure
// uniform, and a seed vy = amplitude sin(4 pi x) that grows into the rolls.
template <int Dim>
struct KelvinHelmholtz {
  Euler<Dim> pde;
  double inner = 2.0, outer = 1.0;
  double shear = 1.0;
  double pressure = 2.5;
  double amplitude = 0.01;

  typename Euler<Dim>::State operator()(const Vec<double, Dim>& x) const {
    const bool band = std::fabs(x[1] - 0.5) < 0.25;
    typename Euler<Dim>::State w = Euler<Dim>::State::filled(0.0);
    w[Euler<Dim>::kDensity] = band ? inner : outer;
    w[Euler<Dim>::kMomentum] = (band ? 0.5 : -0.5) * shear;
    w[Euler<Dim>::kMomentum + 1] = amplitude * std::sin(4.0 * 3.14159265358979323846 * x[0]);
    w[Euler<Dim>::kEnergy] = pressure;
    return pde.toConserved(w);
  }
};

// An isothermal atmosphere at rest under Euler's gravity g: p = a^2 rho with a^2 = p0 / rho0, and
// rho = rho0 exp(g.x / a^2), rho0 and p0 at x = 0; hydrostatic, grad p = rho g, exactly.
template <int Dim>
struct HydrostaticAtmosphere {
  Euler<Dim> pde;
  double density = 1.0, pressure = 1.0; // at x = 0

  typename Euler<Dim>::State operator()(const Vec<double, Dim>& x) const {
    const double a2 = pressure / density;
    double gx = 0.0;
    for (int a = 0; a < Dim; ++a)
      gx += pde.gravity[a] * x[a];
    typename Euler<Dim>::State w = Euler<Dim>::State::filled(0.0);
    w[Euler<Dim>::kDensity] = density * std::exp(gx / a2);
    w[Euler<Dim>::kEnergy] = pressure * std::exp(gx / a2);
    return pde.toConserved(w);
  }
};

// The Rayleigh-Taylor instability as Athena sets it (Stone & Gardiner 2007, "A simple unsplit
// Godunov method for multidimensional MHD", and Athena's test suite): heavy gas over light across
// the plane z = 0 of the last axis, gravity -g along that axis, the pressure hydrostatic in each
// (p = p0 - g rho z), and a velocity along the last axis of amplitude A (1 + cos(4 pi x))
// (1 + cos(3 pi z)) / 4 in 2D (the 3D one also times (1 + cos(4 pi y)) / 2).
template <int Dim>
struct RayleighTaylor {
  Euler<Dim> pde;
  double heavy = 2.0, light = 1.0;
  double pressure = 2.5; // at the interface
  double amplitude = 0.01;

  // The two layers at rest: the equilibrium the perturbation grows from.
  typename Euler<Dim>::State atRest(const Vec<double, Dim>& x) const {
    const double z = x[Dim - 1];
    const double rho = z > 0.0 ? heavy : light;
    typename Euler<Dim>::State w = Euler<Dim>::State::filled(0.0);
    w[Euler<Dim>::kDensity] = rho;
    w[Euler<Dim>::kEnergy] = pressure + pde.gravity[Dim - 1] * rho * z;
    return pde.toConserved(w);
  }

  typename Euler<Dim>::State operator()(const Vec<double, Dim>& x) const {
    constexpr double pi = 3.14159265358979323846;
    typename Euler<Dim>::State w = pde.toPrimitive(atRest(x));
    double shape = 0.5 * (1.0 + std::cos(3.0 * pi * x[Dim - 1]));
    for (int a = 0; a + 1 < Dim; ++a)
      shape *= 0.5 * (1.0 + std::cos(4.0 * pi * x[a]));
    w[Euler<Dim>::kMomentum + Dim - 1] = amplitude * shape;
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
