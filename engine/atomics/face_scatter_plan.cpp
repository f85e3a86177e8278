#include "engine/atomics/face_scatter_plan.hpp"

#include <numeric>

namespace tessera::atomics {
FaceScatterPlan::FaceScatterPlan(const unstructured::Mesh& mesh, MemorySpace space)
    : FaceScatterPlan(mesh.numCells(), mesh.owner, mesh.neighbour, mesh.cellFaces,
                      unstructured::colorFaces(mesh), space) {}

FaceScatterPlan::FaceScatterPlan(const unstructured::CellPairs& pairs, MemorySpace space)
    : FaceScatterPlan(pairs.numCells, pairs.first, pairs.second, pairs.cellPairs,
                      unstructured::colorPairs(pairs), space) {}

FaceScatterPlan::FaceScatterPlan(int numCells, const std::vector<int>& owner,
                                 const std::vector<int>& neighbour,
                                 const unstructured::Csr& cellFaces,
                                 const unstructured::Coloring& coloring, MemorySpace space)
    : numCells_(numCells), owner_(toSpace(owner, space)), neighbour_(toSpace(neighbour, space)),
      cellFaceOffsets_(toSpace(cellFaces.offsets, space)),
      cellFaces_(toSpace(cellFaces.indices, space)) {
  // Counting sort of the faces by color keeps each color's faces in index (owner) order.
  colorOffsets_.assign(std::size_t(coloring.numColors) + 1, 0);
  for (int c : coloring.color)
    ++colorOffsets_[std::size_t(c) + 1];
  std::partial_sum(colorOffsets_.begin(), colorOffsets_.end(), colorOffsets_.begin());
  std::vector<int> next(colorOffsets_.begin(), colorOffsets_.end() - 1);
  std::vector<int> byColor(owner.size());
  for (int f = 0; f < int(owner.size()); ++f)
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
