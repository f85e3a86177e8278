#!/usr/bin/env bash
# The wing's meshes with Gmsh 4.8 (apt-get install gmsh): edge lengths on the wing (wing.geo) in
# millimetres. The default makes 40 mm (36,226 tetrahedra, wing_transonic.toml's mesh, for a first
# run on a host) and the family of benchmarks/RESULTS.md, 18, 12, 8 and 5.3 mm (a ratio of 1.5):
# 113,872, 219,007, 433,266 and 872,151 tetrahedra; six minutes for all on two cores, the 5.3 mm
# file 50 MB.
# Usage: ./make_meshes.sh [size ...] (default 40 18 12 8 5.3).
here="$(dirname "$0")"
exec "$here/../../../tools/gmsh-meshes.sh" "$here/wing.geo" size 3 ${@:-40 18 12 8 5.3}
