#!/usr/bin/env bash
# The pictures README shows: each example run on the host (the cpu preset's tessera and
# double_mach, built first) and one field of its last step drawn by tools/render_example.py into
# docs/images/. The runs go to build/pictures (WORK=... to choose); 2 cores take about 5 minutes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work=${WORK:-$root/build/pictures}
mkdir -p "$work" "$root/docs/images"
cd "$work"
tessera="$root/build/cpu/tools/tessera/tessera"
render() { /usr/bin/python3 "$root/tools/render_example.py" "$@"; }
run() { "$tessera" run "$@" --quiet --set checkpoint.at_end=false; }
images="$root/docs/images"

run "$root/examples/sedov/sedov2d.toml"
render output/sedov2d/sedov2d.pvd density -o "$images/sedov2d.png" \
  --title "The default case: a Sedov blast, density at t = 0.1 (3 levels of refinement)"

run "$root/examples/kelvin_helmholtz/kh2d.toml"
render output/kh2d/kh2d.pvd density -o "$images/kh2d.png" --title "Kelvin-Helmholtz, density"

"$root/build/cpu/examples/double_mach" run "$root/examples/double_mach/double_mach.toml" --quiet \
  --set checkpoint.at_end=false
render output/double_mach/double_mach.pvd density -o "$images/double_mach.png" --width 12 \
  --window 0 3 0 1 --title "Double Mach reflection, density at t = 0.2"

run "$root/examples/unstructured/naca0012/naca0012_transonic.toml" \
  --set 'mesh.file="naca0012_128.msh"'
render output/naca0012_transonic/naca0012_transonic.pvd mach -o "$images/naca0012.png" \
  --window -0.5 1.5 -0.6 0.6 --title "NACA 0012 at Mach 0.8, 1.25 degrees: the Mach number"

run "$root/examples/sedov/sedov3d.toml"
render output/sedov3d/sedov3d.pvd density -o "$images/sedov3d.png" \
  --title "The 3D blast: density on the plane z = 0.5 at t = 0.05"
