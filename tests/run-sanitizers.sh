#!/usr/bin/env bash
# tests/run-sanitizers.sh asan|tsan [all]
# Configures build-asan/ (AddressSanitizer + UBSan) or build-tsan/ (ThreadSanitizer) from the
# presets of the same name, builds the tests of the chosen labels and runs them under CTest.
#   asan: labels core, games, sdk, cli (engines, readers, job layer, sessions and the CLI end to
#         end, which runs the instrumented paperlab binary on every bad-input file). "all" builds
#         and runs the whole suite (widgets, GL, GUI smoke too; ~3x the time of the default set).
#   tsan: label sdk (JobRunner stall/cancel probes, sessions, plugin loading). No engine starts
#         threads of its own today; an engine that does must add its test to TSAN_TESTS below.
# Qt is not instrumented; tests/sanitizers/*.supp lists what is suppressed and why.
set -euo pipefail
kind="${1:?usage: tests/run-sanitizers.sh asan|tsan [all]}"
scope="${2:-}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
jobs="${PAPERLAB_JOBS:-$(nproc)}"
supp="$root/tests/sanitizers"
case "$kind" in
  asan)
    build=build-asan
    if [ "$scope" = all ]; then
      targets=(all); labels=""
    else
      targets=(tst_core tst_games_io tst_ssn_nash tst_fictitious_play tst_ftrl_dynamics tst_ftrl_engine
               tst_ftrl_potential tst_plugins tst_jobrunner tst_session tst_interrupted_writes tst_cli)
      labels="^(core|games|sdk|cli)$"
    fi
    export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=0:check_initialization_order=1:abort_on_error=0:halt_on_error=1"
    export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"
    ;;
  tsan)
    build=build-tsan
    targets=(tst_jobrunner tst_session tst_plugins tst_interrupted_writes)
    labels="^sdk$"
    [ "$scope" = all ] && { targets=(all); labels=""; }
    export TSAN_OPTIONS="suppressions=$supp/tsan.supp:halt_on_error=1:second_deadlock_stack=1:history_size=4"
    ;;
  *) echo "usage: tests/run-sanitizers.sh asan|tsan [all]" >&2; exit 1 ;;
esac
# Only targets that exist in this tree (a test added later needs no edit here to keep working).
start=$(date +%s)
cmake --preset "$kind" >/dev/null
if [ "${targets[0]}" != all ]; then
  known="$(cmake --build "$build" --target help | sed -n 's/^\([A-Za-z0-9_]*\): .*/\1/p')"
  keep=()
  for t in "${targets[@]}"; do grep -qx "$t" <<<"$known" && keep+=("$t"); done
  targets=("${keep[@]}")
fi
cmake --build "$build" -j"$jobs" --target "${targets[@]}"
built=$(date +%s)
echo "paperlab: $kind build took $((built - start)) s"
args=()
[ -n "$labels" ] && args+=(-L "$labels")
"$root/tests/run-tests.sh" "$build" "${args[@]}"
echo "paperlab: $kind tests took $(( $(date +%s) - built )) s"
