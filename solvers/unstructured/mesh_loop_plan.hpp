#pragma once
// The kernels and loop modes of seed 003 (solvers/unstructured/mesh_loops.hpp) and the mesh data
// they read, in the memory space they run in.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "engine/atomics/face_scatter_plan.hpp"
#include "engine/device_array.hpp"
#include "engine/unstructured/cell_pairs.hpp"
#include "engine/unstructured/mesh.hpp"
#include "engine/unstructured/reconstruction_geometry.hpp"

namespace tessera::unstructured {

inline constexpr int kCellVars = 5;
inline constexpr int kGradientValues = 3 * kCellVars;
inline constexpr int kMinMaxValues = 2 * kCellVars;

enum class LoopKernel : std::uint8_t {
  Interpolation,
  Gradient,
  LeastSquares,
  NodeLeastSquares,
  FluxSum,
  MinMax
};
enum class LoopMode : std::uint8_t { Face, Cell, Node };

inline constexpr std::array kAllLoopKernels = {
    LoopKernel::Interpolation,    LoopKernel::Gradient, LoopKernel::LeastSquares,
    LoopKernel::NodeLeastSquares, LoopKernel::FluxSum,  LoopKernel::MinMax};
inline constexpr std::array kAllLoopModes = {LoopMode::Face, LoopMode::Cell, LoopMode::Node};

constexpr std::string_view loopKernelName(LoopKernel k) {
  switch (k) {
  case LoopKernel::Interpolation:
    return "interpolation";
  case LoopKernel::Gradient:
    return "gradient";
  case LoopKernel::LeastSquares:
    return "least_squares";
  case LoopKernel::NodeLeastSquares:
    return "node_least_squares";
  case LoopKernel::FluxSum:
    return "flux_sum";
  default:
    return "min_max";
  }
}

constexpr std::string_view loopModeName(LoopMode m) {
  switch (m) {
  case LoopMode::Face:
    return "face";
  case LoopMode::Cell:
    return "cell";
  default:
    return "node";
  }
}

// Seed 003 gives the flux summation and the min/max no node loop: they read no node data; nor
// does the least-squares gradient. The node-neighbour least squares runs as a face loop over the
// stencil's pairs (engine/unstructured/cell_pairs.hpp), whose gather strategy is its cell loop.
constexpr bool hasLoopMode(LoopKernel k, LoopMode m) {
  if (k == LoopKernel::NodeLeastSquares)
    return m == LoopMode::Face;
  return m != LoopMode::Node || k == LoopKernel::Interpolation || k == LoopKernel::Gradient;
}

// The stencil a plan holds beside the faces: the node-neighbour pairs are built only for the
// gradient that reads them (tens of pairs per cell on tetrahedra).
enum class GradientStencil : std::uint8_t { FaceNeighbours, NodeNeighbours };

// What the loop bodies read, as raw pointers into the plan's memory space. CSR rows as in Mesh:
// row r of X is X[XOffsets[r] .. XOffsets[r + 1]).
struct MeshLoopView {
  int numCells = 0, numFaces = 0, numNodes = 0;
  const int* owner = nullptr;
  const int* neighbour = nullptr;   // -1 on boundary faces
  const double* faceArea = nullptr; // [face][3], owner -> neighbour
  const double* cellVolume = nullptr;
  const int* cellFaceOffsets = nullptr;
  const int* cellFaces = nullptr;
  const int* cellNodeOffsets = nullptr;
  const int* cellNodes = nullptr;
  const int* nodeCellOffsets = nullptr;
  const int* nodeCells = nullptr;
  const int* faceNodeOffsets = nullptr;
  const int* faceNodes = nullptr;
  const int* nodeFaceOffsets = nullptr; // the transpose of faceNodes
  const int* nodeFaces = nullptr;
  // Interpolation weights w(c, n) (engine/unstructured/reconstruction_geometry.hpp: exact for
  // linear fields), in the layout each mode reads: per cellNodes entry, per nodeCells entry, and
  // per faceNodes entry two (the owner's, the neighbour's; 0 on boundary faces) divided by m(c, n),
  // the number of faces of c that hold n, so that the m faces through which a face loop meets (c,
  // n) add w(c, n) once.
  const double* cellNodeWeight = nullptr;
  const double* nodeCellWeight = nullptr;
  const double* faceNodeWeight = nullptr;
  // The gradients' matrices and the least-squares face vectors
  // (engine/unstructured/reconstruction_geometry.hpp): [cell][3][3], [cell][3][3], [face][3].
  const double* greenGaussMatrix = nullptr;
  const double* leastSquaresMatrix = nullptr;
  const double* leastSquaresFace = nullptr;
  // The node-neighbour stencil (plans built with GradientStencil::NodeNeighbours, else null): the
  // cells' centroids ([cell][3]) the pair vectors come from, and L_c of the stencil.
  const double* cellCentroid = nullptr;
  const double* nodeLeastSquaresMatrix = nullptr;
  // Where face states are reconstructed: x_f - x_owner, x_f - x_neighbour per face ([face][6]),
  // and each cell's size V^(1/3).
  const double* faceOffset = nullptr;
  const double* cellSize = nullptr;
};

// Host-side construction of the plan's arrays.
namespace detail {

// The weights of MeshLoopView, per cellNodes, nodeCells and (two per) faceNodes entry.
struct InterpolationWeights {
  std::vector<double> cellNode, nodeCell, faceNode;
};

inline InterpolationWeights interpolationWeights(const Mesh& mesh) {
  const std::vector<double> atNode = nodeWeights(mesh);
  const auto weight = [&](int c, int n) {
    const std::span<const int> cells = mesh.nodeCells.row(n);
    const std::size_t i = std::size_t(std::find(cells.begin(), cells.end(), c) - cells.begin());
    return atNode[std::size_t(mesh.nodeCells.offsets[std::size_t(n)]) + i];
  };
  InterpolationWeights w;
  w.cellNode.resize(mesh.cellNodes.indices.size());
  w.faceNode.assign(2 * mesh.faceNodes.indices.size(), 0.0);
  for (int c = 0; c < mesh.numCells(); ++c) {
    const std::span<const int> nodes = mesh.cellNodes.row(c);
    const auto local = [&](int n) {
      return std::size_t(std::find(nodes.begin(), nodes.end(), n) - nodes.begin());
    };
    std::array<int, 8> facesAtNode{}; // m(c, n) for the cell's nodes (at most 8, hexahedra)
    for (int f : mesh.cellFaces.row(c))
      for (int n : mesh.faceNodes.row(f))
        ++facesAtNode[local(n)];
    for (std::size_t i = 0; i < nodes.size(); ++i)
      w.cellNode[std::size_t(mesh.cellNodes.offsets[std::size_t(c)]) + i] = weight(c, nodes[i]);
    for (int f : mesh.cellFaces.row(c)) {
      const std::size_t side = mesh.owner[std::size_t(f)] == c ? 0 : 1;
      for (int s = mesh.faceNodes.offsets[std::size_t(f)];
           s < mesh.faceNodes.offsets[std::size_t(f) + 1]; ++s) {
        const int n = mesh.faceNodes.indices[std::size_t(s)];
        w.faceNode[2 * std::size_t(s) + side] = weight(c, n) / facesAtNode[local(n)];
      }
    }
  }
  w.nodeCell = atNode;
  return w;
}

} // namespace detail

// The mesh data of the loop modes in one memory space, and the face scatter plan of the atomics
// library for the face loops that add (with the node-neighbour stencil, a second one for its
// pairs). Built once per mesh (host work linear in the mesh size).
class MeshLoopPlan {
public:
  MeshLoopPlan(const Mesh& mesh, MemorySpace space,
               GradientStencil stencil = GradientStencil::FaceNeighbours);

