#pragma once
// Any axis-aligned Riemann-solver policy (Rusanov, HLLE, HLLC, Roe) through a face of any unit
// normal n, for the 3D Euler equations: the states' momenta are turned into the frame (n, t1, t2),
// the policy's flux along axis 0 of that frame is taken, and its momentum flux is turned back.
// The Euler equations are invariant under rotations (Toro 2009, section 3.2.2), so this is the
// flux the policy would give along n, and the choice of the tangents t1, t2 only changes the
// round-off. An unstructured mesh's faces and a patch's axes thus share one set of policies.
#include <cmath>

#include "engine/backend.hpp"
#include "numerics/flux/hllc.hpp"

namespace tessera {

// An orthonormal frame whose first vector is the unit normal n.
struct FaceFrame {
  Vec<double, 3> n, t1, t2;

  TESSERA_INLINE static FaceFrame along(const Vec<double, 3>& n) {
    FaceFrame f;
    f.n = n;
    // t1 is n crossed with the axis n is least aligned with, so it never degenerates.
    const double ax = std::fabs(n[0]), ay = std::fabs(n[1]), az = std::fabs(n[2]);
    if (ax <= ay && ax <= az)
      f.t1 = Vec<double, 3>{{0.0, n[2], -n[1]}}; // n x e_x
    else if (ay <= az)
      f.t1 = Vec<double, 3>{{-n[2], 0.0, n[0]}}; // n x e_y
    else
      f.t1 = Vec<double, 3>{{n[1], -n[0], 0.0}}; // n x e_z
    const double inv = 1.0 / std::sqrt(f.t1[0] * f.t1[0] + f.t1[1] * f.t1[1] + f.t1[2] * f.t1[2]);
    for (int a = 0; a < 3; ++a)
      f.t1[a] *= inv;
    f.t2 = Vec<double, 3>{{n[1] * f.t1[2] - n[2] * f.t1[1], n[2] * f.t1[0] - n[0] * f.t1[2],
                           n[0] * f.t1[1] - n[1] * f.t1[0]}};
    return f;
  }

  // A vector's components along n, t1, t2, and back.
  TESSERA_INLINE Vec<double, 3> toFrame(double x, double y, double z) const {
    return Vec<double, 3>{{n[0] * x + n[1] * y + n[2] * z, t1[0] * x + t1[1] * y + t1[2] * z,
                           t2[0] * x + t2[1] * y + t2[2] * z}};
  }
  TESSERA_INLINE Vec<double, 3> fromFrame(double a, double b, double c) const {
    return Vec<double, 3>{{a * n[0] + b * t1[0] + c * t2[0], a * n[1] + b * t1[1] + c * t2[1],
                           a * n[2] + b * t1[2] + c * t2[2]}};
  }
};

// The flux per unit area through a face of unit normal frame.n, from qL (behind the face) to qR.
template <class RiemannSolver, EulerLike PDE>
requires(PDE::kDim == 3) TESSERA_INLINE typename PDE::State
    normalFlux(const PDE& pde, const typename PDE::State& qL, const typename PDE::State& qR,
               const FaceFrame& frame) {
  using State = typename PDE::State;
  constexpr int kM = PDE::kMomentum;
  const auto turned = [&](const State& q) {
    State r = q;
    const Vec<double, 3> m = frame.toFrame(q[kM], q[kM + 1], q[kM + 2]);
    for (int a = 0; a < 3; ++a)
      r[kM + a] = m[a];
    return r;
  };
  State F = RiemannSolver::flux(pde, turned(qL), turned(qR), 0);
  const Vec<double, 3> m = frame.fromFrame(F[kM], F[kM + 1], F[kM + 2]);
  for (int a = 0; a < 3; ++a)
    F[kM + a] = m[a];
  return F;
}

} // namespace tessera
