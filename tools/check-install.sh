#!/usr/bin/env bash
# Installs a built Tessera to a prefix, then configures, builds and runs the separate project
# examples/user_system against that prefix alone (find_package(Tessera)): the check that the
# installed package carries what a user's build needs. Usage: tools/check-install.sh <build dir>
# <work dir> (the work dir is emptied first).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
cmake -S "$root/examples/user_system" -B "$work/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" >"$work/build.log" || { tail -40 "$work/build.log"; exit 1; }
"$work/build/dam_break"
"$work/build/lake_at_rest"
