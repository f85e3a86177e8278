#!/usr/bin/env bash
# The wing's mesh family with Gmsh (apt-get install gmsh): edge lengths of 40, 24 and 14 mm on the
# wing (wing.geo), each about 2.4 times the cells of the one before.
# Usage: ./make_meshes.sh [size ...] (default 40 24 14).
set -euo pipefail
cd "$(dirname "$0")"
command -v gmsh >/dev/null || { echo "make_meshes.sh: gmsh not found (apt-get install gmsh)" >&2; exit 1; }
for size in ${@:-40 24 14}; do
  gmsh -3 -setnumber size "$size" -format msh41 wing.geo -o "wing_$size.msh" >/dev/null
  echo "wing_$size.msh"
done
