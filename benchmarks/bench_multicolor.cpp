// Seed 002's kernel on this device: one sweep of the multicolor point-implicit solver (NB = 5) on
// a matrix of >= 2M block rows whose pattern is a real mesh's face adjacency (a box of tetrahedra,
// 70^3 cubes x 6, or of hexahedra, in the generator's natural order, colored and renumbered by
// colorContiguousCells), with random diagonally dominant values. Per precision policy (mixed: O and
// dQ in fp32; fp64):
//   BM_Sweep      multicolorSweeps with kSweepsPerCall sweeps, reported per sweep (the zeroing of
//                 dQ that starts Algorithm 1 is amortized over them);
//   BM_Copy       a device-to-device copy of the same bytes: the ceiling;
//   BM_CusparseBsrmv  cuSPARSE's BSR matrix-vector product y = O dQ on the same O and dQ (CUDA
//                 builds; cusparseSbsrmv for mixed, cusparseDbsrmv for fp64): the library's
//                 answer to the sweep's largest part, as seed 002 compared against.
// Bytes that must move per sweep (the effective bandwidth's numerator): O once, D (its LU) once,
// R once, the block CSR's column per block and row offsets once, dQ read at least once (each row's
// values are read by its neighbours: at least once when caches hold them between neighbours) and
// written once. The SpMV's: O, columns, row offsets and dQ once, y written once.
// Each benchmark is the median of kRepetitions timed calls after one untimed call; a summary
// table closes the run.
//   TESSERA_BENCH_CUBES=n  cubes per axis of the box (default 70: 2.06M tetrahedra)
//   TESSERA_BENCH_CELLS=hexahedra  one hexahedron per cube, 6 blocks per row (n = 128: 2.10M rows)
#include <algorithm>
#include <benchmark/benchmark.h>
#include <cstdio>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "benchmarks/benchmark_mesh.hpp"
#include "benchmarks/sample_timing.hpp"
#include "engine/device_array.hpp"
#include "engine/linalg/block_pattern.hpp"
#include "engine/linalg/multicolor_sweeps.hpp"
#include "engine/linalg/precision.hpp"
#include "engine/memory.hpp"
#include "engine/timer.hpp"

#if defined(TESSERA_BACKEND_CUDA)
#include <cusparse.h>
#endif

namespace tessera {
namespace {

using bench::bytesOf;
using bench::median;
using bench::samples;
using bench::timedRepetition;

constexpr int kNB = 5;
constexpr int kEntries = kNB * kNB;
constexpr int kRepetitions = 30;
// FUN3D's usual sweep count (seed 002, section 2).
constexpr int kSweepsPerCall = 15;

// The values in double, shared by both policies: D = 20 I + U(-1, 1), O = 0.1 U(-1, 1), R = U(-1,
// 1). With at most 6 blocks per row, sum_j |O_ij| <= 3 per scalar row against |D_kk| >= 19.
struct HostValues {
  std::vector<double> diagonal, offdiagonal, rhs;
};

HostValues randomValues(const linalg::BlockPattern& pattern) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  HostValues v;
  v.diagonal.resize(std::size_t(pattern.numRows()) * kEntries);
  v.offdiagonal.resize(std::size_t(pattern.numBlocks()) * kEntries);
  v.rhs.resize(std::size_t(pattern.numRows()) * kNB);
  for (std::size_t i = 0; i < v.diagonal.size(); ++i)
    v.diagonal[i] = uniform(rng) + (i % kEntries % (kNB + 1) == 0 ? 20.0 : 0.0);
  for (double& x : v.offdiagonal)
    x = 0.1 * uniform(rng);
  for (double& x : v.rhs)
    x = uniform(rng);
  return v;
}

#if defined(TESSERA_BACKEND_CUDA)
void checkCusparse(cusparseStatus_t status, const char* call) {
  if (status != CUSPARSE_STATUS_SUCCESS) {
    std::string message = "cuSPARSE: ";
    message.append(call).append(": ").append(cusparseGetErrorString(status));
    throw std::runtime_error(message);
  }
}

void bsrmv(cusparseHandle_t h, cusparseMatDescr_t d, int rows, int blocks, const float* o,
           const int* rowOffsets, const int* columns, const float* x, float* y) {
  const float one = 1.0f, zero = 0.0f;
  checkCusparse(cusparseSbsrmv(h, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE, rows,
                               rows, blocks, &one, d, o, rowOffsets, columns, kNB, x, &zero, y),
                "cusparseSbsrmv");
}
void bsrmv(cusparseHandle_t h, cusparseMatDescr_t d, int rows, int blocks, const double* o,
           const int* rowOffsets, const int* columns, const double* x, double* y) {
  const double one = 1.0, zero = 0.0;
  checkCusparse(cusparseDbsrmv(h, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE, rows,
                               rows, blocks, &one, d, o, rowOffsets, columns, kNB, x, &zero, y),
                "cusparseDbsrmv");
}
#endif

// One precision policy's matrix, vectors and copy buffers on the device.
template <class Precision>
struct SweepCase {
  using Offdiagonal = typename Precision::Offdiagonal;
  using Update = typename Precision::Update;

