#!/usr/bin/env bash
# The wing's meshes with Gmsh 4.8 (apt-get install gmsh): edge lengths of 40, 20 and 12 mm on the
# wing (wing.geo); 40, 14 and 12 gave 36,077, 169,857 and 218,688 tetrahedra, about two minutes
# each for the finer ones on two cores.
# Usage: ./make_meshes.sh [size ...] (default 40 20 12).
here="$(dirname "$0")"
exec "$here/../../../tools/gmsh-meshes.sh" "$here/wing.geo" size 3 ${@:-40 20 12}
