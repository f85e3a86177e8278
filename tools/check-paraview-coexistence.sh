#!/usr/bin/env bash
# README's two commands on a fresh Debian 12 where the user installed ParaView first: there
# Debian's python3-paraview conflicts with python3-vtk9, which libvtk9-dev needs, so Tessera must
# build against ParaView's own VTK (paraview-dev) and must not remove ParaView.
#
#   sudo tools/check-paraview-coexistence.sh [ROOT]
#
# ROOT (default /var/tmp/tessera-paraview-root) is made with debootstrap (Debian 12, minbase) if
# it is not there; the committed tree (git archive HEAD, as a clean clone) is copied into it. Needs
# root, debootstrap and a Debian mirror (DEBIAN_MIRROR, default deb.debian.org). Prints the
# packages apt chose, the configure line naming the VTK, the tests' summary and whether ParaView
# is still installed; exits non-zero where any of that fails.
set -euo pipefail
root=${1:-/var/tmp/tessera-paraview-root}
repo=$(cd "$(dirname "$0")/.." && pwd)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

[ -x "$root/usr/bin/apt-get" ] || debootstrap --variant=minbase bookworm "$root" "$mirror"
# As on an installed machine: name resolution, and this host's name (without it OpenMPI's start
# waits seconds for a lookup of its own name).
cp /etc/resolv.conf /etc/hosts "$root/etc/"
mounted=()
cleanup() { for ((n = ${#mounted[@]} - 1; n >= 0; n--)); do umount -l "${mounted[n]}"; done; }
trap cleanup EXIT
for m in proc sys dev dev/pts; do
  mkdir -p "$root/$m"
  if [ "$m" = proc ]; then mount -t proc proc "$root/proc"; else mount --bind "/$m" "$root/$m"; fi
  mounted+=("$root/$m")
done
mkdir -p "$root/dev/shm"

inside() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 DEBIAN_FRONTEND=noninteractive \
  bash -c "$1"; }

echo "== the user installs ParaView first"
inside "apt-get update -qq && apt-get install -y -qq paraview >/dev/null"
inside "dpkg-query -W paraview python3-paraview"

echo "== README's two commands, in a clean copy of the committed tree"
rm -rf "$root/root/tessera" && mkdir -p "$root/root/tessera"
git -C "$repo" archive --format=tar HEAD | tar -x -C "$root/root/tessera"
inside "cd /root/tessera && tools/run-default-case.sh --quiet && ls output/sedov2d/sedov2d.pvd"
inside "cd /root/tessera && tools/run-tests.sh" | tee "$root/root/tests.log" |
  grep -E "tests passed|tests failed|Skipped|Failed|\*\*\*" || true
grep -q "100% tests passed" "$root/root/tests.log"
inside "cd /root/tessera && cmake --preset cpu | grep 'Tessera: VTK'"

echo "== what apt chose, and ParaView still there"
inside "dpkg-query -W -f='\${Package} \${Version} \${Status}\n' paraview paraview-dev python3-paraview \
        libvtk9-dev python3-vtk9 2>&1 || true" # dpkg-query fails on a package it never saw
inside "dpkg-query -W -f='\${Status}' paraview | grep -q 'install ok installed'"
echo "ParaView is still installed"
