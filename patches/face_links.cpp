#include "patches/face_links.hpp"

#include <stdexcept>
#include <string>

namespace tessera {
namespace {

// The face whose whole halo `op` copies from a same-level neighbour by one patch width, or -1.
template <int Dim>
int linkedFace(const HaloOp<Dim>& op, const PatchLayout<Dim>& layout) {
  if (op.source != HaloSource::SameLevel || op.reflectMask != 0 || op.wrapMask != 0)
    return -1;
  const int n = layout.cellsPerAxis, h = layout.halo;
  int face = -1;
  for (int a = 0; a < Dim; ++a) {
    if (op.scale[a] != 1)
      return -1;
    if (op.lo[a] == 0 && op.hi[a] == n && op.shift[a] == 0)
      continue; // along the face
    const bool lower = op.lo[a] == -h && op.hi[a] == 0 && op.shift[a] == n;
    const bool upper = op.lo[a] == n && op.hi[a] == n + h && op.shift[a] == -n;
    if (face >= 0 || !(lower || upper))
      return -1; // an edge, a corner or a part of a face
    face = 2 * a + (upper ? 1 : 0);
  }
  return face;
}

// Whether `op` writes edge or corner cells: its box lies outside the interior along two axes.
template <int Dim>
bool edgeOrCorner(const HaloOp<Dim>& op, const PatchLayout<Dim>& layout) {
  int outside = 0;
  for (int a = 0; a < Dim; ++a)
    outside += op.lo[a] < 0 || op.hi[a] > layout.cellsPerAxis;
  return outside > 1;
}

} // namespace

template <int Dim>
void linkSameLevelFaces(HaloPlan<Dim>& plan, const PatchLayout<Dim>& layout,
                        FaceLinks<Dim>& links) {
  const std::size_t patches = links.neighbour.size() / FaceLinks<Dim>::kFaces;
  // Most operations move (all but the coarse-fine and boundary faces): room for all of them at
  // once, as growing the list by doubling took as long as building the plan.
  links.unreadOps.ops.reserve(links.unreadOps.ops.size() + plan.ops.size());
  std::size_t kept = 0;
  for (std::size_t o = 0; o < plan.ops.size(); ++o) {
    const HaloOp<Dim> op = plan.ops[o];
    const int face = linkedFace(op, layout);
    if (face < 0 && !edgeOrCorner(op, layout)) {
      plan.ops[kept++] = op;
      continue;
    }
    if (face >= 0) {
      if (std::size_t(op.dstPatch) >= patches)
        throw std::invalid_argument("linkSameLevelFaces: patch " + std::to_string(op.dstPatch) +
                                    " is beyond the " + std::to_string(patches) + " linked");
      links.neighbour[std::size_t(op.dstPatch) * FaceLinks<Dim>::kFaces + std::size_t(face)] =
          op.srcPatch;
    }
    links.unreadOps.ops.push_back(op);
  }
  plan.ops.resize(kept);
  links.unreadOps.inflowStates = plan.inflowStates; // an inflow corner's Fixed operation
}

template void linkSameLevelFaces<2>(HaloPlan<2>&, const PatchLayout<2>&, FaceLinks<2>&);
template void linkSameLevelFaces<3>(HaloPlan<3>&, const PatchLayout<3>&, FaceLinks<3>&);

} // namespace tessera
