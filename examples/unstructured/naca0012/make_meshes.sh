#!/usr/bin/env bash
# The NACA 0012 O-mesh family of naca0012.geo with Gmsh (apt-get install gmsh): 128, 256 and 512
# quadrilaterals around the airfoil (8192 to 131072 cells), each level halving the cells of the
# next in both directions; ./make_meshes.sh 1024 adds the level above (524288 cells, 43 MB).
# Usage: ./make_meshes.sh [cells ...] (default 128 256 512).
set -euo pipefail
cd "$(dirname "$0")"
command -v gmsh >/dev/null || { echo "make_meshes.sh: gmsh not found (apt-get install gmsh)" >&2; exit 1; }
for cells in ${@:-128 256 512}; do
  gmsh -2 -setnumber cells "$cells" -format msh41 naca0012.geo -o "naca0012_$cells.msh" >/dev/null
  echo "naca0012_$cells.msh: $((cells * cells / 2)) quadrilaterals"
done
