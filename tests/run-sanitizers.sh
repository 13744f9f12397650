#!/usr/bin/env bash
# tests/run-sanitizers.sh asan|tsan [LABEL_REGEX|all] [EXCLUDE_LABEL_REGEX]
# Configures build-asan/ (AddressSanitizer + UBSan) or build-tsan/ (ThreadSanitizer) from the
# presets of the same name, builds the test executables whose CTest labels match LABEL_REGEX (or
# everything with "all") and runs those tests.
#   asan default: ^(core|games|engine|tilesparse|sdk|cli)$ : engines, readers, job layer,
#         sessions and the CLI end to end (the instrumented paperlab binary on every bad-input
#         file). "all" builds and runs the whole suite (widgets, GL, GUI smoke too).
#   tsan default: ^(jobs|tsan)$ : the job layer (JobRunner stall/cancel/shutdown probes) and every
#         engine test labelled tsan. '^(sdk)$' adds sessions and plugin loading; the interrupted-
#         writes test is too slow under TSan (it starts instrumented children) and is better left out.
#   CI (packaging/paperlab.sh test) runs the lean gates: asan '^(core|games|engine|tilesparse)$'
#   'cli' (every engine's tests, without those that drive the whole app through the CLI) and tsan '^(jobs|tsan)$' (the job layer without widgets, plus every
#   test labelled tsan: an engine that starts threads labels its test tsan).
# Qt is not instrumented; tests/sanitizers/*.supp lists what is suppressed and why.
set -euo pipefail
kind="${1:?usage: tests/run-sanitizers.sh asan|tsan [all]}"
scope="${2:-}"
exclude="${3:-}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
jobs="${PAPERLAB_JOBS:-$(nproc)}"
supp="$root/tests/sanitizers"
case "$kind" in
  asan)
    build=build-asan
    labels="${scope:-^(core|games|engine|tilesparse|sdk|cli)$}"
    export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=0:check_initialization_order=1:abort_on_error=0:halt_on_error=1"
    export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"
    ;;
  tsan)
    build=build-tsan
    labels="${scope:-^(jobs|tsan)$}"
    export TSAN_OPTIONS="suppressions=$supp/tsan.supp:halt_on_error=1:second_deadlock_stack=1:history_size=4"
    ;;
  *) echo "usage: tests/run-sanitizers.sh asan|tsan [LABEL_REGEX|all]" >&2; exit 1 ;;
esac
start=$(date +%s)
cmake --preset "$kind" >/dev/null
if [ "$labels" = all ]; then
  targets=(all); labels=""
else
  # The executables of the matching tests (from CTest's own listing); CLI tests depend on the
  # paperlab binary and the plugins they run (add_dependencies in their CMakeLists).
  known="$(cmake --build "$build" --target help | sed -n 's/^\([A-Za-z0-9_]*\): .*/\1/p')"
  xargs_=(-L "$labels"); [ -n "$exclude" ] && xargs_+=(-LE "$exclude")
  mapfile -t targets < <(ctest --test-dir "$build" "${xargs_[@]}" --show-only=json-v1 | python3 -c '
import json, os, sys
known = set(sys.argv[1].split())
seen = []
for t in json.load(sys.stdin).get("tests", []):
    # The executable of a test not built yet has no resolved command: fall back to its name.
    cmd = t.get("command") or [t.get("name", "")]
    name = os.path.basename(cmd[0])
    if name in known and name not in seen:
        seen.append(name)
print("\n".join(seen))
' "$known")
  [ ${#targets[@]} -gt 0 ] || { echo "no tests match $labels"; exit 1; }
fi
cmake --build "$build" -j"$jobs" --target "${targets[@]}"
built=$(date +%s)
echo "paperlab: $kind build took $((built - start)) s"
args=()
[ -n "$labels" ] && args+=(-L "$labels")
[ -n "$exclude" ] && args+=(-LE "$exclude")
"$root/tests/run-tests.sh" "$build" "${args[@]}"
echo "paperlab: $kind tests took $(( $(date +%s) - built )) s"
