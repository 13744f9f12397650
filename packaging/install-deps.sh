#!/usr/bin/env bash
# Installs every Debian 12 package Paperlab needs to build, run and test.
# Idempotent: packages already present are skipped. Run as root or with sudo.
set -euo pipefail
PKGS=(
  build-essential cmake ninja-build ccache mold pkg-config git file time bc
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev qt6-qpa-plugins
  libgl-dev libglx-mesa0 libgl1-mesa-dri
  libvtk9-dev libeigen3-dev nlohmann-json3-dev libspectra-dev coinor-libclp-dev
  gemmi-dev tao-pegtl-dev zlib1g-dev libpng-dev liblemon-dev libzip-dev libsodium-dev libboost-dev
  lrslib tm-align python3 python3-numpy python3-scipy python3-sklearn python3-networkx libopenblas0-pthread python3-threadpoolctl
  python3-hnswlib
  xvfb xauth fonts-dejavu-core
  desktop-file-utils appstream dpkg-dev
  clang libclang-rt-14-dev
  libopenmpi-dev openmpi-bin
  libsundials-dev
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "paperlab: installing ${#missing[@]} packages: ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
