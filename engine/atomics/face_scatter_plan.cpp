#include "engine/atomics/face_scatter_plan.hpp"

#include <numeric>

#include "engine/unstructured/coloring.hpp"

namespace tessera::atomics {
FaceScatterPlan::FaceScatterPlan(const unstructured::Mesh& mesh, MemorySpace space)
    : numCells_(mesh.numCells()), owner_(toSpace(mesh.owner, space)),
      neighbour_(toSpace(mesh.neighbour, space)),
      cellFaceOffsets_(toSpace(mesh.cellFaces.offsets, space)),
      cellFaces_(toSpace(mesh.cellFaces.indices, space)) {
  // Counting sort of the faces by color keeps each color's faces in index (owner) order.
  const unstructured::Coloring coloring = unstructured::colorFaces(mesh);
  colorOffsets_.assign(std::size_t(coloring.numColors) + 1, 0);
  for (int c : coloring.color)
    ++colorOffsets_[std::size_t(c) + 1];
  std::partial_sum(colorOffsets_.begin(), colorOffsets_.end(), colorOffsets_.begin());
  std::vector<int> next(colorOffsets_.begin(), colorOffsets_.end() - 1);
  std::vector<int> byColor(mesh.owner.size());
  for (int f = 0; f < mesh.numFaces(); ++f)
    byColor[std::size_t(next[std::size_t(coloring.color[std::size_t(f)])]++)] = f;
  facesByColor_ = toSpace(byColor, space);
}

FaceTopology FaceScatterPlan::topology() const {
  return {numFaces(),           numCells_,
          owner_.data(),        neighbour_.data(),
          facesByColor_.data(), cellFaceOffsets_.data(),
          cellFaces_.data()};
}

} // namespace tessera::atomics
