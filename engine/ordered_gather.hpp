#pragma once
// A host (OpenMP) loop whose iterations each append any number of items to one list, gathered in
// the order a serial loop leaves them. The plans a regrid rebuilds (halo faces, reflux faces) look
// up the neighbours of every patch, work that splits over the host's threads while the device
// waits for them; the kernels, the tests and runs that repeat bit for bit need the items in patch
// order.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <omp.h>
#include <vector>

namespace tessera {

// The fewest iterations a thread takes. An iteration (a patch's faces looked up) takes about half a
// microsecond, so a thread has a millisecond of work at least. Threads beyond that cost more than
// they bring on a busy host, where those that wait spin on the cores the host's other work needs:
// on an H100's host (16 virtual cores, bench_run --order 1) a run's regrid plans took 0.38-0.78 s
// with 16 threads, 0.14-0.26 s with 8, 0.07 s with 4 and 0.13 s on one.
inline constexpr int kMinIterationsPerThread = 2048;

// The threads for `count` iterations: at most the OpenMP threads, at least one.
inline int gatherThreads(int count) {
  return std::clamp(count / kMinIterationsPerThread, 1, omp_get_max_threads());
}

// append(begin, end, out) appends to `out` the items of iterations [begin, end), in order; the
// iterations are split into one contiguous range per thread (gatherThreads). An exception thrown
// by any range is rethrown here, the first range's first (the one a serial loop would have met).
template <class T, class Append>
std::vector<T> gatherInOrder(int count, Append&& append) {
  if (count <= 0)
    return {};
  std::vector<std::vector<T>> parts;
  std::vector<std::exception_ptr> failures;
  const int wanted = gatherThreads(count);
#pragma omp parallel num_threads(wanted) if (wanted > 1)
  {
    const int threads = omp_get_num_threads();
#pragma omp single
    {
      parts.resize(std::size_t(threads));
      failures.resize(std::size_t(threads));
    } // the single's barrier: every thread sees the parts sized
    const int t = omp_get_thread_num();
    const int begin = int(std::int64_t(count) * t / threads);
    const int end = int(std::int64_t(count) * (t + 1) / threads);
    try {
      append(begin, end, parts[std::size_t(t)]);
    } catch (...) {
      failures[std::size_t(t)] = std::current_exception();
    }
  }
  for (const std::exception_ptr& failure : failures)
    if (failure)
      std::rethrow_exception(failure);
  if (parts.size() == 1)
    return std::move(parts[0]);
  std::size_t total = 0;
  for (const std::vector<T>& part : parts)
    total += part.size();
  std::vector<T> all;
  all.reserve(total);
  for (const std::vector<T>& part : parts)
    all.insert(all.end(), part.begin(), part.end());
  return all;
}

} // namespace tessera
