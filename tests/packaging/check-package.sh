#!/usr/bin/env bash
# Builds the Debian package from the build folder, unpacks it into a temporary root and runs
# `paperlab list` from there; validates the desktop entry and AppStream metadata.
set -euo pipefail
build="$1"
src="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
desktop-file-validate "$src/packaging/linux/org.paperlab.paperlab.desktop"
appstreamcli validate --pedantic --no-net "$src/packaging/linux/org.paperlab.paperlab.metainfo.xml"
(cd "$build" && cpack -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; exit 1; }
deb="$(ls "$tmp"/pkg/paperlab_*.deb)"
depends="$(dpkg-deb -f "$deb" Depends)"
echo "Depends: $depends"
case "$depends" in *libvtk9.1-qt*|*libqt5*) echo "package must not depend on Qt 5 or VTK's Qt 5 module"; exit 1;; esac
case "$depends" in *libqt6widgets6*) ;; *) echo "package lacks the Qt 6 dependency"; exit 1;; esac
dpkg-deb -x "$deb" "$tmp/root"
test -f "$tmp/root/usr/share/applications/org.paperlab.paperlab.desktop"
test -f "$tmp/root/usr/share/icons/hicolor/scalable/apps/org.paperlab.paperlab.svg"
out="$(env -u PAPERLAB_PLUGIN_PATH QT_QPA_PLATFORM=offscreen "$tmp/root/usr/bin/paperlab" list)"
echo "$out"
echo "$out" | grep -q '^ssn-nash' && echo "$out" | grep -q '^ftrl-potential-games'
! echo "$out" | grep -q broken
# The installed executable finds its frontend module (drawing commands) in the private libdir.
env -u PAPERLAB_PLUGIN_PATH -u PAPERLAB_FRONTEND QT_QPA_PLATFORM=offscreen "$tmp/root/usr/bin/paperlab" figure ssn-nash \
  gap_vs_iteration --set rows=5 --set cols=5 --out "$tmp/gap.svg"
grep -q "<svg" "$tmp/gap.svg"
echo "package OK: $(basename "$deb")"
