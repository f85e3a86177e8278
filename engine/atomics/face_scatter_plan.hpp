#pragma once
// What every strategy of the face scatter needs to know about the mesh (or a stencil's pairs), in
// the memory space the scatter runs in: each face's owner and neighbour (faces sorted by owner,
// neighbour < 0 on the boundary), the faces grouped by color for the coloring strategy, and each
// cell's faces for the gather strategy.
#include <span>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/unstructured/cell_pairs.hpp"
#include "engine/unstructured/coloring.hpp"
#include "engine/unstructured/mesh.hpp"

namespace tessera::atomics {

// Raw view handed to kernels and host loops.
struct FaceTopology {
  int numFaces = 0;
  int numCells = 0;
  const int* owner = nullptr;
  const int* neighbour = nullptr;
  const int* facesByColor = nullptr;    // face indices, color by color
  const int* cellFaceOffsets = nullptr; // numCells + 1
  const int* cellFaces = nullptr;
};

class FaceScatterPlan {
public:
  FaceScatterPlan(const unstructured::Mesh& mesh, MemorySpace space);
  // The pairs of a stencil (unstructured::nodeNeighbourPairs) as faces between their two cells.
  FaceScatterPlan(const unstructured::CellPairs& pairs, MemorySpace space);

  FaceTopology topology() const;
  MemorySpace space() const { return owner_.space(); }
  int numFaces() const { return int(owner_.size()); }
  int numCells() const { return numCells_; }
  int numColors() const { return int(colorOffsets_.size()) - 1; }
  // Faces of color c are facesByColor[colorOffsets()[c] .. colorOffsets()[c + 1]).
  std::span<const int> colorOffsets() const { return colorOffsets_; }

private:
  FaceScatterPlan(int numCells, const std::vector<int>& owner, const std::vector<int>& neighbour,
                  const unstructured::Csr& cellFaces, const unstructured::Coloring& coloring,
                  MemorySpace space);

  int numCells_ = 0;
  DeviceArray<int> owner_, neighbour_, facesByColor_, cellFaceOffsets_, cellFaces_;
  std::vector<int> colorOffsets_;
};

} // namespace tessera::atomics
