#pragma once
// The halo exchange over MPI (halo_plan.hpp): the owned items' values that the plan names go to
// the ranks that hold copies of those items, and the copies' values are overwritten with what
// their owners send. The items are the cells of a partitioned unstructured mesh
// (engine/unstructured/partition.hpp) or the patches of a forest (amr/forest_exchange.hpp).
//
// The values live in the exchange's memory space. On the host the messages are packed from them
// and unpacked into them directly. On the device the plan's item lists live in device memory and
// the messages are packed and unpacked there (halo_pack_device.hpp); the packed messages travel
// by the transport chosen when the exchange is built (exchange_transport.hpp): copied from GPU to
// GPU (peer), or through page-locked host buffers that MPI sends and receives (staged: MPI need
// not be GPU-aware). The device's packing, copies and unpacking run on a stream of their own, so
// that they overlap the kernels the caller launches between start() and finish().
#include <memory>
#include <mpi.h>
#include <utility>
#include <vector>

#include "engine/device_array.hpp"
#include "engine/memory.hpp"
#include "engine/mpi/exchange_transport.hpp"
#include "engine/mpi/halo_pack.hpp"
#include "engine/mpi/halo_plan.hpp"

namespace tessera::mpi {

namespace detail {
struct HaloStaging; // the device path's stream and events (engine/gpu_runtime.hpp)
class PeerLinks;    // the peer transport (peer_links.hpp)
} // namespace detail

// T is double or float (the values of a state, the updates of a mixed-precision solve).
template <class T>
class BasicHaloExchange {
public:
  // The items' values where `items` places them (halo_pack.hpp), in `space`. Throws
  // std::logic_error for MemorySpace::Device in a build without a device back end. Collective
  // over comm on the device (it chooses the transport: resolveTransport).
  BasicHaloExchange(MPI_Comm comm, HaloPlan plan, ItemLayout items,
                    MemorySpace space = MemorySpace::Host);
  // valuesPerItem values per item, item-major: item i's values at [i * valuesPerItem, ...).
  BasicHaloExchange(MPI_Comm comm, HaloPlan plan, int valuesPerItem,
                    MemorySpace space = MemorySpace::Host)
      : BasicHaloExchange(comm, std::move(plan), ItemLayout::itemMajor(valuesPerItem), space) {}
  ~BasicHaloExchange();
  BasicHaloExchange(BasicHaloExchange&&) noexcept;
  BasicHaloExchange& operator=(BasicHaloExchange&&) noexcept;

  // Collective over the ranks of the plan. Every rank posts its receives, then its sends, and
  // waits for both; the messages of a pair of ranks carry no indices (the plan orders both ends).
  // values is a pointer in the exchange's memory space. On the device the unpack may still run
  // when the call returns, ordered on the default stream before any later work there.
  void exchange(T* values) {
    start(values);
    finish(values);
  }

  // exchange() in two halves, so that work that neither changes the sent values nor reads the
  // received ones can run while the messages travel: start() posts the receives and packs (on
  // the host it sends too), finish() sends (on the device, once the packed messages are in host
  // memory), waits for the messages and unpacks. On the device both return at once: the pack
  // follows the work already on the default stream, and later work there follows the unpack.
  void start(const T* values);
  void finish(T* values);

  // Collective, as the constructor, between exchanges: the exchange of another plan over the same
  // ranks, items laid out alike (a regrid's). What the device path set up stays where it can: its
  // stream, and the peer transport's buffers and the neighbours' it opened (PeerLinks).
  void replan(HaloPlan plan);

  const HaloPlan& plan() const { return plan_; }
  MemorySpace space() const { return space_; }
  // How the messages travel: Staged on the host, where MPI reads the buffers.
  ExchangeTransport transport() const { return transport_; }
  // The bytes this rank sends in one exchange.
  std::size_t bytesSent() const {
    return plan_.sendItems.indices.size() * std::size_t(items_.width) * sizeof(T);
  }

private:
  // The plan's checks, buffers and item lists (every memory space).
  void setPlan(HaloPlan plan);
  void postReceives();
  void postSends();

  MPI_Comm comm_;
  HaloPlan plan_;
  ItemLayout items_;
  MemorySpace space_;
  ExchangeTransport transport_;
  PinnedArray<T> sendBuffer_, receiveBuffer_; // the MPI messages, in page-locked host memory
  std::vector<MPI_Request> requests_;
  // Device space only (empty on the host): the plan's item lists and the packed messages (the
  // received ones in peer_'s buffer for the peer transport).
  DeviceArray<int> deviceSendItems_, deviceReceiveItems_;
  DeviceArray<T> deviceSendBuffer_, deviceReceiveBuffer_;
  std::unique_ptr<detail::HaloStaging> staging_; // device space only
  std::unique_ptr<detail::PeerLinks> peer_;      // the peer transport only
};

using HaloExchange = BasicHaloExchange<double>;

} // namespace tessera::mpi
