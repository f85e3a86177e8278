#pragma once
// The loop bodies of seed 003's modes (solvers/unstructured/mesh_loops.hpp): one item of one mode
// each, the same code on the host and on the device.
#include "engine/backend.hpp"
#include "solvers/unstructured/mesh_loop_plan.hpp"

namespace tessera::unstructured {

// Atomics provides static add, min and max on a double in memory (HostAtomics, DeviceAtomics).

// phi_f of the Green-Gauss gradient: the mean of the node values at the face's nodes. Every mode
// evaluates it here, so all of them see the same bits for a face.
TESSERA_INLINE void faceValue(const MeshLoopView& m, const double* qNode, int f,
                              double (&phi)[kCellVars]) {
  for (int k = 0; k < kCellVars; ++k)
    phi[k] = 0.0;
  const int first = m.faceNodeOffsets[f], last = m.faceNodeOffsets[f + 1];
  for (int s = first; s < last; ++s)
    for (int k = 0; k < kCellVars; ++k)
      phi[k] += qNode[kCellVars * m.faceNodes[s] + k];
  const double inv = 1.0 / (last - first);
  for (int k = 0; k < kCellVars; ++k)
    phi[k] *= inv;
}

// out[3k + a] = scale sum_b matrix[a][b] phi[k] v[b]: a face term phi v turned into gradient
// components by a cell's 3x3 matrix (row-major).
TESSERA_INLINE void gradientTerm(const double* matrix, const double (&phi)[kCellVars],
                                 const double* v, double scale, double* out) {
  double mv[3];
  for (int a = 0; a < 3; ++a)
    mv[a] = scale * (matrix[3 * a] * v[0] + matrix[3 * a + 1] * v[1] + matrix[3 * a + 2] * v[2]);
  for (int k = 0; k < kCellVars; ++k)
    for (int a = 0; a < 3; ++a)
      out[3 * k + a] = phi[k] * mv[a];
}

// Interpolation, face loop (seed 003's NV-F): each face adds its owner's and its neighbour's
// weighted values to each of its nodes, one atomic addition per node and variable.
template <class Atomics>
struct InterpolateFaceLoop {
  MeshLoopView m;
  const double* q;
  double* qNode;
  TESSERA_HOST_DEVICE void operator()(int f) const {
    const int o = m.owner[f], n = m.neighbour[f];
    for (int s = m.faceNodeOffsets[f]; s < m.faceNodeOffsets[f + 1]; ++s) {
      double* target = qNode + kCellVars * m.faceNodes[s];
      const double wo = m.faceNodeWeight[2 * s], wn = m.faceNodeWeight[2 * s + 1];
      for (int k = 0; k < kCellVars; ++k)
        Atomics::add(target + k, n >= 0 ? wo * q[kCellVars * o + k] + wn * q[kCellVars * n + k]
                                        : wo * q[kCellVars * o + k]);
    }
  }
};

// Interpolation, cell loop (NV-C): each cell adds its weighted values to its nodes (atomics).
template <class Atomics>
struct InterpolateCellLoop {
  MeshLoopView m;
  const double* q;
  double* qNode;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    double qc[kCellVars];
    for (int k = 0; k < kCellVars; ++k)
      qc[k] = q[kCellVars * c + k];
    for (int s = m.cellNodeOffsets[c]; s < m.cellNodeOffsets[c + 1]; ++s) {
      double* target = qNode + kCellVars * m.cellNodes[s];
      for (int k = 0; k < kCellVars; ++k)
        Atomics::add(target + k, m.cellNodeWeight[s] * qc[k]);
    }
  }
};

// Interpolation, node loop (NV-N): each node gathers over its cells, race-free.
struct InterpolateNodeLoop {
  MeshLoopView m;
  const double* q;
  double* qNode;
  TESSERA_HOST_DEVICE void operator()(int n) const {
    double sum[kCellVars] = {};
    for (int s = m.nodeCellOffsets[n]; s < m.nodeCellOffsets[n + 1]; ++s)
      for (int k = 0; k < kCellVars; ++k)
        sum[k] += m.nodeCellWeight[s] * q[kCellVars * m.nodeCells[s] + k];
    for (int k = 0; k < kCellVars; ++k)
      qNode[kCellVars * n + k] = sum[k];
  }
};

// Gradient, face loop (GQ-F): the contribution of the face scatter, already turned into gradient
// components by the matrix of the cell it goes to, so that the scatter is the whole kernel.
struct GradientFaceContribution {
  MeshLoopView m;
  const double* qNode;
  TESSERA_HOST_DEVICE void operator()(int f, double* toOwner, double* toNeighbour) const {
    const int o = m.owner[f], n = m.neighbour[f];
    double phi[kCellVars];
    faceValue(m, qNode, f, phi);
    const double* area = m.faceArea + 3 * f;
    gradientTerm(m.greenGaussMatrix + 9 * o, phi, area, 1.0, toOwner);
    if (n >= 0)
      gradientTerm(m.greenGaussMatrix + 9 * n, phi, area, -1.0, toNeighbour);
    else
      for (int i = 0; i < kGradientValues; ++i)
        toNeighbour[i] = 0.0;
  }
};

