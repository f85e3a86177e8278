#!/usr/bin/env bash
# Installs the Debian 12 packages Tessera builds against (compilers and CMake come with the
# machine), and any further packages named as arguments (CI adds hipcc for the hip preset).
# Safe to run again: apt-get skips what is already there.
set -euo pipefail
packages=(
  cmake g++ make
  libopenmpi-dev openmpi-bin
  libp4est-dev libmetis-dev
  libvtk9-dev
  libtomlplusplus-dev libcli11-dev
  libgtest-dev libbenchmark-dev
  "$@"
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
