#!/usr/bin/env bash
# tests/run-static-analysis.sh [BUILD_DIR] [DIRS...]
# clang-tidy (checks in /.clang-tidy) on every translation unit of BUILD_DIR's
# compile_commands.json (default build/, configured if needed) under DIRS (default engines app
# widgets), then cppcheck on the same folders. Writes BUILD_DIR/static-analysis/{clang-tidy,cppcheck}.txt.
# Exit status: 0 clean, 1 findings (with PAPERLAB_SA_STRICT=1; otherwise findings are listed
# and the script exits 0 so it can run as an informational CI step).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${1:-build}"
shift || true
dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && dirs=(engines app widgets)
tidy="$(command -v clang-tidy-14 || command -v clang-tidy || true)"
# PAPERLAB_SA_TOOLS=cppcheck runs cppcheck alone (the fast CI gate).
[ "${PAPERLAB_SA_TOOLS:-all}" = cppcheck ] && tidy=""
out="$build/static-analysis"
mkdir -p "$out"
[ -f "$build/compile_commands.json" ] || cmake --preset default >/dev/null
jobs="${PAPERLAB_JOBS:-$(nproc)}"
pattern="$(printf '%s|' "${dirs[@]}")"; pattern="^$root/(${pattern%|})/"
start=$(date +%s)
findings=0
if [ -n "$tidy" ]; then
  # Translation units of our folders (moc/autogen files and third-party code are skipped).
  python3 - "$build/compile_commands.json" "$pattern" >"$out/files.txt" <<'PY'
import json, re, sys
rx = re.compile(sys.argv[2])
seen = set()
for e in json.load(open(sys.argv[1])):
    f = e["file"]
    if rx.match(f) and "_autogen" not in f and f not in seen:
        seen.add(f); print(f)
PY
  echo "clang-tidy: $(wc -l <"$out/files.txt") files"
  # gcc-only flags in the database are dropped so that clang accepts every command.
  xargs -a "$out/files.txt" -P "$jobs" -n 4 "$tidy" -p "$build" --quiet \
      --extra-arg=-Wno-unknown-warning-option --extra-arg=-Wno-unused-command-line-argument \
      >"$out/clang-tidy.txt" 2>/dev/null || true
  n=$(grep -c 'warning:\|error:' "$out/clang-tidy.txt" || true)
  echo "clang-tidy: $n findings ($out/clang-tidy.txt)"
  grep -E 'warning:|error:' "$out/clang-tidy.txt" | sed "s|$root/||" | sort -u | head -200 || true
  findings=$((findings + n))
else
  echo "clang-tidy: skipped (not installed, or PAPERLAB_SA_TOOLS=cppcheck)"
fi
if command -v cppcheck >/dev/null; then
  cppcheck --quiet --std=c++20 --language=c++ --enable=warning,performance,portability \
    --inline-suppr --suppress=missingIncludeSystem --suppress=unknownMacro \
    --suppressions-list="$root/tests/sanitizers/cppcheck.supp" \
    -j "$jobs" -I engines -I app -I widgets --template='{file}:{line}: {severity}: {message} [{id}]' \
    "${dirs[@]}" 2>"$out/cppcheck.txt" || true
  n=$(grep -c ': \(error\|warning\|performance\|portability\):' "$out/cppcheck.txt" || true)
  echo "cppcheck: $n findings ($out/cppcheck.txt)"
  sed "s|$root/||" "$out/cppcheck.txt" | head -200
  findings=$((findings + n))
else
  echo "cppcheck: not installed (apt-get install cppcheck)"
fi
echo "static analysis: $findings findings in $(( $(date +%s) - start )) s"
if [ "${PAPERLAB_SA_STRICT:-0}" = 1 ] && [ "$findings" -gt 0 ]; then
  exit 1
fi
exit 0
