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
# The example inputs (File > Open Example) with their README, the same files as the source tree.
examples="$tmp/root/usr/share/paperlab/examples"
test -f "$examples/README.md"
test -f "$examples/ssn-nash/oneill.nfg"
test ! -e "$examples/make-examples.py"
(cd "$src/resources/examples" && find . -type f ! -name '*.py' | sort) >"$tmp/examples.src"
(cd "$examples" && find . -type f | sort) >"$tmp/examples.deb"
diff -u "$tmp/examples.src" "$tmp/examples.deb" || { echo "the package's examples differ from resources/examples"; exit 1; }
cmp "$src/resources/examples/ssn-nash/oneill.nfg" "$examples/ssn-nash/oneill.nfg"
out="$(env -u PAPERLAB_PLUGIN_PATH QT_QPA_PLATFORM=offscreen "$tmp/root/usr/bin/paperlab" list)"
echo "$out"
echo "$out" | grep -q '^ssn-nash' && echo "$out" | grep -q '^ftrl-potential-games'
# The installed program runs an installed example.
env -u PAPERLAB_PLUGIN_PATH QT_QPA_PLATFORM=offscreen "$tmp/root/usr/bin/paperlab" run ssn-nash \
  --input "$examples/ssn-nash/oneill.nfg" --out "$tmp/oneill.json"
grep -q '"oneill.nfg"' "$tmp/oneill.json"
! echo "$out" | grep -q broken
# The installed executable finds its frontend module (drawing commands) in the private libdir.
env -u PAPERLAB_PLUGIN_PATH -u PAPERLAB_FRONTEND QT_QPA_PLATFORM=offscreen "$tmp/root/usr/bin/paperlab" figure ssn-nash \
  gap_vs_iteration --set rows=5 --set cols=5 --out "$tmp/gap.svg"
grep -q "<svg" "$tmp/gap.svg"
echo "package OK: $(basename "$deb")"
