#pragma once
// Compressed sparse rows: row r holds indices[offsets[r] .. offsets[r + 1]). The connectivities of
// the unstructured mesh (cell to nodes, cell to faces, node to cells, ...) all take this form.
#include <cstddef>
#include <span>
#include <vector>

namespace tessera::unstructured {

struct Csr {
  std::vector<int> offsets{0};
  std::vector<int> indices;

  int rows() const { return int(offsets.size()) - 1; }
  std::span<const int> row(int r) const {
    return {indices.data() + offsets[r], std::size_t(offsets[r + 1] - offsets[r])};
  }
  void appendRow(std::span<const int> values) {
    indices.insert(indices.end(), values.begin(), values.end());
    offsets.push_back(int(indices.size()));
  }
};

} // namespace tessera::unstructured