// Gradient, cell loop (GQ-C): each cell sums over its faces, the sign by its side of the face.
struct GradientCellLoop {
  MeshLoopView m;
  const double* qNode;
  double* grad;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    double sum[kGradientValues] = {};
    for (int s = m.cellFaceOffsets[c]; s < m.cellFaceOffsets[c + 1]; ++s) {
      const int f = m.cellFaces[s];
      double phi[kCellVars];
      faceValue(m, qNode, f, phi);
      const double sign = m.owner[f] == c ? 1.0 : -1.0;
      for (int k = 0; k < kCellVars; ++k)
        for (int a = 0; a < 3; ++a)
          sum[3 * k + a] += sign * phi[k] * m.faceArea[3 * f + a];
    }
    const double* G = m.greenGaussMatrix + 9 * c;
    for (int k = 0; k < kCellVars; ++k)
      for (int a = 0; a < 3; ++a)
        grad[kGradientValues * c + 3 * k + a] =
            G[3 * a] * sum[3 * k] + G[3 * a + 1] * sum[3 * k + 1] + G[3 * a + 2] * sum[3 * k + 2];
  }
};

// Gradient, node loop (GQ-N): phi_f S_f = sum over the face's nodes of qNode S_f / NN_f (NN_f the
// face's node count), so each node adds its share of every face around it to both cells, with
// atomics.
template <class Atomics>
struct GradientNodeLoop {
  MeshLoopView m;
  const double* qNode;
  double* grad;
  TESSERA_HOST_DEVICE void operator()(int node) const {
    double phi[kCellVars];
    for (int k = 0; k < kCellVars; ++k)
      phi[k] = qNode[kCellVars * node + k];
    for (int s = m.nodeFaceOffsets[node]; s < m.nodeFaceOffsets[node + 1]; ++s) {
      const int f = m.nodeFaces[s];
      const int o = m.owner[f], n = m.neighbour[f];
      const double share = 1.0 / (m.faceNodeOffsets[f + 1] - m.faceNodeOffsets[f]);
      double term[kGradientValues];
      gradientTerm(m.greenGaussMatrix + 9 * o, phi, m.faceArea + 3 * f, share, term);
      for (int i = 0; i < kGradientValues; ++i)
        Atomics::add(grad + kGradientValues * o + i, term[i]);
      if (n < 0)
        continue;
      gradientTerm(m.greenGaussMatrix + 9 * n, phi, m.faceArea + 3 * f, -share, term);
      for (int i = 0; i < kGradientValues; ++i)
        Atomics::add(grad + kGradientValues * n + i, term[i]);
    }
  }
};

// Least-squares gradient, face loop: w d (q_neighbour - q_owner), the same for both cells, turned
// into gradient components by each cell's matrix.
struct LeastSquaresFaceContribution {
  MeshLoopView m;
  const double* q;
  TESSERA_HOST_DEVICE void operator()(int f, double* toOwner, double* toNeighbour) const {
    const int o = m.owner[f], n = m.neighbour[f];
    if (n < 0) {
      for (int i = 0; i < kGradientValues; ++i)
        toOwner[i] = toNeighbour[i] = 0.0;
      return;
    }
    double jump[kCellVars];
    for (int k = 0; k < kCellVars; ++k)
      jump[k] = q[kCellVars * n + k] - q[kCellVars * o + k];
    const double* v = m.leastSquaresFace + 3 * f;
    gradientTerm(m.leastSquaresMatrix + 9 * o, jump, v, 1.0, toOwner);
    gradientTerm(m.leastSquaresMatrix + 9 * n, jump, v, 1.0, toNeighbour);
  }
};

// Least-squares gradient, cell loop: each cell sums over its interior faces.
struct LeastSquaresCellLoop {
  MeshLoopView m;
  const double* q;
  double* grad;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    double sum[kGradientValues] = {};
    for (int s = m.cellFaceOffsets[c]; s < m.cellFaceOffsets[c + 1]; ++s) {
      const int f = m.cellFaces[s];
      const int o = m.owner[f], n = m.neighbour[f];
      if (n < 0)
        continue;
      for (int k = 0; k < kCellVars; ++k) {
        const double jump = q[kCellVars * n + k] - q[kCellVars * o + k];
        for (int a = 0; a < 3; ++a)
          sum[3 * k + a] += jump * m.leastSquaresFace[3 * f + a];
      }
    }
    const double* L = m.leastSquaresMatrix + 9 * c;
    for (int k = 0; k < kCellVars; ++k)
      for (int a = 0; a < 3; ++a)
        grad[kGradientValues * c + 3 * k + a] =
            L[3 * a] * sum[3 * k] + L[3 * a + 1] * sum[3 * k + 1] + L[3 * a + 2] * sum[3 * k + 2];
  }
};

