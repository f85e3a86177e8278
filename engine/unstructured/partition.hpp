#pragma once
// Partitioning an unstructured mesh over MPI ranks: METIS's k-way partition of the cell graph
// (cells joined by interior faces), and each rank's local mesh, its owned cells followed by the
// halo cells it reads from other ranks, with the plan of which values travel where.
#include <span>
#include <vector>

#include "engine/mpi/halo_plan.hpp"
#include "engine/unstructured/csr.hpp"
#include "engine/unstructured/mesh.hpp"

namespace tessera::unstructured {

// The part of every cell, in [0, parts): METIS_PartGraphKway on the cell graph, balancing cell
// counts and minimising the faces cut, with METIS's seed fixed so that every rank computes the
// same partition. parts == 1 puts every cell in part 0 without calling METIS. Throws
// std::invalid_argument for parts < 1 or parts > numCells, std::runtime_error with METIS's status
// where METIS fails.
std::vector<int> partitionCells(const Mesh& mesh, int parts);

// One rank's share of a partitioned mesh. The mesh holds the rank's owned cells (ascending global
// index) and then its halo cells: the other ranks' cells that share a face (or, as asked, a node)
// with an owned cell (ascending global index). Every face of an owned cell is there with its global
// tag; a halo cell also has faces to cells this rank does not hold, tagged partitionTag
// ("partition" in tagNames): they only close the halo cell, whose values are overwritten by each
// exchange.
struct LocalMesh {
  Mesh mesh;
  int numOwned = 0;
  std::vector<int> globalCell; // local cell -> global cell
  int partitionTag = 0;        // 1 + the largest tag of the global mesh (0 where it has none)
  mpi::HaloPlan halo;          // rows in ascending global cell order
};

// The local mesh of `rank` under partOfCell (one part per global cell, parts are ranks). Throws
// std::invalid_argument where partOfCell's size differs from the cell count or rank owns no cell.
// reach = NodeNeighbours takes every cell that shares a node with an owned cell into the halo:
// what a gradient from node values (Green-Gauss with node averages) reads.
enum class HaloCells { FaceNeighbours, NodeNeighbours };
LocalMesh localMesh(const Mesh& global, std::span<const int> partOfCell, int rank,
                    HaloCells reach = HaloCells::FaceNeighbours);

// The local mesh with its cells renumbered (cell n is the old cell newToOld[n]); the owned cells
// must stay first (newToOld maps [0, numOwned) onto itself). The global numbers and the halo
// plan follow the cells; each plan row keeps its order, so that both ends still list the same
// cells in the same order. Throws std::invalid_argument for anything else.
LocalMesh renumbered(const LocalMesh& local, std::span<const int> newToOld);

} // namespace tessera::unstructured