  linalg::BlockMatrix<kNB, Precision> a;
  DeviceArray<double> rhs;
  DeviceArray<Update> dq, y;
  DeviceArray<unsigned char> copySource, copyTarget;

  SweepCase(const linalg::BlockPattern& pattern, const HostValues& values)
      : a(pattern, MemorySpace::Device), rhs(toDevice(values.rhs)),
        dq(values.rhs.size(), MemorySpace::Device), y(values.rhs.size(), MemorySpace::Device),
        // The copy reads and writes: half the sweep's bytes each way moves as many as the sweep.
        copySource(std::size_t(sweepBytes(pattern) / 2), MemorySpace::Device),
        copyTarget(copySource.size(), MemorySpace::Device) {
    std::vector<Offdiagonal> o(values.offdiagonal.begin(), values.offdiagonal.end());
    copyBytes(a.diagonal(), MemorySpace::Device, values.diagonal.data(), MemorySpace::Host,
              values.diagonal.size() * sizeof(double));
    copyBytes(a.offdiagonal(), MemorySpace::Device, o.data(), MemorySpace::Host,
              o.size() * sizeof(Offdiagonal));
    a.factorizeDiagonal();
  }

  static double indexBytes(const linalg::BlockPattern& p) {
    return double(p.numBlocks() + p.numRows() + 1) * sizeof(int);
  }
  static double sweepBytes(const linalg::BlockPattern& p) {
    const double rows = p.numRows(), blocks = p.numBlocks();
    return blocks * kEntries * sizeof(Offdiagonal) + rows * kEntries * sizeof(double) +
           rows * kNB * sizeof(double) + 2 * rows * kNB * sizeof(Update) + indexBytes(p);
  }
  static double spmvBytes(const linalg::BlockPattern& p) {
    const double rows = p.numRows(), blocks = p.numBlocks();
    return blocks * kEntries * sizeof(Offdiagonal) + 2 * rows * kNB * sizeof(Update) +
           indexBytes(p);
  }

