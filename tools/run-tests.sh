#!/usr/bin/env bash
# Installs what Tessera needs, builds everything (cpu preset) and runs the test suites
# (labels unit, regression and mpi; gpu tests are built only by the cuda and hip presets).
# Arguments go to the configure step (CI leaves the benchmarks to its cuda build this way).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake --preset cpu "$@" >/dev/null
cmake --build --preset cpu
ctest --preset cpu
