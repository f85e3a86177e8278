// The halo exchange (engine/mpi/halo_exchange.hpp) on a ring of ranks, by every transport this
// machine offers: each rank owns kOwned items and holds copies of the kShared last items of the
// rank before it and the kShared first of the rank after it (its own on one rank). Every value is
// a function of its item's global number, its component and the round, so after each exchange
// every copy must hold exactly its owner's value of that round: a stale, missing or misplaced
// message shows. Two exchanges take turns, as the state's and the fluxes' do in a step, so that
// one exchange's messages cannot be taken for the other's; and every round the ring takes another
// width of shared items, the exchanges replanned for it (as a regrid's), now fewer, now more than
// any round before, so that a transport's buffers must grow.
#include <cstddef>
#include <gtest/gtest.h>
#include <mpi.h>
#include <string>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "engine/mpi/exchange_transport.hpp"
#include "engine/mpi/halo_exchange.hpp"

namespace tessera::mpi {
namespace {

constexpr int kOwned = 40, kWidth = 3, kRounds = 6;
// The shared items of each round, in turn.
constexpr int kShared[] = {7, 3, 14};

struct Ring {
  int rank = 0, ranks = 1;
  int shared = kShared[0];
  int before() const { return (rank + ranks - 1) % ranks; }
  int after() const { return (rank + 1) % ranks; }
  // The global number of local item i: owned ones first, then the copies of the rank before's
  // last items, then the rank after's first items.
  int global(int i) const {
    if (i < kOwned)
      return rank * kOwned + i;
    if (i < kOwned + shared)
      return before() * kOwned + kOwned - shared + (i - kOwned);
    return after() * kOwned + (i - kOwned - shared);
  }
};

Ring ring(int shared) {
  Ring r;
  r.shared = shared;
  MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &r.ranks);
  return r;
}

// Row by neighbour rank, both ends in the same order: what a rank sends to its neighbour q is
// first what q copies as "the rank before's" (if this rank is before q), then as "the rank
// after's" (if this rank is after q); what it receives from q, the same from q's side.
HaloPlan ringPlan(const Ring& r) {
  HaloPlan plan;
  std::vector<int> neighbours{r.before(), r.after()};
  if (neighbours[0] > neighbours[1])
    std::swap(neighbours[0], neighbours[1]);
  if (neighbours[0] == neighbours[1])
    neighbours.pop_back();
  for (int q : neighbours) {
    std::vector<int> send, receive;
    if (r.after() == q) // this rank is q's "before": q copies its last items
      for (int k = 0; k < r.shared; ++k)
        send.push_back(kOwned - r.shared + k);
    if (r.before() == q) // this rank is q's "after": q copies its first items
      for (int k = 0; k < r.shared; ++k)
        send.push_back(k);
    if (r.before() == q)
      for (int k = 0; k < r.shared; ++k)
        receive.push_back(kOwned + k);
    if (r.after() == q)
      for (int k = 0; k < r.shared; ++k)
        receive.push_back(kOwned + r.shared + k);
    plan.neighbourRanks.push_back(q);
    plan.sendItems.appendRow(send);
    plan.receiveItems.appendRow(receive);
  }
  return plan;
}

template <class T>
T valueOf(int global, int component, int round, int exchange) {
  return T(global * 16 + component + 0.25 * round + 0.125 * exchange);
}

// The values of one round: the owned items' set, the copies' left at -1.
template <class T>
std::vector<T> roundValues(const Ring& r, int round, int exchange) {
  std::vector<T> values(std::size_t(kOwned + 2 * r.shared) * kWidth, T(-1));
  for (int i = 0; i < kOwned; ++i)
    for (int c = 0; c < kWidth; ++c)
      values[std::size_t(i) * kWidth + std::size_t(c)] =
          valueOf<T>(r.global(i), c, round, exchange);
  return values;
}

template <class T>
void exchangeRounds(MemorySpace space) {
  std::vector<BasicHaloExchange<T>> exchanges;
  exchanges.reserve(2);
  for (int e = 0; e < 2; ++e)
    exchanges.emplace_back(MPI_COMM_WORLD, ringPlan(ring(kShared[0])), kWidth, space);
  for (int round = 0; round < kRounds; ++round) {
    const Ring r = ring(kShared[round % 3]);
    for (int e = 0; e < 2; ++e) {
      if (round > 0)
        exchanges[std::size_t(e)].replan(ringPlan(r));
      DeviceArray<T> values = toSpace(roundValues<T>(r, round, e), space);
      exchanges[std::size_t(e)].exchange(values.data());
      const std::vector<T> after = toHost(values);
      for (int i = 0; i < kOwned + 2 * r.shared; ++i)
        for (int c = 0; c < kWidth; ++c)
          ASSERT_EQ(after[std::size_t(i) * kWidth + std::size_t(c)],
                    valueOf<T>(r.global(i), c, round, e))
              << "rank " << r.rank << ", item " << i << ", component " << c << ", round " << round
              << ", exchange " << e << ", transport "
              << transportName(exchanges[std::size_t(e)].transport());
    }
  }
}

TEST(HaloExchange, RingOnTheHost) {
  exchangeRounds<double>(MemorySpace::Host);
  exchangeRounds<float>(MemorySpace::Host);
}

// Every transport, where this machine has a device: staged always, peer where the ranks' GPUs
// reach each other (a GPU machine of one node).
TEST(HaloExchange, RingOnTheDeviceByEveryTransport) {
  if (!deviceAvailable())
    GTEST_SKIP() << "no device";
  const ExchangeTransport before = requestedTransport();
  for (ExchangeTransport t : {ExchangeTransport::Staged, ExchangeTransport::Peer}) {
    if (t == ExchangeTransport::Peer &&
        resolveTransport(MPI_COMM_WORLD, ExchangeTransport::Auto) != t)
      continue;
    requestTransport(t);
    exchangeRounds<double>(MemorySpace::Device);
    exchangeRounds<float>(MemorySpace::Device);
  }
  requestTransport(before);
}

} // namespace
} // namespace tessera::mpi
