#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (and no VTK): builds the cuda preset, runs the gpu-labelled tests
# and the rest, the kernels under compute-sanitizer and, with --bench, the device benchmarks
# (bench_device_update, bench_amr_step, bench_atomics, bench_unstructured's implicit iteration,
# bench_run); with --two-gpus (a machine of two, whose time is dearer), only the multi-rank
# device checks after the build: weak scaling on 1 and 2 ranks by each transport, the
# strong-scaling runs (benchmarks/strong_scaling.sh), the mpi suites with device rows on 1, 2 and 4
# ranks, the halo exchange by each transport under compute-sanitizer, and the gpu tests four at a
# time (timings that must hold on a shared GPU).
# Logs go to $OUT (default: build/gpu-logs). The Debian packages the GPU machine lacks travel in
# .devdeps (../shared/tools/device-deps.sh, then METIS and muParser, which it does not fetch:
# (cd .devdeps && apt-get download libmetis5 libmetis-dev libmuparser2v5 libmuparser-dev)).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build/gpu-logs}
mkdir -p "$OUT"
[ -f .devdeps/device-env.sh ] && source .devdeps/device-env.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
cmake --preset cuda -DTESSERA_ENABLE_VTK=OFF -DTESSERA_ENABLE_BENCHMARKS=ON >"$OUT/configure.log" 2>&1 ||
  { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build build/cuda -j"$(nproc)" >"$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
if [ "${1:-}" = "--two-gpus" ]; then
  # Most telling first: the machine's time may run out before the end.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  echo "== weak scaling (bench_weak_scaling, device rows)"
  for run in "1 auto on" "2 staged on" "2 peer on" "2 peer off"; do
    set -- $run
    mpiexec -n "$1" build/cuda/benchmarks/bench_weak_scaling \
      --benchmark_filter=BM_WeakScaling/16/ --exchange="$2" --overlap="$3" 2>&1 |
      tee "$OUT/weak_scaling_$1_$2_$3.txt" | grep -E "exchange:|median|ERROR"
  done
  echo "== strong scaling"
  CASES="sod sedov" benchmarks/strong_scaling.sh build/cuda/tools/tessera/tessera 1 2:staged 2:peer |
    tee "$OUT/strong_scaling.md"
  # The same on two GPUs with each stage waiting for the ghosts (run.exchange_overlap = false).
  EXTRA="--set run.exchange_overlap=false" CASES="sod sedov" \
    benchmarks/strong_scaling.sh build/cuda/tools/tessera/tessera 2:peer | tee -a "$OUT/strong_scaling.md"
  # The implicit runs take under a second each: three of each, for a median.
  REPEATS=3 CASES="implicit newton_krylov" \
    benchmarks/strong_scaling.sh build/cuda/tools/tessera/tessera 1 2:peer | tee -a "$OUT/strong_scaling.md"
  echo "== ctest -L mpi (device rows on 1, 2 and 4 ranks; the patch runs' difference from one rank)"
  ctest --test-dir build/cuda -L mpi -V 2>&1 | tee "$OUT/mpi.log" |
    grep -E "against one rank|tests passed|Failed|FAILED"
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  echo "== the halo exchange on 2 ranks, each transport, under compute-sanitizer memcheck"
  mpiexec -n 2 "$sanitizer" --tool memcheck --error-exitcode 9 \
    build/cuda/tests/tessera_mpi_tests --gtest_filter='HaloExchange.*' 2>&1 | tail -4
  echo "== ctest -L gpu -j4 (tests sharing the GPUs)"
  ctest --test-dir build/cuda -L gpu -j4 --output-on-failure 2>&1 | tee "$OUT/gpu.log" |
    grep -E "tests passed|Failed|FAILED|\(Failed\)"
  exit 0
fi
echo "== ctest -L gpu"
ctest --test-dir build/cuda -L gpu --output-on-failure 2>&1 | tee "$OUT/gpu.log" | tail -25
echo "== ctest -LE gpu"
ctest --test-dir build/cuda -LE gpu -j"$(nproc)" 2>&1 | grep -E "tests passed|FAILED|Failed"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
# The checked-call test provokes a failing copy on purpose; the sanitizer would rightly report it.
# Of the whole AMR runs, one small case covers the flag, time-step and plan kernels in a real loop.
# Its initcheck leaves the runtime's copies unchecked: the test reads the state through
# PatchSolver::hostState, one copy of whole patches whose halo cells behind linked faces no
# device kernel writes (the update reads the neighbours instead); every kernel's reads are checked.
for tool in memcheck racecheck initcheck synccheck; do
  echo "== compute-sanitizer --tool $tool"
  "$sanitizer" --tool "$tool" --error-exitcode 9 build/cuda/tests/tessera_gpu_tests \
    --gtest_filter='-*CheckedCalls*' 2>&1 | tail -2
  api=yes
  [ "$tool" = initcheck ] && api=no
  "$sanitizer" --tool "$tool" --error-exitcode 9 --check-api-memory-access $api \
    build/cuda/tests/tessera_gpu_amr_tests \
    --gtest_filter='*Sod2D*:*Unphysical*' 2>&1 | tail -2
done
if [ "${1:-}" = "--bench" ]; then
  echo "== benchmarks"
  build/cuda/benchmarks/bench_device_update --benchmark_out="$OUT/bench_device_update.json" \
    --benchmark_out_format=json 2>&1 | grep -E "median|^BM_|Skip|ERROR" | tee "$OUT/bench_device_update.txt"
  build/cuda/benchmarks/bench_amr_step --benchmark_filter='/1/[12]$' \
    --benchmark_out="$OUT/bench_amr_step.json" --benchmark_out_format=json 2>&1 |
    tee "$OUT/bench_amr_step.txt" | grep -E "^BM_|ERROR"
  build/cuda/benchmarks/bench_atomics --benchmark_out="$OUT/bench_atomics.json" \
    --benchmark_out_format=json >"$OUT/bench_atomics.txt" 2>&1
  grep -E "^\||^tuner|^mesh|ERROR" "$OUT/bench_atomics.txt"
  # The unstructured implicit iteration with each Jacobian, and the adaptive 3D blast end to end.
  build/cuda/benchmarks/bench_unstructured --benchmark_filter='Copy|Implicit' \
    >"$OUT/bench_unstructured.txt" 2>&1
  grep -E "^\||ERROR" "$OUT/bench_unstructured.txt"
  build/cuda/benchmarks/bench_run 2>&1 | tee "$OUT/bench_run.txt" | tail -40
fi
