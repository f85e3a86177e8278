#pragma once
// Cell renumbering. Reverse Cuthill-McKee on the cell graph (cells joined by interior faces)
// keeps face neighbours close in memory, and with faces sorted by owner consecutive faces share
// owners: what the scatter strategies of the atomics library rely on (seed 000, Tables I/II).
#include <span>
#include <vector>

#include "engine/unstructured/mesh.hpp"

namespace tessera::unstructured {

// newToOld[n] = the old index of the cell numbered n. Each connected component starts from a
// pseudo-peripheral cell (George-Liu), neighbours are queued by increasing degree.
std::vector<int> reverseCuthillMcKee(const Mesh& mesh);

// The description with cell n = old cell newToOld[n]. Throws std::invalid_argument when newToOld
// is not a permutation of the cells.
MeshDescription renumberCells(const MeshDescription& description, std::span<const int> newToOld);

// The mesh rebuilt with its cells renumbered: faces sorted by owner again, geometry recomputed.
Mesh renumbered(const Mesh& mesh, std::span<const int> newToOld);

// max |owner - neighbour| over the interior faces (0 without any).
int bandwidth(const Mesh& mesh);

} // namespace tessera::unstructured
