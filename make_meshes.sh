#!/usr/bin/env bash
# The sphere's meshes with Gmsh 4.8 (apt-get install gmsh): edge lengths of 0.06, 0.04 and 0.02
# diameters on the sphere (sphere.geo), a second or two each.
# Usage: ./make_meshes.sh [size ...] (default 0.06 0.04 0.02).
set -euo pipefail
cd "$(dirname "$0")"
command -v gmsh >/dev/null || { echo "make_meshes.sh: gmsh not found (apt-get install gmsh)" >&2; exit 1; }
for size in ${@:-0.06 0.04 0.02}; do
  gmsh -3 -setnumber size "$size" -format msh41 sphere.geo -o "sphere_$size.msh" >/dev/null
  echo "sphere_$size.msh"
done
