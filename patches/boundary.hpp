#pragma once
// Physical boundary conditions of a rectangular domain, one kind per face.
#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace tessera {

enum class BoundaryKind {
  Outflow,    // zero gradient: the halo copies the nearest interior cell
  Reflecting, // mirror image with the normal vector components negated (slip wall)
  Periodic,   // the opposite side of the domain
  Inflow,     // a given state
};

constexpr std::string_view boundaryKindName(BoundaryKind k) {
  switch (k) {
  case BoundaryKind::Outflow:
    return "outflow";
  case BoundaryKind::Reflecting:
    return "reflecting";
  case BoundaryKind::Periodic:
    return "periodic";
  case BoundaryKind::Inflow:
    return "inflow";
  }
  return "unknown";
}

inline std::optional<BoundaryKind> parseBoundaryKind(std::string_view name) {
  for (BoundaryKind k : {BoundaryKind::Outflow, BoundaryKind::Reflecting, BoundaryKind::Periodic,
                         BoundaryKind::Inflow})
    if (name == boundaryKindName(k))
      return k;
  return std::nullopt;
}

// The boundary of a Dim-dimensional box: face (axis, side), side 0 lower and 1 upper.
template <int Dim>
struct DomainBoundary {
  std::array<std::array<BoundaryKind, 2>, Dim> kind{};
  // Conserved state imposed on Inflow faces (empty elsewhere).
  std::array<std::array<std::vector<double>, 2>, Dim> inflowState{};

  static DomainBoundary all(BoundaryKind k) {
    DomainBoundary b;
    for (auto& axis : b.kind)
      axis = {k, k};
    return b;
  }
};

} // namespace tessera
