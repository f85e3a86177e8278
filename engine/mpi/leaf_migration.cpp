#include "engine/mpi/leaf_migration.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/mpi/check.hpp"

namespace tessera::mpi {
namespace {

constexpr int kLeafMigrationTag = 4303;

// The leaves [first, last) in the global order; empty where last <= first.
struct Span {
  long long first = 0, last = 0;
  long long count() const { return std::max(0LL, last - first); }
};

Span overlap(Span a, Span b) {
  return {std::max(a.first, b.first), std::min(a.last, b.last)};
}

void requireRanges(MPI_Comm comm, LeafRanges ranges) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  const auto valid = [&](std::span<const long long> r) {
    return r.size() == std::size_t(ranks) + 1 && r.front() == 0 &&
           std::is_sorted(r.begin(), r.end());
  };
  if (!valid(ranges.before) || !valid(ranges.after) || ranges.before.back() != ranges.after.back())
    throw std::invalid_argument("migrateLeaves: ranges of " + std::to_string(ranges.before.size()) +
                                " and " + std::to_string(ranges.after.size()) + " entries for " +
                                std::to_string(ranks) + " ranks that are not one split each");
}

// One leaf as one element of the messages, so that their counts stay within int at any size.
class LeafType {
public:
  explicit LeafType(std::size_t width) {
    check(MPI_Type_contiguous(int(width), MPI_DOUBLE, &type_), "migrateLeaves",
          "MPI_Type_contiguous");
    check(MPI_Type_commit(&type_), "migrateLeaves", "MPI_Type_commit");
  }
  ~LeafType() { MPI_Type_free(&type_); }
  LeafType(const LeafType&) = delete;
  LeafType& operator=(const LeafType&) = delete;
  MPI_Datatype get() const { return type_; }

private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// One message: the leaves `leaves` to or from `rank`, at `local` in the rank's own array.
struct Message {
  int rank;
  Span leaves;
  long long local; // the first leaf's index in this rank's array
};

} // namespace

void migrateLeaves(MPI_Comm comm, LeafRanges ranges, const double* source, double* target,
                   std::size_t width, MemorySpace space) {
  requireRanges(comm, ranges);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const Span mineBefore{ranges.before[rank], ranges.before[rank + 1]};
  const Span mineAfter{ranges.after[rank], ranges.after[rank + 1]};
  const std::size_t leafBytes = width * sizeof(double);
  if (leafBytes == 0)
    return;

  if (const Span stay = overlap(mineBefore, mineAfter); stay.count() > 0)
    copyBytes(target + std::size_t(stay.first - mineAfter.first) * width, space,
              source + std::size_t(stay.first - mineBefore.first) * width, space,
              std::size_t(stay.count()) * leafBytes);

  std::vector<Message> sends, receives;
  long long sendLeaves = 0, receiveLeaves = 0;
  for (int other = 0; other < ranks; ++other) {
    if (other == rank)
      continue;
    const Span out = overlap(mineBefore, {ranges.after[other], ranges.after[other + 1]});
    if (out.count() > 0) {
      sends.push_back({other, out, out.first - mineBefore.first});
      sendLeaves += out.count();
    }
    const Span in = overlap(mineAfter, {ranges.before[other], ranges.before[other + 1]});
    if (in.count() > 0) {
      receives.push_back({other, in, in.first - mineAfter.first});
      receiveLeaves += in.count();
    }
  }

  const LeafType leaf(width);
  // On the device the messages go through host buffers, in the messages' order.
  const bool staged = space == MemorySpace::Device;
  PinnedArray<double> outgoing(staged ? std::size_t(sendLeaves) * width : 0);
  PinnedArray<double> incoming(staged ? std::size_t(receiveLeaves) * width : 0);
  std::vector<MPI_Request> requests;
  std::size_t at = 0;
  for (const Message& m : receives) {
    double* into = staged ? incoming.data() + at : target + std::size_t(m.local) * width;
    at += std::size_t(m.leaves.count()) * width;
    requests.emplace_back();
    check(MPI_Irecv(into, int(m.leaves.count()), leaf.get(), m.rank, kLeafMigrationTag, comm,
                    &requests.back()),
          "migrateLeaves", "MPI_Irecv");
  }
  at = 0;
  for (const Message& m : sends) {
    const double* from = source + std::size_t(m.local) * width;
    if (staged) {
      copyBytes(outgoing.data() + at, MemorySpace::Host, from, space,
                std::size_t(m.leaves.count()) * leafBytes);
      from = outgoing.data() + at;
    }
    at += std::size_t(m.leaves.count()) * width;
    requests.emplace_back();
    check(MPI_Isend(from, int(m.leaves.count()), leaf.get(), m.rank, kLeafMigrationTag, comm,
                    &requests.back()),
          "migrateLeaves", "MPI_Isend");
  }
  check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "migrateLeaves",
        "MPI_Waitall");
  if (staged && receiveLeaves > 0) {
    at = 0;
    for (const Message& m : receives) {
      copyBytes(target + std::size_t(m.local) * width, space, incoming.data() + at,
                MemorySpace::Host, std::size_t(m.leaves.count()) * leafBytes);
      at += std::size_t(m.leaves.count()) * width;
    }
  }
}

} // namespace tessera::mpi
