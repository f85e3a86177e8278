#pragma once
// Forces and moments on the walls of an unstructured case: on each wall face, the momentum that
// leaves the fluid through it, |S| times the momentum part of the face's flux (the scheme's
// Riemann solver between the reconstructed inner state and its mirror image: on a slip wall, the
// pressure the wave solution sets at the wall times S), and its moment (x_f - x_ref) x F about a
// reference point. The same flux as the residual's, so the force is what the fluid's momentum
// balance loses through the wall. Summed per boundary tag; coefficients against a reference
// dynamic pressure, area and length.
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "engine/backend.hpp"
#include "solvers/unstructured/muscl_bodies.hpp"

namespace tessera {

using Vector3 = std::array<double, 3>;

// The force on one listed wall face and its moment about the reference point: 6 values per face.
template <class RiemannSolver>
struct WallFaceForce {
  MusclFaceFlux<RiemannSolver> flux;
  const int* faces = nullptr;        // the listed faces
  const double* centroids = nullptr; // their centroids, [3 per listed face]
  Vec<double, 3> reference{};
  double* out = nullptr; // [6 per listed face]: force, moment

  TESSERA_HOST_DEVICE void operator()(int i) const {
    double toOwner[5], toNeighbour[5];
    flux(faces[i], toOwner, toNeighbour);
    // toOwner is what the cell gains: the wall receives the opposite.
    const double F[3] = {-toOwner[1], -toOwner[2], -toOwner[3]};
    double r[3];
    for (int a = 0; a < 3; ++a)
      r[a] = centroids[3 * i + a] - reference[a];
    double* o = out + 6 * i;
    for (int a = 0; a < 3; ++a)
      o[a] = F[a];
    o[3] = r[1] * F[2] - r[2] * F[1];
    o[4] = r[2] * F[0] - r[0] * F[2];
    o[5] = r[0] * F[1] - r[1] * F[0];
  }
};

// The force and moment on one boundary tag.
struct TagForce {
  int tag = 0;
  Vector3 force{}, moment{};
};

// How forces become coefficients: C = F . direction / (q A), C_m = M . axis / (q A L) with the
// dynamic pressure q = rho |u|^2 / 2 of the freestream; drag along the freestream's velocity, lift
// across it, and the pitching axis lift x drag (nose-up positive for a flow along +x with lift
// along +y, an airfoil in the x-y plane).
struct ForceReference {
  Vector3 momentCentre{};
  double area = 1.0, length = 1.0;
  double dynamicPressure = 0.0;
  Vector3 drag{1.0, 0.0, 0.0}, lift{0.0, 1.0, 0.0};
};

struct ForceCoefficients {
  double lift = 0.0, drag = 0.0, moment = 0.0;
};

inline double dot(const Vector3& a, const Vector3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

inline Vector3 cross(const Vector3& a, const Vector3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// The unit vector along the part of `towards` across `along` (unit): the lift direction from an
// approximate one (e.g. +y) and the freestream's direction.
inline Vector3 across(const Vector3& towards, const Vector3& along) {
  const double t = dot(towards, along);
  Vector3 v{towards[0] - t * along[0], towards[1] - t * along[1], towards[2] - t * along[2]};
  const double length = std::sqrt(dot(v, v));
  for (double& x : v)
    x /= length;
  return v;
}

inline ForceCoefficients coefficients(const Vector3& force, const Vector3& moment,
                                      const ForceReference& ref) {
  const double qA = ref.dynamicPressure * ref.area;
  return {dot(force, ref.lift) / qA, dot(force, ref.drag) / qA,
          dot(moment, cross(ref.lift, ref.drag)) / (qA * ref.length)};
}

} // namespace tessera
