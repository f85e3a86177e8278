#pragma once
// Boundary conditions of the unstructured Euler solver, one kind per boundary face tag. A
// boundary face gets an outer state and then the same Rusanov flux as an interior face, so that
// boundary faces run in the same face scatter as the others (their neighbour side unused):
//   slip wall  the mirror image of the inner state across the face (normal velocity reversed):
//              the mass and energy fluxes vanish, the momentum flux is the wall pressure plus the
//              Rusanov term that pushes back against the normal velocity;
//   symmetry   the same mirror state: for the Euler equations a symmetry plane is a slip wall, but
//              a case should say which of the two a plane is;
//   farfield   a given freestream state outside;
//   outflow    the inner state outside (zero gradient): the flux is the inner physical flux.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/backend.hpp"
#include "engine/unstructured/mesh.hpp"
#include "physics/euler/euler.hpp"

namespace tessera {

enum class FaceKind : std::uint8_t { Interior, SlipWall, Symmetry, Farfield, Outflow };

inline constexpr std::array kBoundaryFaceKinds = {FaceKind::SlipWall, FaceKind::Symmetry,
                                                  FaceKind::Farfield, FaceKind::Outflow};

// Names as written in case files.
constexpr std::string_view faceKindName(FaceKind k) {
  switch (k) {
  case FaceKind::Interior:
    return "interior";
  case FaceKind::SlipWall:
    return "slip_wall";
  case FaceKind::Symmetry:
    return "symmetry";
  case FaceKind::Farfield:
    return "farfield";
  case FaceKind::Outflow:
    return "outflow";
  }
  return "unknown";
}

// A boundary kind by its name (not "interior").
inline std::optional<FaceKind> parseBoundaryFaceKind(std::string_view name) {
  for (FaceKind k : kBoundaryFaceKinds)
    if (name == faceKindName(k))
      return k;
  return std::nullopt;
}

// The state outside a boundary face of the given kind, from the inner state, the face's outward
// unit normal n and the (conserved) freestream state.
TESSERA_INLINE Euler<3>::State outerState(FaceKind kind, const Euler<3>::State& inner,
                                          const Vec<double, 3>& n,
                                          const Euler<3>::State& farfield) {
  using E = Euler<3>;
  if (kind == FaceKind::Farfield)
    return farfield;
  E::State outer = inner;
  if (kind == FaceKind::SlipWall || kind == FaceKind::Symmetry) {
    double mn = 0.0;
    for (int a = 0; a < 3; ++a)
      mn += inner[E::kMomentum + a] * n[a];
    for (int a = 0; a < 3; ++a)
      outer[E::kMomentum + a] -= 2.0 * mn * n[a];
  }
  return outer;
}

// The boundary of an unstructured case: a kind per face tag and the freestream state.
struct UnstructuredBoundary {
  std::map<int, FaceKind> kindOfTag;
  Euler<3>::State farfield = Euler<3>::State::filled(0.0); // conserved; used by Farfield faces
};

// "tag 3 (ylo)", or "tag 3" where the mesh names none; untagged faces have tag -1.
inline std::string describeTag(const unstructured::Mesh& mesh, int tag) {
  if (tag < 0)
    return "untagged";
  std::string text = "tag ";
  text += std::to_string(tag);
  if (const auto name = mesh.tagNames.find(tag); name != mesh.tagNames.end()) {
    text += " (";
    text += name->second;
    text += ')';
  }
  return text;
}

// The kind of every face: Interior inside, the tag's kind on the boundary. Throws
// std::invalid_argument naming the tag where a boundary face is untagged or its tag has no kind
// (or is mapped to Interior).
inline std::vector<FaceKind> faceKinds(const unstructured::Mesh& mesh,
                                       const std::map<int, FaceKind>& kindOfTag) {
  std::vector<FaceKind> kinds(std::size_t(mesh.numFaces()), FaceKind::Interior);
  for (int f = 0; f < mesh.numFaces(); ++f) {
    if (mesh.neighbour[std::size_t(f)] >= 0)
      continue;
    const int tag = mesh.faceTag[std::size_t(f)];
    const auto kind = kindOfTag.find(tag);
    if (tag < 0 || kind == kindOfTag.end() || kind->second == FaceKind::Interior) {
      std::string message = "boundary face ";
      message += std::to_string(f);
      message += " is ";
      message += describeTag(mesh, tag);
      message += tag < 0 ? ": every boundary face needs a tag with a boundary condition"
                         : ", which has no boundary condition";
      throw std::invalid_argument(message);
    }
    kinds[std::size_t(f)] = kind->second;
  }
  return kinds;
}

} // namespace tessera
