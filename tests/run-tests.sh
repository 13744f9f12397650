#!/usr/bin/env bash
# Runs the whole test suite headless: widget tests on Qt's offscreen platform, GL tests (label
# "gl") against one Xvfb started here for the whole run (xvfb-run per test races under -j).
set -euo pipefail
build="${1:-build}"
export QT_QPA_PLATFORM=offscreen
export QT_ENABLE_HIGHDPI_SCALING=0
export QT_SCALE_FACTOR=1
xvfb_pid=""
if command -v Xvfb >/dev/null 2>&1; then
  for n in $(seq 90 120); do
    if [ ! -e "/tmp/.X${n}-lock" ] && [ ! -e "/tmp/.X11-unix/X${n}" ]; then
      Xvfb ":${n}" -screen 0 1600x1200x24 -nolisten tcp >/dev/null 2>&1 &
      xvfb_pid=$!
      export DISPLAY=":${n}"
      break
    fi
  done
  trap '[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true' EXIT
  sleep 1
fi
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" --timeout 600 "${@:2}"
