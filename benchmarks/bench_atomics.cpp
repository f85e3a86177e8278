// Seed 000's tables on this device: the strategies of the atomic-strategy library for the face
// scatters of the unstructured solver on a mesh of at least 2M cells, RCM-ordered and randomly
// ordered (a shuffled box of tetrahedra and the same mesh renumbered by reverse Cuthill-McKee).
//   Table II   unique owner and neighbour cells per 32 and 64 consecutive faces (median and
//              9th decile), printed before the benchmarks;
//   Table III  K = 5, the Rusanov face flux (seed 000's roe-flux);
//   Table IV   K = 15, the Green-Gauss gradient (seed 000's lstgs).
// Per ordering and K: BM_Copy (a device-to-device copy of the bytes the scatter must move: the
// ceiling), BM_NoAtomics (plain stores, wrong result: the cost of the kernel without its
// additions), one BM_ per strategy, and BM_Tuner (the tuner's pick, timed like the rest). Each is
// the median of kRepetitions timed calls after one untimed call. A summary table with the
// speed-ups over global atomics and the tuner's pick against the best closes the run.
//   TESSERA_BENCH_CUBES=n  cubes per axis of the box (6 tetrahedra each; default 70: 2.06M cells,
//   as bench_mesh_loops)
#include <algorithm>
#include <benchmark/benchmark.h>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "benchmarks/atomics_bench_case.hpp"
#include "benchmarks/benchmark_mesh.hpp"
#include "benchmarks/sample_timing.hpp"
#include "engine/atomics/tuner.hpp"
#include "engine/memory.hpp"
#include "engine/timer.hpp"
#include "engine/unstructured/renumbering.hpp"

