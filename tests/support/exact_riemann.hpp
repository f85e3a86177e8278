#pragma once
// Exact solution of the Riemann problem for the 1D Euler equations of an ideal gas, after Toro,
// "Riemann Solvers and Numerical Methods for Fluid Dynamics", chapter 4. It is the tests' reference
// solution, so it includes no Tessera header: a bug shared with the engine could not hide in it.
#include <array>

namespace tessera::test {

struct Primitive1D {
  double rho, u, p;
};

class ExactRiemannSolver {
public:
  // Throws std::invalid_argument for non-positive or non-finite data or gamma <= 1,
  // std::domain_error when the data generate vacuum, which this solver does not represent, or come
  // so close to it that p* underflows, and std::runtime_error if Newton's iteration for p* fails.
  ExactRiemannSolver(Primitive1D left, Primitive1D right, double gamma);

  double starPressure() const { return pStar_; }
  double starVelocity() const { return uStar_; }

  // The self-similar solution at s = (x - x0) / t.
  Primitive1D sample(double s) const;

  // Averages over [xLo, xHi] at time t > 0 of the solution whose initial discontinuity sits at x0:
  // of rho, u and p here, and of rho, rho u and E in conservedCellAverage.
  Primitive1D cellAverage(double xLo, double xHi, double x0, double t) const;
  std::array<double, 3> conservedCellAverage(double xLo, double xHi, double x0, double t) const;

private:
  template <class Integrand>
  std::array<double, 3> average(double xLo, double xHi, double x0, double t,
                                const Integrand& integrand) const;
  // Fans are parametrised by c = a / a_K, the sound speed relative to the outer state's: c is
  // linear in s, and in c the states carry no rounding of x or s however narrow the fan.
  double leftFanCoordinate(double s) const;
  double rightFanCoordinate(double s) const;
  Primitive1D leftFan(double c) const;
  Primitive1D rightFan(double c) const;

  Primitive1D left_, right_;
  double gamma_;
  double aL_, aR_;
  double pStar_, uStar_;
  double rhoStarL_, rhoStarR_;
  // Wave speeds, ordered leftHead_ <= leftTail_ < uStar_ < rightTail_ <= rightHead_; a shock has
  // head == tail, a rarefaction spans the fan between them.
  double leftHead_, leftTail_, rightTail_, rightHead_;
};

} // namespace tessera::test
