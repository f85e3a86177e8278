#pragma once
// The geometric coefficients of second-order reconstruction on the mixed-element mesh, computed
// once per mesh on the host. Both gradient methods are a face sum followed by a 3x3 matrix per
// cell, exact for linear fields by construction:
//
// Green-Gauss with node-averaged face values: phi_f = the mean of phi at the face's nodes, the
// node values interpolated from the cells around each node (nodeWeights), and
//   grad_c = G_c sum_f phi_f S_f,  G_c = (sum_f S_f (xbar_f - x_c)^T)^-1,
// S_f leaving c, xbar_f the mean of the face's nodes. Where the faces are planar, G_c = I / V_c
// (the divergence theorem) and this is the textbook formula; on a warped quadrilateral face the
// mean of the nodes is not the face's centroid, and G_c corrects exactly that, so a linear field's
// gradient is exact on every shape.
//
// Weighted least squares: grad_c minimises sum_n w_n (phi_n - phi_c - g.d_n)^2 over the
// neighbours n, d_n = x_n - x_c, w_n = 1 / |d_n|^2, so
//   grad_c = L_c sum_n w_n d_n (phi_n - phi_c),  L_c = (sum_n w_n d_n d_n^T)^+.
// The pair term w d (phi_n - phi_c), d from the first cell to the second, is the same for both
// cells of the pair. Two stencils:
//   face neighbours (4 on a tetrahedron, 6 on a hexahedron): compact, and stable on hexahedra and
//     prisms, but on tetrahedra the second-order scheme built on it is unstable wherever the
//     limiter is off: a gas at rest on Kuhn-split cubes grew its round-off to 0.5% density errors
//     by t = 0.15 (Diskin and Thomas, AIAA J. 49(4), 2011, find the same for cell-centred schemes
//     with face-neighbour gradients on tetrahedra);
//   node neighbours, every cell that shares a node with c (about 50 on a tetrahedral mesh), as
//     cell-centred production codes use on tetrahedra; pairs of engine/unstructured/cell_pairs.hpp.
//
// Pseudo-inverses (here and in the node weights): a cell whose neighbours' centroids span only a
// plane or a line (every cell of a one-layer 2D mesh, a tetrahedron in a corner) gets the
// gradient's components in the directions they span and 0 across them.
#include <vector>

#include "engine/unstructured/cell_pairs.hpp"
#include "engine/unstructured/mesh.hpp"

namespace tessera::unstructured {

// Interpolation from cells to nodes: phi_node = sum over the cells c around the node of
// w(c, node) phi_c. At an inner node, the value at the node of the least-squares linear fit to the
// cells' centroid values (pseudo-Laplacian weights, Holmes and Connell 1989): exact for linear
// fields. At a node on the boundary whose cells lie on one side that fit extrapolates, with
// weights of both signs, and such face values make the second-order scheme unstable (a freestream
// on the mixed test box grew its round-off by 1e11 in 100 steps); there the node takes the
// inverse-distance average of its cells, positive weights, first-order accurate. A boundary node
// whose fit interpolates (all weights positive: the nodes inside a one-layer mesh's symmetry
// planes) keeps it. The weights sum to 1. One weight per mesh.nodeCells entry.
std::vector<double> nodeWeights(const Mesh& mesh);

struct ReconstructionGeometry {
  std::vector<double> greenGaussMatrix;   // G_c, [cell][3][3] row-major
  std::vector<double> leastSquaresMatrix; // L_c, [cell][3][3]
  std::vector<double> leastSquaresFace;   // w d per face, [face][3] (0 on boundary faces)
  // x_f - x_owner and x_f - x_neighbour (zeros on the boundary) per face, [face][6]: where the
  // face states are reconstructed (x_f the face's centroid).
  std::vector<double> faceOffset;
  std::vector<double> cellSize; // V_c^(1/3), the length of Venkatakrishnan's threshold
};

ReconstructionGeometry reconstructionGeometry(const Mesh& mesh);

// L_c of the node-neighbour stencil, [cell][3][3], from the pairs of nodeNeighbourPairs(mesh).
std::vector<double> nodeLeastSquaresMatrices(const Mesh& mesh, const CellPairs& pairs);

// The Moore-Penrose pseudo-inverse of a symmetric 3x3 matrix (row-major), by Jacobi rotations:
// eigenvalues below 1e-10 of the largest one in magnitude count as zero.
std::array<double, 9> symmetricPseudoInverse(const std::array<double, 9>& a);

} // namespace tessera::unstructured