  MeshLoopView view() const;
  const atomics::FaceScatterPlan& scatter() const { return scatter_; }
  MemorySpace space() const { return scatter_.space(); }
  // The node-neighbour pairs as faces; throws std::logic_error where the plan has no such stencil.
  const atomics::FaceScatterPlan& pairScatter() const {
    if (!pairScatter_)
      throw std::logic_error("node_least_squares: the mesh loop plan was built without the "
                             "node-neighbour stencil");
    return *pairScatter_;
  }

private:
  // Owner, neighbour and each cell's faces come from the scatter plan, not a second copy.
  atomics::FaceScatterPlan scatter_;
  std::optional<atomics::FaceScatterPlan> pairScatter_;
  DeviceArray<double> cellCentroid_, nodeLeastSquaresMatrix_;
  int numNodes_ = 0;
  DeviceArray<int> cellNodeOffsets_, cellNodes_, nodeCellOffsets_, nodeCells_, faceNodeOffsets_,
      faceNodes_, nodeFaceOffsets_, nodeFaces_;
  DeviceArray<double> faceArea_, cellVolume_, cellNodeWeight_, nodeCellWeight_, faceNodeWeight_;
  DeviceArray<double> greenGaussMatrix_, leastSquaresMatrix_, leastSquaresFace_, faceOffset_,
      cellSize_;
};

inline MeshLoopPlan::MeshLoopPlan(const Mesh& mesh, MemorySpace space, GradientStencil stencil)
    : scatter_(mesh, space), numNodes_(mesh.numNodes()),
      cellNodeOffsets_(toSpace(mesh.cellNodes.offsets, space)),
      cellNodes_(toSpace(mesh.cellNodes.indices, space)),
      nodeCellOffsets_(toSpace(mesh.nodeCells.offsets, space)),
      nodeCells_(toSpace(mesh.nodeCells.indices, space)),
      faceNodeOffsets_(toSpace(mesh.faceNodes.offsets, space)),
      faceNodes_(toSpace(mesh.faceNodes.indices, space)),
      faceArea_(toSpace(flattened(mesh.faceArea), space)),
      cellVolume_(toSpace(mesh.cellVolume, space)) {
  const Csr nodeFaces = transposed(mesh.faceNodes, numNodes_);
  nodeFaceOffsets_ = toSpace(nodeFaces.offsets, space);
  nodeFaces_ = toSpace(nodeFaces.indices, space);
  const detail::InterpolationWeights w = detail::interpolationWeights(mesh);
  cellNodeWeight_ = toSpace(w.cellNode, space);
  nodeCellWeight_ = toSpace(w.nodeCell, space);
  faceNodeWeight_ = toSpace(w.faceNode, space);
  const ReconstructionGeometry g = reconstructionGeometry(mesh);
  greenGaussMatrix_ = toSpace(g.greenGaussMatrix, space);
  leastSquaresMatrix_ = toSpace(g.leastSquaresMatrix, space);
  leastSquaresFace_ = toSpace(g.leastSquaresFace, space);
  faceOffset_ = toSpace(g.faceOffset, space);
  cellSize_ = toSpace(g.cellSize, space);
  if (stencil == GradientStencil::NodeNeighbours) {
    const CellPairs pairs = nodeNeighbourPairs(mesh);
    pairScatter_.emplace(pairs, space);
    cellCentroid_ = toSpace(flattened(mesh.cellCentroid), space);
    nodeLeastSquaresMatrix_ = toSpace(nodeLeastSquaresMatrices(mesh, pairs), space);
  }
}

inline MeshLoopView MeshLoopPlan::view() const {
  const atomics::FaceTopology t = scatter_.topology();
  MeshLoopView v;
  v.numCells = t.numCells;
  v.numFaces = t.numFaces;
  v.numNodes = numNodes_;
  v.owner = t.owner;
  v.neighbour = t.neighbour;
  v.faceArea = faceArea_.data();
  v.cellVolume = cellVolume_.data();
  v.cellFaceOffsets = t.cellFaceOffsets;
  v.cellFaces = t.cellFaces;
  v.cellNodeOffsets = cellNodeOffsets_.data();
  v.cellNodes = cellNodes_.data();
  v.nodeCellOffsets = nodeCellOffsets_.data();
  v.nodeCells = nodeCells_.data();
  v.faceNodeOffsets = faceNodeOffsets_.data();
  v.faceNodes = faceNodes_.data();
  v.nodeFaceOffsets = nodeFaceOffsets_.data();
  v.nodeFaces = nodeFaces_.data();
  v.cellNodeWeight = cellNodeWeight_.data();
  v.nodeCellWeight = nodeCellWeight_.data();
  v.faceNodeWeight = faceNodeWeight_.data();
  v.greenGaussMatrix = greenGaussMatrix_.data();
  v.leastSquaresMatrix = leastSquaresMatrix_.data();
  v.leastSquaresFace = leastSquaresFace_.data();
  v.cellCentroid = cellCentroid_.data();
  v.nodeLeastSquaresMatrix = nodeLeastSquaresMatrix_.data();
  v.faceOffset = faceOffset_.data();
  v.cellSize = cellSize_.data();
  return v;
}

} // namespace tessera::unstructured
