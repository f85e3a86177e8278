#include "engine/mpi/halo_exchange.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "engine/mpi/check.hpp"
#include "engine/mpi/halo_pack.hpp"
#include "engine/mpi/halo_pack_device.hpp"
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
#include "engine/gpu_runtime.hpp"
#include "engine/mpi/peer_links.hpp"
#endif

namespace tessera::mpi {
namespace {

// One tag for every halo message: a pair of ranks exchanges at most one message each way per
// exchange, and MPI keeps messages between a pair in order.
constexpr int kHaloTag = 4301;

template <class T>
MPI_Datatype mpiType() {
  return std::is_same_v<T, float> ? MPI_FLOAT : MPI_DOUBLE;
}

void check(int status, const char* call) {
  mpi::check(status, "HaloExchange", call);
}

MemorySpace checkedSpace(MemorySpace space) {
#if !defined(TESSERA_BACKEND_CUDA) && !defined(TESSERA_BACKEND_HIP)
  if (space == MemorySpace::Device)
    throw std::logic_error("HaloExchange: device memory space in a host-only build");
#endif
  return space;
}

// The device path's copies of the plan's item lists and its packed messages; the host path reads
// the plan and the host buffers and needs none.
DeviceArray<int> deviceItems(const std::vector<int>& items, MemorySpace space) {
  return space == MemorySpace::Device ? toDevice(items) : DeviceArray<int>();
}
template <class T>
DeviceArray<T> deviceBuffer(std::size_t size, MemorySpace space) {
  return space == MemorySpace::Device ? DeviceArray<T>(size, space) : DeviceArray<T>();
}

// The transport of an exchange in `space` (collective on the device).
ExchangeTransport transportOf(MPI_Comm comm, MemorySpace space) {
  return space == MemorySpace::Device ? resolveTransport(comm) : ExchangeTransport::Staged;
}

// The host buffers MPI reads and writes: the staged transport's (on the host, the only one).
std::size_t stagedSize(ExchangeTransport transport, std::size_t values) {
  return transport == ExchangeTransport::Staged ? values : 0;
}

// Each neighbour's message in a packed buffer, in bytes.
template <class T>
std::vector<std::size_t> byteOffsets(const unstructured::Csr& rows, int width) {
  std::vector<std::size_t> offsets;
  for (int offset : rows.offsets)
    offsets.push_back(std::size_t(offset) * std::size_t(width) * sizeof(T));
  return offsets;
}

} // namespace

namespace detail {
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
// A stream that does not wait for the default stream (nor it for this one) except where events
// say so: stateWritten marks the default stream's work up to start(), unpacked the unpack.
struct HaloStaging {
  gpuStream_t stream{};
  gpuEvent_t stateWritten{}, unpacked{};