// Least-squares gradient over the node neighbours, pair loop: for the pair (a, b) of cells that
// share a node, w d (q_b - q_a) with d = x_b - x_a and w = 1 / |d|^2, the same for both cells.
// The pairs add these raw sums; each cell's matrix turns them into its gradient afterwards
// (ApplyNodeLeastSquaresMatrix), once per cell rather than twice per pair: a cell has tens of
// pairs. The pair vector is computed from the centroids rather than stored: three doubles per
// pair would be most of the stencil's memory.
struct NodeLeastSquaresPairContribution {
  MeshLoopView m;
  atomics::FaceTopology pairs;
  const double* q;
  TESSERA_HOST_DEVICE void operator()(int p, double* toFirst, double* toSecond) const {
    const int a = pairs.owner[p], b = pairs.neighbour[p];
    double v[3];
    for (int i = 0; i < 3; ++i)
      v[i] = m.cellCentroid[3 * b + i] - m.cellCentroid[3 * a + i];
    const double w = 1.0 / (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < kCellVars; ++k) {
      const double wJump = w * (q[kCellVars * b + k] - q[kCellVars * a + k]);
      for (int i = 0; i < 3; ++i)
        toFirst[3 * k + i] = toSecond[3 * k + i] = wJump * v[i];
    }
  }
};

// grad_c = L_c (the raw sums of the pairs), in place, for each cell.
struct ApplyNodeLeastSquaresMatrix {
  MeshLoopView m;
  double* grad;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    const double* L = m.nodeLeastSquaresMatrix + 9 * c;
    double* g = grad + kGradientValues * c;
    for (int k = 0; k < kCellVars; ++k) {
      const double raw[3] = {g[3 * k], g[3 * k + 1], g[3 * k + 2]};
      for (int a = 0; a < 3; ++a)
        g[3 * k + a] = L[3 * a] * raw[0] + L[3 * a + 1] * raw[1] + L[3 * a + 2] * raw[2];
    }
  }
};

// Flux summation, face loop (SF-F): the contribution of the face scatter.
struct FluxFaceContribution {
  const double* flux;
  TESSERA_HOST_DEVICE void operator()(int f, double* toOwner, double* toNeighbour) const {
    for (int k = 0; k < kCellVars; ++k) {
      toOwner[k] = -flux[kCellVars * f + k];
      toNeighbour[k] = flux[kCellVars * f + k];
    }
  }
};

// Flux summation, cell loop (SF-C).
struct FluxSumCellLoop {
  MeshLoopView m;
  const double* flux;
  double* residual;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    double sum[kCellVars] = {};
    for (int s = m.cellFaceOffsets[c]; s < m.cellFaceOffsets[c + 1]; ++s) {
      const int f = m.cellFaces[s];
      const double sign = m.owner[f] == c ? -1.0 : 1.0;
      for (int k = 0; k < kCellVars; ++k)
        sum[k] += sign * flux[kCellVars * f + k];
    }
    for (int k = 0; k < kCellVars; ++k)
      residual[kCellVars * c + k] = sum[k];
  }
};

// Min/max, face loop (LM-F): every cell starts from its own value (this body, a cell loop), then
// each interior face offers each side the other's value through atomic min and max.
struct MinMaxSeed {
  const double* q;
  double* minMax;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    for (int k = 0; k < kCellVars; ++k)
      minMax[kMinMaxValues * c + k] = minMax[kMinMaxValues * c + kCellVars + k] =
          q[kCellVars * c + k];
  }
};

template <class Atomics>
struct MinMaxFaceLoop {
  MeshLoopView m;
  const double* q;
  double* minMax;
  TESSERA_HOST_DEVICE void operator()(int f) const {
    const int o = m.owner[f], n = m.neighbour[f];
    if (n < 0)
      return;
    for (int k = 0; k < kCellVars; ++k) {
      const double qo = q[kCellVars * o + k], qn = q[kCellVars * n + k];
      Atomics::min(minMax + kMinMaxValues * o + k, qn);
      Atomics::max(minMax + kMinMaxValues * o + kCellVars + k, qn);
      Atomics::min(minMax + kMinMaxValues * n + k, qo);
      Atomics::max(minMax + kMinMaxValues * n + kCellVars + k, qo);
    }
  }
};

// Min/max, cell loop (LM-C): each cell compares with the cells across its interior faces.
struct MinMaxCellLoop {
  MeshLoopView m;
  const double* q;
  double* minMax;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    double lo[kCellVars], hi[kCellVars];
    for (int k = 0; k < kCellVars; ++k)
      lo[k] = hi[k] = q[kCellVars * c + k];
    for (int s = m.cellFaceOffsets[c]; s < m.cellFaceOffsets[c + 1]; ++s) {
      const int f = m.cellFaces[s];
      const int other = m.owner[f] == c ? m.neighbour[f] : m.owner[f];
      if (other < 0)
        continue;
      for (int k = 0; k < kCellVars; ++k) {
        const double v = q[kCellVars * other + k];
        lo[k] = v < lo[k] ? v : lo[k];
        hi[k] = v > hi[k] ? v : hi[k];
      }
    }
    for (int k = 0; k < kCellVars; ++k) {
      minMax[kMinMaxValues * c + k] = lo[k];
      minMax[kMinMaxValues * c + kCellVars + k] = hi[k];
    }
  }
};

} // namespace tessera::unstructured
