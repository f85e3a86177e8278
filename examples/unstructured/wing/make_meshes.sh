#!/usr/bin/env bash
# The wing's meshes with Gmsh 4.8 (apt-get install gmsh): edge lengths of 40, 20 and 12 mm on the
# wing (wing.geo); 40, 14 and 12 gave 36,077, 169,857 and 218,688 tetrahedra, about two minutes
# each for the finer ones on two cores.
# Usage: ./make_meshes.sh [size ...] (default 40 20 12).
set -euo pipefail
cd "$(dirname "$0")"
command -v gmsh >/dev/null || { echo "make_meshes.sh: gmsh not found (apt-get install gmsh)" >&2; exit 1; }
for size in ${@:-40 20 12}; do
  gmsh -3 -setnumber size "$size" -format msh41 wing.geo -o "wing_$size.msh" >/dev/null
  echo "wing_$size.msh"
done
