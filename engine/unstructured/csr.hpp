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

// Row c of the result lists the rows of `relation` that hold c (c < columns), in increasing
// order, by counting sort: node to cells from cell to nodes, node to faces from face to nodes.
inline Csr transposed(const Csr& relation, int columns) {
  Csr t;
  t.offsets.assign(std::size_t(columns) + 1, 0);
  for (int c : relation.indices)
    ++t.offsets[std::size_t(c) + 1];
  for (std::size_t c = 0; c < std::size_t(columns); ++c)
    t.offsets[c + 1] += t.offsets[c];
  std::vector<int> next(t.offsets.begin(), t.offsets.end() - 1);
  t.indices.resize(relation.indices.size());
  for (int r = 0; r < relation.rows(); ++r)
    for (int c : relation.row(r))
      t.indices[std::size_t(next[std::size_t(c)]++)] = r;
  return t;
}

} // namespace tessera::unstructured
