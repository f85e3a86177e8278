#!/usr/bin/env bash
# Installs what Tessera needs, builds the tessera program (cpu preset) and runs the default case,
# Sedov 2D. Output: output/sedov2d/sedov2d.pvd (open it in ParaView).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake --preset cpu >/dev/null
cmake --build --preset cpu --target tessera
build/cpu/tools/tessera/tessera run examples/sedov/sedov2d.toml "$@"
