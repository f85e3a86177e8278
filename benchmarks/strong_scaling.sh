#!/usr/bin/env bash
# Strong scaling of whole runs of the tessera program on 1 and more GPUs (one rank per GPU): the
# Sod shock tube on a uniform 384^3 grid of 16^3 patches for 200 steps, and the 3D Sedov blast
# with adaptive refinement on 16^3 patches to its end time, both at the default (second-order)
# scheme, and the implicit bump of examples/unstructured on 240 x 80 x 20 hexahedra cut into 2.3M
# tetrahedra for 30 iterations (newton_krylov: the same bump for 10 Newton-Krylov iterations, not
# in the default CASES); without output or the end checkpoint. One row per run: for the
# patch runs cell-updates/s over the stepping and the summary's time split (the wait for other
# ranks' ghost values, the regrid, and the regrid's own split); for the implicit run the seconds
# of iterating.
# Usage: benchmarks/strong_scaling.sh <tessera> <ranks[:exchange]> ...
#   e.g. benchmarks/strong_scaling.sh build/cuda/tools/tessera/tessera 1 2:staged 2:peer
# CASES="sod sedov implicit" (the default) picks the cases; the runs' folders go under $WORK (a temporary
# folder unless given); EXTRA adds --set options to every run (a smaller case for a trial); REPEATS
# runs each row that many times (one row each: a single run of a second is no median). The
# unstructured rows' split column names the scatters' strategies the tuner picked on rank 0.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tessera=$1
shift
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
common=(--set output.enabled=false --set checkpoint.at_end=false
  --set run.backend="\"${BACKEND:-device}\"")
sod=("$root/examples/sod/sod3d.toml" --set mesh.cells_per_patch=16 --set 'mesh.patches=[24,24,24]'
  --set 'mesh.upper=[1.0,1.0,1.0]' --set time.max_steps=200)
sedov=("$root/examples/sedov/sedov3d.toml" --set mesh.cells_per_patch=16)
implicit=("$root/examples/unstructured/bump_implicit.toml" --set 'mesh.box.cells=[240,80,20]'
  --set 'mesh.box.shape="tetrahedra"' --set implicit.max_iterations=30)
newton_krylov=("${implicit[@]}" --set 'implicit.linear_solver="gmres"' --set implicit.max_iterations=10)
echo "| case | ranks | exchange | cell-updates/s | stepping | time split |"
echo "|---|---|---|---|---|---|"
for name in ${CASES:-sod sedov implicit}; do
  declare -n args=$name
  for spec in "$@"; do
    for ((repeat = 1; repeat <= ${REPEATS:-1}; ++repeat)); do
      ranks=${spec%%:*}
      exchange=auto
      [[ $spec == *:* ]] && exchange=${spec#*:}
      dir="$work/$name-$ranks-$exchange-$repeat"
      log="$dir.log"
      mpiexec -n "$ranks" --oversubscribe "$tessera" run "${args[@]}" "${common[@]}" \
        --set run.exchange="\"$exchange\"" --set output.directory="\"$dir\"" \
        --set checkpoint.directory="\"$dir/checkpoints\"" ${EXTRA:-} >"$log" 2>&1 ||
        { echo "| $name | $ranks | $exchange | failed: $(tail -1 "$log") | | |"; continue; }
      rate=$(sed -n 's/.*cell-updates\/s *\([0-9.e+-]*\) over \(.*\) of stepping.*/\1/p' "$log")
      stepping=$(sed -n 's/.*cell-updates\/s *[0-9.e+-]* over \(.*\) of stepping.*/\1/p' "$log")
      split=$(sed -n 's/.*time split *//p' "$log")
      regrid=$(sed -n 's/.*regrid split *//p' "$log")
      [ -n "$regrid" ] && split="$split; regrid: $regrid"
      if [[ $name == implicit || $name == newton_krylov ]]; then
        rate="-"
        stepping=$(sed -n 's/^ *iterating *//p' "$log")
        split=$(sed -n 's/.*strategy of the \(.*\) scatter: picked \([a-z_]*\).*/\1 \2/p' "$log" |
          paste -sd, -)
      fi
      echo "| $name | $ranks | $exchange | $rate | $stepping | $split |"
    done
  done
done
