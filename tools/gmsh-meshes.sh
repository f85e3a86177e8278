#!/usr/bin/env bash
# A mesh family of an example's Gmsh script: for each value, `gmsh -<dimension> -setnumber
# <parameter> <value> <geo>`, written beside the script as <geo's name>_<value>.msh (format 4.1).
# Needs Gmsh (apt-get install gmsh). The examples' make_meshes.sh call it.
# Usage: tools/gmsh-meshes.sh <file.geo> <parameter> <dimension> <value> [value ...]
set -euo pipefail
if (($# < 4)); then
  echo "usage: $0 <file.geo> <parameter> <dimension> <value> [value ...]" >&2
  exit 2
fi
geo=$1 parameter=$2 dimension=$3
shift 3
command -v gmsh >/dev/null || { echo "$0: gmsh not found (apt-get install gmsh)" >&2; exit 1; }
stem="${geo%.geo}"
for value in "$@"; do
  gmsh "-$dimension" -setnumber "$parameter" "$value" -format msh41 "$geo" -o "${stem}_$value.msh" \
    >/dev/null
  echo "${stem}_$value.msh"
done
