#!/usr/bin/env bash
# Runs each libFuzzer target of the fuzz preset for a bounded time (default 30 s each) from its
# seed corpus (tests/fuzz/corpus/<reader>, left unchanged: new inputs go to build/fuzz/corpus),
# and fails if one finds an input that crashes a reader or trips a sanitizer; the input is then
# in build/fuzz/ as crash-*, to become a test. Prints how many inputs each target tried.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
status=0
for reader in case gmsh su2; do
  work=build/fuzz/corpus/$reader
  mkdir -p "$work"
  log=build/fuzz/fuzz_$reader.log
  if ! build/fuzz/tests/fuzz/fuzz_$reader -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix=build/fuzz/ "$work" "tests/fuzz/corpus/$reader" >"$log" 2>&1; then
    echo "fuzz_$reader: found a failing input:" >&2
    tail -30 "$log" >&2
    status=1
  fi
  echo "fuzz_$reader: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log" || echo 'stopped early')"
done
exit $status
