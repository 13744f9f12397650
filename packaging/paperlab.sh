#!/usr/bin/env bash
# The README's two commands:
#   packaging/paperlab.sh run [ARGS...]   install what is missing, build, start the app
#   packaging/paperlab.sh test            install what is missing, build, run every test headless
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mode="${1:-run}"
shift || true

# Each phase prints its wall time (CI budget: the fuzz and TSan gates report their own share).
phase_start=$(date +%s)
phase() { local now; now=$(date +%s); echo "paperlab: $1 took $((now - phase_start)) s"; phase_start=$now; }
"$root/packaging/install-deps.sh"
phase "packages"

# ccache: rewrite absolute paths relative to the checkout so clones in other folders share hits.
export CCACHE_BASEDIR="$root"
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
jobs="$(nproc)"
cmake --preset default >/dev/null
cmake --build --preset default -j"$jobs"
phase "release build"

case "$mode" in
  run)
    exec "$root/build/bin/paperlab" "$@"
    ;;
  test)
    # Quality gate (issue #10): every parser fuzzed with libFuzzer + ASan/UBSan (clang,
    # build-fuzz/) for a fixed number of inputs from a fixed seed (deterministic), then the whole
    # test suite, whose summary closes the output. PAPERLAB_FUZZ_RUNS=0 skips fuzzing;
    # tests/fuzz/run-fuzzers.sh SECONDS fuzzes longer by time.
    fuzz_runs="${PAPERLAB_FUZZ_RUNS:-30000}"
    if [ "$fuzz_runs" != 0 ]; then
      PAPERLAB_FUZZ_RUNS="$fuzz_runs" "$root/tests/fuzz/run-fuzzers.sh"
      phase "fuzz gate (clang build + $fuzz_runs runs per target)"
    fi
    # Quality gates (issue #10), each small enough for CI: ThreadSanitizer on the job layer and
    # every test labelled tsan; cppcheck on engines/, app/, widgets/ (must be clean). The ASan +
    # UBSan gate over the engines' tests (tests/run-sanitizers.sh asan
    # '^(core|games|engine|tilesparse)$' cli) and clang-tidy run with PAPERLAB_FULL_GATES=1.
    if [ "${PAPERLAB_GATES:-1}" != 0 ]; then
      "$root/tests/run-sanitizers.sh" tsan
      phase "ThreadSanitizer gate"
      if command -v cppcheck >/dev/null; then
        PAPERLAB_SA_STRICT=1 PAPERLAB_SA_TOOLS=cppcheck "$root/tests/run-static-analysis.sh" build
        phase "cppcheck gate"
      fi
      if [ "${PAPERLAB_FULL_GATES:-0}" = 1 ]; then
        "$root/tests/run-sanitizers.sh" asan '^(core|games|engine|tilesparse)$' cli
        PAPERLAB_SA_STRICT=1 "$root/tests/run-static-analysis.sh" build
      fi
    fi
    exec "$root/tests/run-tests.sh" "$root/build"
    ;;
  *)
    echo "usage: packaging/paperlab.sh run|test" >&2
    exit 1
    ;;
esac
