#pragma once
// Which values travel between this rank and its neighbours in a halo exchange. The items are
// whatever the caller distributes: the cells of a partitioned unstructured mesh, the patches of a
// forest. Row i of sendItems holds the local indices of the owned items whose values go to
// neighbourRanks[i]; row i of receiveItems holds the local indices of the copies (halo cells,
// ghost patches) whose values come from neighbourRanks[i]. Both rows of a pair of ranks list the
// same items in the same order, so a message needs no indices.
#include <algorithm>
#include <span>
#include <vector>

#include "engine/unstructured/csr.hpp"

namespace tessera::mpi {

struct HaloPlan {
  std::vector<int> neighbourRanks; // ascending
  unstructured::Csr sendItems, receiveItems;
};

// The owned items the plan sends to any rank, each once, ascending (of a forest's ghost exchange:
// the mirrors, the leaves beside other ranks' leaves).
inline std::vector<int> sentItems(const HaloPlan& plan) {
  std::vector<int> items = plan.sendItems.indices;
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  return items;
}

// The plan split by a class of the items (classOf[item] in [0, classes)): plan k moves the items
// of class k, every neighbour kept (possibly with empty rows). Both ends stay paired where every
// rank gives each item the same class, since filtering keeps each row's order.
inline std::vector<HaloPlan> splitByClass(const HaloPlan& plan, std::span<const int> classOf,
                                          int classes) {
  std::vector<HaloPlan> split(static_cast<std::size_t>(classes));
  std::vector<std::vector<int>> send(split.size()), receive(split.size());
  for (int r = 0; r < int(plan.neighbourRanks.size()); ++r) {
    for (auto& row : send)
      row.clear();
    for (auto& row : receive)
      row.clear();
    for (int item : plan.sendItems.row(r))
      send[std::size_t(classOf[std::size_t(item)])].push_back(item);
    for (int item : plan.receiveItems.row(r))
      receive[std::size_t(classOf[std::size_t(item)])].push_back(item);
    for (std::size_t k = 0; k < split.size(); ++k) {
      split[k].neighbourRanks.push_back(plan.neighbourRanks[std::size_t(r)]);
      split[k].sendItems.appendRow(send[k]);
      split[k].receiveItems.appendRow(receive[k]);
    }
  }
  return split;
}

} // namespace tessera::mpi
