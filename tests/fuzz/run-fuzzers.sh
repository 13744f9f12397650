#!/usr/bin/env bash
# Builds the libFuzzer targets (preset "fuzz", clang, build-fuzz/) and runs each one for SECONDS
# (default 20) on a copy of its seed corpus (tests/fuzz/corpus/<target>/). Fails on the first
# crash, leak, timeout or sanitizer report; the reproducer is left in build-fuzz/fuzz/artifacts/.
# Reproduce one:  build-fuzz/fuzz/fuzz_<target> build-fuzz/fuzz/artifacts/<target>/crash-...
# With PAPERLAB_FUZZ_RUNS=N each target runs exactly N inputs instead (with the fixed seed this
# is deterministic: CI uses it so that a green commit stays green).
set -euo pipefail
seconds="${1:-20}"
runs="${PAPERLAB_FUZZ_RUNS:-}"
if [ -n "$runs" ]; then
  budget=(-runs="$runs")
  label="$runs runs"
else
  budget=(-max_total_time="$seconds")
  label="${seconds}s"
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
jobs="${PAPERLAB_JOBS:-$(nproc)}"
cmake --preset fuzz >/dev/null
cmake --build build-fuzz -j"$jobs" --target paperlab_fuzzers
export QT_QPA_PLATFORM=offscreen
# Qt's own allocations live for the process (static caches); leak reports are about our parsers.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
summary=()
for dir in tests/fuzz/corpus/*/; do
  target="$(basename "$dir")"
  exe="build-fuzz/fuzz/fuzz_$target"
  [ -x "$exe" ] || { echo "== fuzz_$target: no target built"; status=1; continue; }
  work="build-fuzz/fuzz/corpus/$target"
  art="build-fuzz/fuzz/artifacts/$target"
  rm -rf "$work"; mkdir -p "$work" "$art"
  cp tests/fuzz/corpus/"$target"/* "$work"/
  log="build-fuzz/fuzz/$target.log"
  echo "== fuzz_$target: $label"
  if "$exe" "$work" "${budget[@]}" -seed=1 -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
       -print_final_stats=1 -artifact_prefix="$art/" >"$log" 2>&1; then
    result="ok"
  else
    result="FAILED"; status=1
    grep -E "ERROR|runtime error|SUMMARY|Test unit written" "$log" | head -20 || true
  fi
  execs="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo '?')"
  summary+=("fuzz_$target: $result, $execs executions, corpus $(ls "$work" | wc -l) files")
done
printf '%s\n' "${summary[@]}"
exit "$status"
