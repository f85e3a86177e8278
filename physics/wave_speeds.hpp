#pragma once
// The slowest and fastest signal speeds of a state along an axis: what a system provides, as the
// optional member waveSpeeds(q, axis), for the HLL family of Riemann solvers.
namespace tessera {

struct WaveSpeeds {
  double slowest;
  double fastest;
};

} // namespace tessera