namespace tessera {
namespace {

using bench::median;
using bench::samples;
using bench::timedRepetition;

constexpr int kRepetitions = 30;

double percentile90(std::vector<double> v) {
  const std::size_t i = std::size_t(0.9 * double(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(i), v.end());
  return v[i];
}

// Table II: distinct cells among the owners, and among the neighbours (boundary faces have
// none), of each batch of `width` consecutive faces.
void printUniqueCells(const char* ordering, const unstructured::Mesh& mesh) {
  for (int width : {32, 64}) {
    std::vector<double> owners, neighbours;
    for (int begin = 0; begin + width <= mesh.numFaces(); begin += width) {
      std::vector<int> o(mesh.owner.begin() + begin, mesh.owner.begin() + begin + width);
      std::vector<int> n;
      for (int f = begin; f < begin + width; ++f)
        if (mesh.neighbour[std::size_t(f)] >= 0)
          n.push_back(mesh.neighbour[std::size_t(f)]);
      for (auto* cells : {&o, &n}) {
        std::sort(cells->begin(), cells->end());
        cells->erase(std::unique(cells->begin(), cells->end()), cells->end());
      }
      owners.push_back(double(o.size()));
      neighbours.push_back(double(n.size()));
    }
    std::printf("| %s | %d | %.0f | %.0f | %.0f | %.0f |\n", ordering, width, median(owners),
                median(neighbours), percentile90(owners), percentile90(neighbours));
  }
}

struct Ordering {
  std::string name;
  std::unique_ptr<bench::AtomicsBenchCase> device;
};

std::vector<Ordering>& orderings() {
  static std::vector<Ordering> all;
  return all;
}

std::map<std::string, std::string>& tunerPicks() {
  static std::map<std::string, std::string> all;
  return all;
}

std::string caseKey(const Ordering& o, int k) {
  return o.name + "/K" + std::to_string(k);
}

void registerCase(Ordering& o, int k) {
  const std::string key = caseKey(o, k);
  bench::AtomicsBenchCase& c = *o.device;
  const double bytes = c.bytesThatMustMove(k);
  std::vector<benchmark::internal::Benchmark*> marks;
  marks.push_back(benchmark::RegisterBenchmark(
      ("BM_Copy/" + key).c_str(), [&c, k, key, bytes](benchmark::State& s) {
        timedRepetition(s, key + "/copy", bytes, [&] { c.copy(k); });
      }));
  marks.push_back(benchmark::RegisterBenchmark(
      ("BM_NoAtomics/" + key).c_str(), [&c, k, key, bytes](benchmark::State& s) {
        timedRepetition(s, key + "/no_atomics", bytes, [&] { c.plainStores(k); });
      }));
  for (atomics::Strategy strategy : atomics::kAllStrategies) {
    const std::string name(atomics::strategyName(strategy));
    marks.push_back(benchmark::RegisterBenchmark(
        ("BM_" + name + "/" + key).c_str(),
        [&c, k, key, bytes, strategy, name](benchmark::State& s) {
          timedRepetition(s, key + "/" + name, bytes, [&] { c.scatter(k, strategy); });
        }));
  }
  marks.push_back(benchmark::RegisterBenchmark(
      ("BM_Tuner/" + key).c_str(), [&c, k, key, bytes](benchmark::State& s) {
        auto& pick = tunerPicks()[key];
        if (pick.empty()) {
          const atomics::TunerChoice choice = atomics::tuneStrategy(
              atomics::kAllStrategies, [&](atomics::Strategy strategy) { c.scatter(k, strategy); });
          pick = std::string(atomics::strategyName(choice.strategy));
          std::printf("tuner %s: %s\n", key.c_str(), atomics::describe(choice).c_str());
        }
        const atomics::Strategy picked = *atomics::parseStrategy(pick);
        timedRepetition(s, key + "/tuner", bytes, [&] { c.scatter(k, picked); });
      }));
  for (auto* b : marks)
    bench::timedOncePerRepetition(b, kRepetitions);
}

void printSummary() {
  std::printf("\n| ordering | K | variant | median ms | GB/s | vs global atomic "
              "|\n|---|---|---|---|---|---|\n");
  for (Ordering& o : orderings())
    for (int k : {5, 15}) {
      const std::string key = caseKey(o, k);
      const double bytes = o.device->bytesThatMustMove(k);
      const auto& globalTimes = samples()[key + "/global_atomic"];
      if (globalTimes.empty()) // filtered out
        continue;
      const double global = median(globalTimes);
      double best = 1e30;
      std::string bestName;
      std::vector<std::string> variants{"copy", "no_atomics"};
      for (atomics::Strategy s : atomics::kAllStrategies)
        variants.emplace_back(atomics::strategyName(s));
      variants.emplace_back("tuner");
      for (const std::string& v : variants) {
        const auto& times = samples()[key + "/" + v];
        if (times.empty())
          continue;
        const double t = median(times);
        if (v != "copy" && v != "no_atomics" && v != "tuner" && t < best)
          best = t, bestName = v;
        std::string label = v;
        if (v == "tuner")
          label.append(" (").append(tunerPicks()[key]).append(")");
        std::printf("| %s | %d | %s | %.3f | %.0f | %.2fx |\n", o.name.c_str(), k, label.c_str(),
                    t * 1e3, bytes * 1e-9 / t, global / t);
      }
      const auto& tuned = samples()[key + "/tuner"];
      if (!tuned.empty())
        std::printf("| %s | %d | best: %s; tuner pick / best = %.3f | | | |\n", o.name.c_str(), k,
                    bestName.c_str(), median(tuned) / best);
    }
}

} // namespace
} // namespace tessera

int main(int argc, char** argv) {
  using namespace tessera;
  benchmark::Initialize(&argc, argv);
  if (!deviceAvailable()) {
    std::fprintf(stderr, "bench_atomics: no device\n");
    return 1;
  }
  const unstructured::Mesh random = bench::tetrahedralBenchmarkBox(bench::benchmarkCubes(), true);
  const unstructured::Mesh rcm =
      unstructured::renumbered(random, unstructured::reverseCuthillMcKee(random));
  std::printf("mesh: %d tetrahedra, %d faces, %d nodes\n\n", random.numCells(), random.numFaces(),
              random.numNodes());
  std::printf("| ordering | width | owners median | neighbours median | owners 9th decile | "
              "neighbours 9th decile |\n|---|---|---|---|---|---|\n");
  printUniqueCells("rcm", rcm);
  printUniqueCells("random", random);
  std::printf("\n");
  orderings().push_back({"rcm", std::make_unique<bench::AtomicsBenchCase>(rcm)});
  orderings().push_back({"random", std::make_unique<bench::AtomicsBenchCase>(random)});
  for (Ordering& o : orderings())
    for (int k : {5, 15})
      registerCase(o, k);
  benchmark::RunSpecifiedBenchmarks();
  printSummary();
  benchmark::Shutdown();
  return 0;
}
