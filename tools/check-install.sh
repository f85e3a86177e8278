#!/usr/bin/env bash
# Installs a built Tessera to a prefix, then configures, builds and runs the separate project
# examples/user_system against that prefix alone (find_package(Tessera)): the check that the
# installed package carries what a user's build needs. Its shallow_water program runs the dam
# break case through the case runner with a checkpoint every 20 steps, then continues from the
# step-20 checkpoint: the two runs' final states must be equal bit for bit. Usage: tools/check-install.sh <build dir>
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
cd "$work"
program="$work/build/shallow_water"
"$program" run "$root/examples/user_system/dam_break.toml" --quiet --set checkpoint.every_steps=20 \
  --set checkpoint.keep=1000 --set 'output.directory="whole"' --set output.enabled=false
"$program" run "$root/examples/user_system/dam_break.toml" --quiet --set output.enabled=false \
  --set 'output.directory="continued"' --restart whole/checkpoints/checkpoint_00000020
last=$(ls whole/checkpoints | sort | tail -1)
cmp "whole/checkpoints/$last/state.bin" "continued/checkpoints/$last/state.bin"
echo "shallow_water: the dam break continued from step 20 ends bit for bit as the whole run ($last)"
"$program" run "$root/examples/user_system/lake_at_rest.toml" --quiet --set output.enabled=false \
  --set 'output.directory="lake"' --set time.end_time=0.05