  void sweeps() { linalg::multicolorSweeps(a, rhs.data(), dq.data(), kSweepsPerCall); }
  void copy() {
    copyBytes(copyTarget.data(), MemorySpace::Device, copySource.data(), MemorySpace::Device,
              copySource.size());
  }
};

template <class Precision>
void registerCase(SweepCase<Precision>& c) {
  const linalg::BlockPattern& p = c.a.pattern();
  const std::string name(Precision::kName);
  std::vector<benchmark::internal::Benchmark*> marks;
  marks.push_back(benchmark::RegisterBenchmark(
      ("BM_Sweep/" + name).c_str(), [&c, name, &p](benchmark::State& s) {
        timedRepetition(
            s, name + "/sweep", c.sweepBytes(p), [&] { c.sweeps(); }, kSweepsPerCall);
      }));
  marks.push_back(benchmark::RegisterBenchmark(
      ("BM_Copy/" + name).c_str(), [&c, name, &p](benchmark::State& s) {
        timedRepetition(s, name + "/copy", c.sweepBytes(p), [&] { c.copy(); });
      }));
#if defined(TESSERA_BACKEND_CUDA)
  marks.push_back(benchmark::RegisterBenchmark(
      ("BM_CusparseBsrmv/" + name).c_str(), [&c, name, &p](benchmark::State& s) {
        cusparseHandle_t handle = nullptr;
        cusparseMatDescr_t descr = nullptr;
        checkCusparse(cusparseCreate(&handle), "cusparseCreate");
        checkCusparse(cusparseCreateMatDescr(&descr), "cusparseCreateMatDescr");
        const auto view = c.a.view();
        timedRepetition(s, name + "/cusparse_bsrmv", c.spmvBytes(p), [&] {
          bsrmv(handle, descr, p.numRows(), p.numBlocks(), view.offdiagonal, view.rowOffsets,
                view.columns, c.dq.data(), c.y.data());
        });
        cusparseDestroyMatDescr(descr);
        cusparseDestroy(handle);
      }));
#endif
  for (auto* b : marks)
    bench::timedOncePerRepetition(b, kRepetitions);
}

void printSummary() {
  std::printf("\n| precision | variant | median ms | GB/s | of copy |\n|---|---|---|---|---|\n");
  for (std::string_view precision :
       {linalg::MixedPrecision::kName, linalg::DoublePrecision::kName}) {
    const std::string prefix(precision);
    const auto& copies = samples()[prefix + "/copy"];
    const double copyRate = copies.empty() ? 0.0 : bytesOf()[prefix + "/copy"] / median(copies);
    for (const char* variant : {"sweep", "copy", "cusparse_bsrmv"}) {
      const std::string key = prefix + "/" + variant;
      const auto& times = samples()[key];
      if (times.empty()) // filtered out, or no cuSPARSE in this build
        continue;
      const double t = median(times), rate = bytesOf()[key] / t;
      std::printf("| %s | %s%s | %.3f | %.0f | %.0f%% |\n", prefix.c_str(), variant,
                  std::string_view(variant) == "sweep" ? " (per sweep)" : "", t * 1e3, rate * 1e-9,
                  copyRate > 0.0 ? 100.0 * rate / copyRate : 0.0);
    }
  }
  const std::string mixed = std::string(linalg::MixedPrecision::kName) + "/sweep";
  const std::string fp64 = std::string(linalg::DoublePrecision::kName) + "/sweep";
  if (!samples()[mixed].empty() && !samples()[fp64].empty())
    std::printf("\nmixed sweep %.2fx faster than fp64; it moves %.2fx fewer bytes\n",
                median(samples()[fp64]) / median(samples()[mixed]),
                bytesOf()[fp64] / bytesOf()[mixed]);
}

} // namespace
} // namespace tessera

int main(int argc, char** argv) {
  using namespace tessera;
  benchmark::Initialize(&argc, argv);
  if (!deviceAvailable()) {
    std::fprintf(stderr, "bench_multicolor: no device\n");
    return 1;
  }
  const linalg::BlockPattern pattern =
      linalg::colorContiguousCells(
          bench::benchmarkBox(bench::benchmarkCubes(), bench::benchmarkCells(), false))
          .pattern;
  std::printf("matrix: %d block rows of %dx%d, %d off-diagonal blocks, %d colors, %d sweeps per "
              "call\n\n",
              pattern.numRows(), kNB, kNB, pattern.numBlocks(), pattern.numColors(),
              kSweepsPerCall);
  const HostValues values = randomValues(pattern);
  SweepCase<linalg::MixedPrecision> mixed(pattern, values);
  SweepCase<linalg::DoublePrecision> fp64(pattern, values);
  registerCase(mixed);
  registerCase(fp64);
  benchmark::RunSpecifiedBenchmarks();
  printSummary();
  benchmark::Shutdown();
  return 0;
}