  HaloStaging() {
    TESSERA_GPU_CHECK(gpuStreamCreateWithFlags(&stream, gpuStreamNonBlocking));
    TESSERA_GPU_CHECK(gpuEventCreateWithFlags(&stateWritten, gpuEventDisableTiming));
    TESSERA_GPU_CHECK(gpuEventCreateWithFlags(&unpacked, gpuEventDisableTiming));
  }
  ~HaloStaging() {
    (void)gpuEventDestroy(unpacked);
    (void)gpuEventDestroy(stateWritten);
    (void)gpuStreamDestroy(stream);
  }
  HaloStaging(const HaloStaging&) = delete;
  HaloStaging& operator=(const HaloStaging&) = delete;
};
#else
struct HaloStaging {};
class PeerLinks {};
#endif
} // namespace detail

template <class T>
BasicHaloExchange<T>::~BasicHaloExchange() = default;
template <class T>
BasicHaloExchange<T>::BasicHaloExchange(BasicHaloExchange&&) noexcept = default;
template <class T>
BasicHaloExchange<T>& BasicHaloExchange<T>::operator=(BasicHaloExchange&&) noexcept = default;

template <class T>
BasicHaloExchange<T>::BasicHaloExchange(MPI_Comm comm, HaloPlan plan, ItemLayout items,
                                        MemorySpace space)
    : comm_(comm), items_(items), space_(checkedSpace(space)),
      transport_(transportOf(comm, space_)) {
  if (items.width < 1)
    throw std::invalid_argument("HaloExchange: " + std::to_string(items.width) +
                                " values per item");
  setPlan(std::move(plan));
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
  if (space_ == MemorySpace::Device)
    staging_ = std::make_unique<detail::HaloStaging>();
  if (transport_ == ExchangeTransport::Peer)
    peer_ = std::make_unique<detail::PeerLinks>(
        comm_, plan_.neighbourRanks, byteOffsets<T>(plan_.sendItems, items_.width),
        byteOffsets<T>(plan_.receiveItems, items_.width), staging_->stream);
#endif
}

template <class T>
void BasicHaloExchange<T>::replan(HaloPlan plan) {
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
  if (staging_) // the last unpack has read the buffers that setPlan replaces
    TESSERA_GPU_CHECK(gpuStreamSynchronize(staging_->stream));
#endif
  setPlan(std::move(plan));
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
  if (peer_)
    peer_->reconnect(plan_.neighbourRanks, byteOffsets<T>(plan_.sendItems, items_.width),
                     byteOffsets<T>(plan_.receiveItems, items_.width));
#endif
}

template <class T>
void BasicHaloExchange<T>::setPlan(HaloPlan plan) {
  const std::size_t ranks = plan.neighbourRanks.size();
  if (plan.sendItems.rows() != int(ranks) || plan.receiveItems.rows() != int(ranks))
    throw std::invalid_argument("HaloExchange: the plan's send and receive rows do not match its " +
                                std::to_string(ranks) + " neighbour ranks");
  plan_ = std::move(plan);
  const std::size_t width = std::size_t(items_.width);
  const std::size_t sent = plan_.sendItems.indices.size() * width;
  const std::size_t received = plan_.receiveItems.indices.size() * width;
  sendBuffer_ = PinnedArray<T>(stagedSize(transport_, sent));
  receiveBuffer_ = PinnedArray<T>(stagedSize(transport_, received));
  requests_.assign(2 * ranks, MPI_REQUEST_NULL);
  deviceSendItems_ = deviceItems(plan_.sendItems.indices, space_);
  deviceReceiveItems_ = deviceItems(plan_.receiveItems.indices, space_);
  deviceSendBuffer_ = deviceBuffer<T>(sent, space_);
  deviceReceiveBuffer_ = deviceBuffer<T>(receiveBuffer_.size(), space_);
}

template <class T>
void BasicHaloExchange<T>::start(const T* values) {
  if (space_ == MemorySpace::Host) {
    postReceives();
    packHaloValues(values, plan_.sendItems.indices, items_, sendBuffer_.data());
    postSends();
    return;
  }
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
  TESSERA_GPU_CHECK(gpuEventRecord(staging_->stateWritten, 0));
  TESSERA_GPU_CHECK(gpuStreamWaitEvent(staging_->stream, staging_->stateWritten, 0));
  packHaloValuesDevice(values, deviceSendItems_.data(), int(deviceSendItems_.size()), items_,
                       deviceSendBuffer_.data(), staging_->stream);
  if (peer_) {
    peer_->send(deviceSendBuffer_.data());
    return;
  }
  postReceives();
  TESSERA_GPU_CHECK(gpuMemcpyAsync(sendBuffer_.data(), deviceSendBuffer_.data(),
                                   deviceSendBuffer_.bytes(), gpuMemcpyDeviceToHost,
                                   staging_->stream));
#endif
}

template <class T>
void BasicHaloExchange<T>::finish(T* values) {
  if (space_ == MemorySpace::Host) {
    check(MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    unpackHaloValues(receiveBuffer_.data(), plan_.receiveItems.indices, items_, values);
    return;
  }
#if defined(TESSERA_BACKEND_CUDA) || defined(TESSERA_BACKEND_HIP)
  const T* received = deviceReceiveBuffer_.data();
  if (peer_) {
    peer_->receive();
    received = static_cast<const T*>(peer_->receiveBuffer());
  } else {
    TESSERA_GPU_CHECK(gpuStreamSynchronize(staging_->stream)); // the messages are in host memory
    postSends();
    check(MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    TESSERA_GPU_CHECK(gpuMemcpyAsync(deviceReceiveBuffer_.data(), receiveBuffer_.data(),
                                     deviceReceiveBuffer_.bytes(), gpuMemcpyHostToDevice,
                                     staging_->stream));
  }
  unpackHaloValuesDevice(received, deviceReceiveItems_.data(), int(deviceReceiveItems_.size()),
                         items_, values, staging_->stream);
  TESSERA_GPU_CHECK(gpuEventRecord(staging_->unpacked, staging_->stream));
  TESSERA_GPU_CHECK(gpuStreamWaitEvent(0, staging_->unpacked, 0));
  if (peer_)
    peer_->released();
#else
  (void)values;
#endif
}

template <class T>
void BasicHaloExchange<T>::postReceives() {
  const std::size_t width = std::size_t(items_.width);
  for (std::size_t i = 0; i < plan_.neighbourRanks.size(); ++i) {
    const int first = plan_.receiveItems.offsets[i];
    const int count = plan_.receiveItems.offsets[i + 1] - first;
    check(MPI_Irecv(receiveBuffer_.data() + std::size_t(first) * width, count * items_.width,
                    mpiType<T>(), plan_.neighbourRanks[i], kHaloTag, comm_, &requests_[i]),
          "MPI_Irecv");
  }
}

template <class T>
void BasicHaloExchange<T>::postSends() {
  const std::size_t ranks = plan_.neighbourRanks.size();
  const std::size_t width = std::size_t(items_.width);
  for (std::size_t i = 0; i < ranks; ++i) {
    const int first = plan_.sendItems.offsets[i];
    const int count = plan_.sendItems.offsets[i + 1] - first;
    check(MPI_Isend(sendBuffer_.data() + std::size_t(first) * width, count * items_.width,
                    mpiType<T>(), plan_.neighbourRanks[i], kHaloTag, comm_, &requests_[ranks + i]),
          "MPI_Isend");
  }
}

template class BasicHaloExchange<double>;
template class BasicHaloExchange<float>;

} // namespace tessera::mpi
