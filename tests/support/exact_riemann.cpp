#include "tests/support/exact_riemann.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>

namespace tessera::test {
namespace {

using Triple = std::array<double, 3>;

constexpr int kMaxNewtonIterations = 100;
constexpr double kNewtonTolerance = 1e-14;

Primitive1D checkedState(const Primitive1D& w, const char* side) {
  if (!(std::isfinite(w.rho) && std::isfinite(w.u) && std::isfinite(w.p) && w.rho > 0.0 &&
        w.p > 0.0))
    throw std::invalid_argument(std::string("ExactRiemannSolver: the ") + side +
                                " state needs finite values with rho > 0 and p > 0");
  return w;
}

double checkedGamma(double gamma) {
  if (!(std::isfinite(gamma) && gamma > 1.0))
    throw std::invalid_argument("ExactRiemannSolver: gamma must be finite and greater than 1");
  return gamma;
}

struct PressureFunction {
  double value, derivative;
};

// Toro's f_K(p) for the wave facing state w: the velocity jump across a shock (p > p_K) or a
// rarefaction (p <= p_K) that connects w to pressure p, and its derivative.
PressureFunction pressureFunction(double p, const Primitive1D& w, double a, double gamma) {
  if (p > w.p) {
    const double A = 2.0 / ((gamma + 1.0) * w.rho);
    const double B = (gamma - 1.0) / (gamma + 1.0) * w.p;
    const double root = std::sqrt(A / (p + B));
    return {(p - w.p) * root, root * (1.0 - 0.5 * (p - w.p) / (p + B))};
  }
  const double logRatio = std::log(p / w.p);
  // expm1 keeps the jump's relative accuracy when p is close to p_K, where pow(...) - 1 cancels.
  return {2.0 * a / (gamma - 1.0) * std::expm1((gamma - 1.0) / (2.0 * gamma) * logRatio),
          std::exp(-(gamma + 1.0) / (2.0 * gamma) * logRatio) / (w.rho * a)};
}

// Toro's adaptive guess: the linearised (PVRS) pressure when the data are close to uniform, else
// the two-rarefaction or two-shock approximation, whichever the PVRS value says the waves are. A
// good start matters little for convergence but keeps the iteration count low on the strong tests.
double initialPressureGuess(const Primitive1D& l, const Primitive1D& r, double aL, double aR,
                            double gamma) {
  const double pMin = std::min(l.p, r.p);
  const double pMax = std::max(l.p, r.p);
  const double pPV =
      std::max(0.0, 0.5 * (l.p + r.p) - 0.125 * (r.u - l.u) * (l.rho + r.rho) * (aL + aR));
  if (pMax / pMin <= 2.0 && pMin <= pPV && pPV <= pMax)
    return pPV;

  const auto twoRarefaction = [&] {
    const double z = (gamma - 1.0) / (2.0 * gamma);
    // Positive whenever the data generate no vacuum, which the caller has checked.
    return std::pow((aL + aR - 0.5 * (gamma - 1.0) * (r.u - l.u)) /
                        (aL / std::pow(l.p, z) + aR / std::pow(r.p, z)),
                    1.0 / z);
  };
  if (pPV < pMin)
    return twoRarefaction();

  const auto shockCoefficient = [&](const Primitive1D& w) {
    const double A = 2.0 / ((gamma + 1.0) * w.rho);
    const double B = (gamma - 1.0) / (gamma + 1.0) * w.p;
    return std::sqrt(A / (pPV + B));
  };
  const double gL = shockCoefficient(l);
  const double gR = shockCoefficient(r);
  const double twoShock = (gL * l.p + gR * r.p - (r.u - l.u)) / (gL + gR);
  return twoShock > 0.0 ? twoShock : twoRarefaction();
}

struct GaussLegendre16 {
  // The rule is symmetric: nodes +-nodes[i] share weights[i].
  std::array<double, 8> nodes, weights;
};

// Computed rather than tabulated so that no mistyped digit can limit the accuracy.
const GaussLegendre16& gaussLegendre16() {
  static const GaussLegendre16 rule = [] {
    constexpr int n = 16;
    const auto legendre = [](double x) {
      double previous = 1.0;
      double current = x;
      for (int k = 2; k <= n; ++k) {
        const double next = ((2 * k - 1) * x * current - (k - 1) * previous) / k;
        previous = current;
        current = next;
      }
      return std::array<double, 2>{current, n * (x * current - previous) / (x * x - 1.0)};
    };
    GaussLegendre16 r{};
    for (int i = 0; i < n / 2; ++i) {
      // Newton converges quadratically from this asymptotic estimate of the root; eight steps
      // leave it at rounding level.
      double x = std::cos(std::numbers::pi * (i + 0.75) / (n + 0.5));
      for (int step = 0; step < 8; ++step) {
        const auto [value, derivative] = legendre(x);
        x -= value / derivative;
      }
      const double derivative = legendre(x)[1];
      r.nodes[i] = x;
      r.weights[i] = 2.0 / ((1.0 - x * x) * derivative * derivative);
    }
    return r;
  }();
  return rule;
}

template <class F>
Triple gauss16(const F& f, double a, double b) {
  const GaussLegendre16& rule = gaussLegendre16();
  const double mid = 0.5 * (a + b);
  const double half = 0.5 * (b - a);
  Triple sum{};
  for (int i = 0; i < 8; ++i) {
    const Triple lo = f(mid - half * rule.nodes[i]);
    const Triple hi = f(mid + half * rule.nodes[i]);
    for (int k = 0; k < 3; ++k)
      sum[k] += rule.weights[i] * (lo[k] + hi[k]);
  }
  for (double& v : sum)
    v *= half;
  return sum;
}

// Over a fan piece c runs through [lo, hi] with 0 < lo, and the integrands are c^n, n =
// 2/(gamma-1), times polynomials of degree <= 2 in c: analytic except at c = 0 for non-integer n.
// On panels of equal ratio r = hi/lo per panel with (n + 2) log r <= 1, c^(n+2) varies by at most a
// factor e and c = 0 lies more than three half-widths away, so the 16-point rule's error factor is
// about 8^-32: the composite rule is exact to rounding without any adaptive refinement to go wrong.
template <class F>
Triple integrateFan(const F& f, double lo, double hi, double n) {
  const int panels = std::max(1, static_cast<int>(std::ceil((n + 2.0) * std::log(hi / lo))));
  const double ratio = std::pow(hi / lo, 1.0 / panels);
  Triple sum{};
  double a = lo;
  for (int j = 0; j < panels; ++j) {
    const double b = j + 1 == panels ? hi : a * ratio;
    const Triple panel = gauss16(f, a, b);
    for (int k = 0; k < 3; ++k)
      sum[k] += panel[k];
    a = b;
  }
  return sum;
}

} // namespace

ExactRiemannSolver::ExactRiemannSolver(Primitive1D left, Primitive1D right, double gamma)
    : left_(checkedState(left, "left")), right_(checkedState(right, "right")),
      gamma_(checkedGamma(gamma)), aL_(std::sqrt(gamma_ * left_.p / left_.rho)),
      aR_(std::sqrt(gamma_ * right_.p / right_.rho)) {
  const double du = right_.u - left_.u;
  // Pressure positivity condition: beyond this velocity difference the two rarefactions separate
  // and leave a vacuum between them, a wave pattern the sampling below does not represent.
  const double criticalDu = 2.0 * (aL_ + aR_) / (gamma_ - 1.0);
  if (du >= criticalDu) {
    std::ostringstream message;
    message.precision(17);
    message << "ExactRiemannSolver: the data generate vacuum (uR - uL = " << du
            << " >= 2 (aL + aR) / (gamma - 1) = " << criticalDu << "), which is not supported";
    throw std::domain_error(message.str());
  }

  // f(p) = fL(p) + fR(p) + du is increasing and concave, so every tangent's root lies at or below
  // p*: after the first step Newton climbs monotonically to p*. A non-positive tangent root can
  // only come from an iterate far to the right of p*; halving it stays in the domain p > 0.
  double p = initialPressureGuess(left_, right_, aL_, aR_, gamma_);
  bool converged = false;
  for (int iteration = 0; iteration < kMaxNewtonIterations && !converged; ++iteration) {
    const PressureFunction fL = pressureFunction(p, left_, aL_, gamma_);
    const PressureFunction fR = pressureFunction(p, right_, aR_, gamma_);
    const double slope = fL.derivative + fR.derivative;
    double next = p - (fL.value + fR.value + du) / slope;
    if (!(next > 0.0))
      next = 0.5 * p;
    // Near vacuum p* is tiny while f is a sum of O(du) terms, so f's rounding noise can move p by
    // more than 1e-14 relative and the iterates then alternate between neighbouring doubles; a step
    // no larger than that noise is as converged as double precision allows.
    const double roundingStep = 4.0 * std::numeric_limits<double>::epsilon() *
                                (std::fabs(fL.value) + std::fabs(fR.value) + std::fabs(du)) / slope;
    converged = 2.0 * std::fabs(next - p) < kNewtonTolerance * (next + p) ||
                std::fabs(next - p) <= roundingStep;
    p = next;
  }
  if (!converged)
    throw std::runtime_error("ExactRiemannSolver: the Newton iteration for the star pressure did "
                             "not converge in 100 iterations");
  // Close to vacuum with gamma near 1, p*/p_K = (a*/a_K)^(2 gamma/(gamma-1)) can fall below the
  // double range although the sound speeds are ordinary numbers; nothing computed from p* is then
  // meaningful.
  if (!(p >= std::numeric_limits<double>::min()))
    throw std::domain_error("ExactRiemannSolver: the star pressure underflows double precision; "
                            "the data are too close to generating vacuum");
  pStar_ = p;
  uStar_ = 0.5 * (left_.u + right_.u) + 0.5 * (pressureFunction(p, right_, aR_, gamma_).value -
                                               pressureFunction(p, left_, aL_, gamma_).value);

  const double g = gamma_;
  const double g6 = (g - 1.0) / (g + 1.0);
  const double z = (g - 1.0) / (2.0 * g);
  const double shockFactor = (g + 1.0) / (2.0 * g);
  const double ratioL = pStar_ / left_.p;
  if (ratioL > 1.0) {
    rhoStarL_ = left_.rho * (ratioL + g6) / (g6 * ratioL + 1.0);
    leftHead_ = leftTail_ = left_.u - aL_ * std::sqrt(shockFactor * ratioL + z);
  } else {
    rhoStarL_ = left_.rho * std::pow(ratioL, 1.0 / g);
    leftHead_ = left_.u - aL_;
    leftTail_ = uStar_ - aL_ * std::pow(ratioL, z);
  }
  const double ratioR = pStar_ / right_.p;
  if (ratioR > 1.0) {
    rhoStarR_ = right_.rho * (ratioR + g6) / (g6 * ratioR + 1.0);
    rightHead_ = rightTail_ = right_.u + aR_ * std::sqrt(shockFactor * ratioR + z);
  } else {
    rhoStarR_ = right_.rho * std::pow(ratioR, 1.0 / g);
    rightHead_ = right_.u + aR_;
    rightTail_ = uStar_ + aR_ * std::pow(ratioR, z);
  }
}

double ExactRiemannSolver::leftFanCoordinate(double s) const {
  const double g = gamma_;
  return 2.0 / (g + 1.0) + (g - 1.0) / ((g + 1.0) * aL_) * (left_.u - s);
}

double ExactRiemannSolver::rightFanCoordinate(double s) const {
  const double g = gamma_;
  return 2.0 / (g + 1.0) - (g - 1.0) / ((g + 1.0) * aR_) * (right_.u - s);
}

// Inside a fan rho and p follow from isentropy, and u from the Riemann invariant u +- 2a/(gamma-1)
// carried in from the outer state.
Primitive1D ExactRiemannSolver::leftFan(double c) const {
  const double g = gamma_;
  return {left_.rho * std::pow(c, 2.0 / (g - 1.0)), left_.u + 2.0 * aL_ * (1.0 - c) / (g - 1.0),
          left_.p * std::pow(c, 2.0 * g / (g - 1.0))};
}

Primitive1D ExactRiemannSolver::rightFan(double c) const {
  const double g = gamma_;
  return {right_.rho * std::pow(c, 2.0 / (g - 1.0)), right_.u - 2.0 * aR_ * (1.0 - c) / (g - 1.0),
          right_.p * std::pow(c, 2.0 * g / (g - 1.0))};
}

Primitive1D ExactRiemannSolver::sample(double s) const {
  if (s <= uStar_) {
    if (s <= leftHead_)
      return left_;
    if (s >= leftTail_)
      return {rhoStarL_, uStar_, pStar_};
    return leftFan(leftFanCoordinate(s));
  }
  if (s >= rightHead_)
    return right_;
  if (s <= rightTail_)
    return {rhoStarR_, uStar_, pStar_};
  return rightFan(rightFanCoordinate(s));
}

template <class Integrand>
std::array<double, 3> ExactRiemannSolver::average(double xLo, double xHi, double x0, double t,
                                                  const Integrand& integrand) const {
  if (!(t > 0.0))
    throw std::invalid_argument("ExactRiemannSolver: cell averages need t > 0");
  if (!(xHi > xLo))
    throw std::invalid_argument("ExactRiemannSolver: cell averages need xHi > xLo");
  // Between waves the solution is constant, and inside a fan it is smooth: splitting the cell at
  // the wave positions makes constant pieces exact and leaves quadrature only smooth integrands.
  std::array<double, 7> edges{xLo};
  int count = 1;
  for (double speed : {leftHead_, leftTail_, uStar_, rightTail_, rightHead_}) {
    const double x = x0 + speed * t;
    if (x > edges[count - 1] && x < xHi)
      edges[count++] = x;
  }
  edges[count++] = xHi;

  const double g = gamma_;
  const double n = 2.0 / (g - 1.0);
  Triple sum{};
  for (int i = 0; i + 1 < count; ++i) {
    const double a = edges[i];
    const double b = edges[i + 1];
    const double sA = (a - x0) / t;
    const double sB = (b - x0) / t;
    const double sMid = (0.5 * (a + b) - x0) / t;
    Triple piece;
    if (sMid > leftHead_ && sMid < leftTail_) {
      const double cA = leftFanCoordinate(sA);
      const double cB = leftFanCoordinate(sB);
      piece = integrateFan([&](double c) { return integrand(leftFan(c)); }, std::min(cA, cB),
                           std::max(cA, cB), n);
      for (double& v : piece)
        v *= t * (g + 1.0) * aL_ / (g - 1.0); // |dx/dc|
    } else if (sMid > rightTail_ && sMid < rightHead_) {
      const double cA = rightFanCoordinate(sA);
      const double cB = rightFanCoordinate(sB);
      piece = integrateFan([&](double c) { return integrand(rightFan(c)); }, std::min(cA, cB),
                           std::max(cA, cB), n);
      for (double& v : piece)
        v *= t * (g + 1.0) * aR_ / (g - 1.0);
    } else {
      piece = integrand(sample(sMid));
      for (double& v : piece)
        v *= b - a;
    }
    for (int k = 0; k < 3; ++k)
      sum[k] += piece[k];
  }
  for (double& v : sum)
    v /= xHi - xLo;
  return sum;
}

Primitive1D ExactRiemannSolver::cellAverage(double xLo, double xHi, double x0, double t) const {
  const Triple avg = average(xLo, xHi, x0, t, [](const Primitive1D& w) {
    return Triple{w.rho, w.u, w.p};
  });
  return {avg[0], avg[1], avg[2]};
}

std::array<double, 3> ExactRiemannSolver::conservedCellAverage(double xLo, double xHi, double x0,
                                                               double t) const {
  return average(xLo, xHi, x0, t, [this](const Primitive1D& w) {
    return Triple{w.rho, w.rho * w.u, w.p / (gamma_ - 1.0) + 0.5 * w.rho * w.u * w.u};
  });
}

} // namespace tessera::test
