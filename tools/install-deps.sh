#!/usr/bin/env bash
# Installs the Debian 12 packages Tessera builds against (compilers and CMake come with the
# machine), matplotlib for tools/plot_log.py, and any further packages named as arguments (CI
# adds hipcc for the hip preset).
# Safe to run again: apt-get skips what is already there. It never removes a package: where apt
# would have to, it stops and says so.
set -euo pipefail
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# VTK for the output: Debian's libvtk9-dev, or where ParaView is installed ParaView's own VTK
# (paraview-dev), because python3-paraview conflicts with python3-vtk9, which libvtk9-dev needs.
vtk=libvtk9-dev
if installed paraview || installed python3-paraview; then
  vtk=paraview-dev
fi
packages=(
  cmake g++ make ninja-build
  libopenmpi-dev openmpi-bin
  libp4est-dev libmetis-dev
  "$vtk"
  libtomlplusplus-dev libcli11-dev libmuparser-dev
  libgtest-dev libbenchmark-dev
  python3-matplotlib
  "$@"
)
missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends --no-remove \
    "${missing[@]}"
fi
