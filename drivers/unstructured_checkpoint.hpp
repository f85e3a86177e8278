#pragma once
// The data of an unstructured run's checkpoint: every cell's conserved state at the cell's index
// in the mesh the case builds (io/checkpoint.hpp's state.bin), whatever partition or renumbering
// the writing run had, so that any rank count reads it back; and the fingerprint by which a
// restart knows the mesh is the same. The folder protocol and checkpoint.toml are
// io/checkpoint.hpp's.
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <mpi.h>
#include <span>
#include <string>
#include <vector>

#include "engine/unstructured/mesh.hpp"
#include "io/checkpoint.hpp"
#include "solvers/unstructured/unstructured_euler.hpp"

namespace tessera {

// The mesh's nodes and cells (shapes, node lists) hashed: a restart on a mesh file edited since the
// checkpoint is refused even where the counts agree.
inline std::string meshFingerprint(const unstructured::Mesh& mesh) {
  std::uint64_t hash = io::fnv1a(mesh.nodes.data(), mesh.nodes.size() * sizeof(mesh.nodes[0]));
  hash =
      io::fnv1a(mesh.cellShapes.data(), mesh.cellShapes.size() * sizeof(mesh.cellShapes[0]), hash);
  hash =
      io::fnv1a(mesh.cellNodes.offsets.data(), mesh.cellNodes.offsets.size() * sizeof(int), hash);
  hash =
      io::fnv1a(mesh.cellNodes.indices.data(), mesh.cellNodes.indices.size() * sizeof(int), hash);
  char text[32];
  std::snprintf(text, sizeof text, "%016" PRIx64, hash);
  return text;
}

namespace detail {
inline std::vector<long long> recordsOf(std::span<const int> globalCell) {
  return {globalCell.begin(), globalCell.end()};
}
} // namespace detail

// Collective: writes the cells' states (values: [cell][5] conserved, the cell of row i being
// globalCell[i] among globalCells) into folder's state.bin; returns, on rank 0, what
// checkpoint.toml records of it.
inline std::vector<io::CheckpointInfo::DataFile>
writeCellStates(MPI_Comm comm, const std::filesystem::path& folder, long long globalCells,
                std::span<const int> globalCell, std::span<const double> values) {
  const std::vector<long long> records = detail::recordsOf(globalCell);
  io::writeStateRecords(comm, folder / io::kStateFile, globalCells,
                        std::span<const long long>(records), UnstructuredEuler::kNumVars, values);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0)
    return {};
  return {io::describeDataFile(folder / io::kStateFile, false)};
}

// Collective: the states of the cells globalCell (in its order) from folder's state.bin. Throws
// io::CheckpointError (on every rank alike) where the file is damaged or holds another mesh.
inline std::vector<double> readCellStates(MPI_Comm comm, const std::filesystem::path& folder,
                                          long long globalCells, std::span<const int> globalCell) {
  const std::vector<long long> records = detail::recordsOf(globalCell);
  return io::readStateRecords(comm, folder / io::kStateFile, globalCells,
                              std::span<const long long>(records), UnstructuredEuler::kNumVars,
                              "cell");
}

} // namespace tessera
