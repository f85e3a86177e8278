#!/usr/bin/env bash
# The NACA 0012 O-mesh family of naca0012.geo with Gmsh (apt-get install gmsh): 128, 256 and 512
# quadrilaterals around the airfoil (8192 to 131072 cells, cells^2 / 2), each level halving the
# cells of the next in both directions; ./make_meshes.sh 1024 adds the level above (524288 cells,
# 43 MB).
# Usage: ./make_meshes.sh [cells ...] (default 128 256 512).
here="$(dirname "$0")"
exec "$here/../../../tools/gmsh-meshes.sh" "$here/naca0012.geo" cells 2 ${@:-128 256 512}
