#!/usr/bin/env bash
# Compiler/linker launcher used by tests/build-cost.sh --measure: runs the command under GNU time
# and appends "user_s sys_s output" to LOG, so that build cost is counted in CPU-seconds of each
# step, whatever else the machine is doing (a loaded machine stretches .ninja_log's wall times).
# Usage (as CMAKE_<LANG>_COMPILER_LAUNCHER): cpu-time-launcher.sh LOG COMMAND...
log="$1"; shift
out="?"
prev=""
for a in "$@"; do
  [ "$prev" = "-o" ] && out="$a"
  prev="$a"
done
exec /usr/bin/time -a -o "$log" -f "%U %S $out" "$@"
