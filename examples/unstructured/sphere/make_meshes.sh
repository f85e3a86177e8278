#!/usr/bin/env bash
# The sphere's meshes with Gmsh 4.8 (apt-get install gmsh): edge lengths of 0.06, 0.04 and 0.02
# diameters on the sphere (sphere.geo), a second or two each.
# Usage: ./make_meshes.sh [size ...] (default 0.06 0.04 0.02).
here="$(dirname "$0")"
exec "$here/../../../tools/gmsh-meshes.sh" "$here/sphere.geo" size 3 ${@:-0.06 0.04 0.02}
