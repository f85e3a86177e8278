#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (and no VTK): builds the cuda preset, runs the gpu-labelled tests
# and the rest, and the kernels under compute-sanitizer. Logs go to $OUT (default: build/gpu-logs).
# The Debian packages the GPU machine lacks travel in .devdeps (../shared/tools/device-deps.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-build/gpu-logs}
mkdir -p "$OUT"
[ -f .devdeps/device-env.sh ] && source .devdeps/device-env.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
cmake --preset cuda -DTESSERA_ENABLE_VTK=OFF -DTESSERA_ENABLE_BENCHMARKS=OFF >"$OUT/configure.log" 2>&1 ||
  { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build build/cuda -j"$(nproc)" >"$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
echo "== ctest -L gpu"
ctest --test-dir build/cuda -L gpu --output-on-failure 2>&1 | tee "$OUT/gpu.log" | tail -15
echo "== ctest -LE gpu"
ctest --test-dir build/cuda -LE gpu -j"$(nproc)" 2>&1 | grep -E "tests passed|FAILED|Failed"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
# The checked-call test provokes a failing copy on purpose; the sanitizer would rightly report it.
for tool in memcheck racecheck initcheck synccheck; do
  echo "== compute-sanitizer --tool $tool"
  "$sanitizer" --tool "$tool" --error-exitcode 9 build/cuda/tests/tessera_gpu_tests \
    --gtest_filter='-*CheckedCalls*' 2>&1 | tail -3
done
