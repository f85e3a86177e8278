#pragma once
// A channel with a bump on its floor, from a box mesh's description: each node's y moves up by
// h(x) (upper - y) / (upper - lower), the bump h(x) = height sin^2(pi (x - from) / (to - from)) on
// [from, to] and 0 elsewhere. The floor follows the bump, the ceiling stays, and the shift fades
// linearly between them, so cells stay valid for a bump lower than the channel. Applied before
// buildMesh, which then computes the deformed geometry.
#include <cmath>
#include <numbers>

#include "engine/unstructured/mesh.hpp"

namespace tessera::unstructured {

struct Bump {
  double height = 0.1, from = 1.0, to = 2.0;

  double at(double x) const {
    if (x <= from || x >= to)
      return 0.0;
    const double s = std::sin(std::numbers::pi * (x - from) / (to - from));
    return height * s * s;
  }
};

// lower and upper: the box's y range.
inline void applyBump(MeshDescription& description, const Bump& bump, double lower, double upper) {
  for (Point& p : description.nodes)
    p[1] += bump.at(p[0]) * (upper - p[1]) / (upper - lower);
}

} // namespace tessera::unstructured
