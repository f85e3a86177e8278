#pragma once
// The loop bodies of seed 003's modes (solvers/unstructured/mesh_loops.hpp): one item of one mode
// each, the same code on the host and on the device.
#include "engine/backend.hpp"
#include "solvers/unstructured/mesh_loop_plan.hpp"

namespace tessera::unstructured {

// Atomics provides static add, min and max on a double in memory (HostAtomics, DeviceAtomics).

// phi_f of the Green-Gauss gradient: the owner-neighbour average, the owner's value on the
// boundary. Every mode evaluates it here, so all of them see the same bits for a face.
TESSERA_INLINE void faceValue(const double* q, int owner, int neighbour, double (&phi)[kCellVars]) {
  for (int k = 0; k < kCellVars; ++k)
    phi[k] = neighbour >= 0 ? 0.5 * (q[kCellVars * owner + k] + q[kCellVars * neighbour + k])
                            : q[kCellVars * owner + k];
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

// Gradient, face loop (GQ-F): the contribution of the face scatter, already divided by the
// volume of the cell it goes to, so that the scatter is the whole kernel.
struct GradientFaceContribution {
  MeshLoopView m;
  const double* q;
  TESSERA_HOST_DEVICE void operator()(int f, double* toOwner, double* toNeighbour) const {
    const int o = m.owner[f], n = m.neighbour[f];
    double phi[kCellVars];
    faceValue(q, o, n, phi);
    const double* area = m.faceArea + 3 * f;
    const double so = 1.0 / m.cellVolume[o], sn = n >= 0 ? -1.0 / m.cellVolume[n] : 0.0;
    for (int k = 0; k < kCellVars; ++k)
      for (int a = 0; a < 3; ++a) {
        toOwner[3 * k + a] = phi[k] * area[a] * so;
        toNeighbour[3 * k + a] = phi[k] * area[a] * sn;
      }
  }
};

// Gradient, cell loop (GQ-C): each cell sums over its faces, the sign by its side of the face.
struct GradientCellLoop {
  MeshLoopView m;
  const double* q;
  double* grad;
  TESSERA_HOST_DEVICE void operator()(int c) const {
    double sum[kGradientValues] = {};
    for (int s = m.cellFaceOffsets[c]; s < m.cellFaceOffsets[c + 1]; ++s) {
      const int f = m.cellFaces[s];
      const int o = m.owner[f];
      double phi[kCellVars];
      faceValue(q, o, m.neighbour[f], phi);
      const double sign = o == c ? 1.0 : -1.0;
      for (int k = 0; k < kCellVars; ++k)
        for (int a = 0; a < 3; ++a)
          sum[3 * k + a] += sign * phi[k] * m.faceArea[3 * f + a];
    }
    const double scale = 1.0 / m.cellVolume[c];
    for (int i = 0; i < kGradientValues; ++i)
      grad[kGradientValues * c + i] = sum[i] * scale;
  }
};

// Gradient, node loop (GQ-N): each node takes 1/NN_f of every face around it (NN_f: the face's
// node count, so the face's nodes add the face once) and adds it to both cells with atomics.
template <class Atomics>
struct GradientNodeLoop {
  MeshLoopView m;
  const double* q;
  double* grad;
  TESSERA_HOST_DEVICE void operator()(int node) const {
    for (int s = m.nodeFaceOffsets[node]; s < m.nodeFaceOffsets[node + 1]; ++s) {
      const int f = m.nodeFaces[s];
      const int o = m.owner[f], n = m.neighbour[f];
      double phi[kCellVars];
      faceValue(q, o, n, phi);
      const double share = 1.0 / (m.faceNodeOffsets[f + 1] - m.faceNodeOffsets[f]);
      const double so = share / m.cellVolume[o];
      for (int k = 0; k < kCellVars; ++k)
        for (int a = 0; a < 3; ++a)
          Atomics::add(grad + kGradientValues * o + 3 * k + a, phi[k] * m.faceArea[3 * f + a] * so);
      if (n < 0)
        continue;
      const double sn = -share / m.cellVolume[n];
      for (int k = 0; k < kCellVars; ++k)
        for (int a = 0; a < 3; ++a)
          Atomics::add(grad + kGradientValues * n + 3 * k + a, phi[k] * m.faceArea[3 * f + a] * sn);
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
