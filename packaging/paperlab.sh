#!/usr/bin/env bash
# The README's two commands:
#   packaging/paperlab.sh run [ARGS...]   install what is missing, build, start the app
#   packaging/paperlab.sh test            install what is missing, build, run every test headless
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mode="${1:-run}"
shift || true

"$root/packaging/install-deps.sh"

# ccache: rewrite absolute paths relative to the checkout so clones in other folders share hits.
export CCACHE_BASEDIR="$root"
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
jobs="$(nproc)"
cmake --preset default >/dev/null
cmake --build --preset default -j"$jobs"

case "$mode" in
  run)
    exec "$root/build/bin/paperlab" "$@"
    ;;
  test)
    "$root/tests/run-tests.sh" "$root/build"
    # Quality gate (issue #10): every parser fuzzed for a short fixed time with libFuzzer +
    # ASan/UBSan (clang, build-fuzz/). PAPERLAB_FUZZ_SECONDS=0 skips it.
    fuzz_seconds="${PAPERLAB_FUZZ_SECONDS:-20}"
    if [ "$fuzz_seconds" != 0 ]; then
      exec "$root/tests/fuzz/run-fuzzers.sh" "$fuzz_seconds"
    fi
    ;;
  *)
    echo "usage: packaging/paperlab.sh run|test" >&2
    exit 1
    ;;
esac
