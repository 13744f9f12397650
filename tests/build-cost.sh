#!/usr/bin/env bash
# Build cost from a Ninja build tree: CPU-seconds per folder and the slowest build steps, read from
# BUILD_DIR/.ninja_log (the last entry of every output, so run it after a cold build for absolute
# numbers, or after any build to see what that build spent). One compile step is one process on one
# core, so the sum of step durations is the build's CPU time (ccache hits count as what they cost).
# When BUILD_DIR holds cpu-times.log (written by --measure), that is read instead: true user+sys
# CPU-seconds per step, independent of other load on the machine (the numbers to put in notes).
# Usage: tests/build-cost.sh [BUILD_DIR] [N]     (defaults: build 20)
#        tests/build-cost.sh BUILD_DIR N --json  (machine-readable, for issue notes and CI logs)
#        tests/build-cost.sh --measure [BUILD_DIR] [N] [CMAKE_ARGS...]
#            cold Release build of this checkout into BUILD_DIR (default build-cost/, wiped first),
#            ccache off, every compile and link under tests/cpu-time-launcher.sh; then the report.
#            PAPERLAB_COST_SRC=DIR measures another checkout (e.g. an older commit) with this script.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "${1:-}" = --measure ]; then
  shift
  build="${1:-build-cost}"; top="${2:-20}"; shift $(( $# >= 2 ? 2 : $# ))
  build="$(mkdir -p "$build" && cd "$build" && pwd)"
  rm -rf "${build:?}"/* "$build"/.ninja_* 2>/dev/null || true
  launch="$root/tests/cpu-time-launcher.sh;$build/cpu-times.log"
  export CCACHE_DISABLE=1
  cmake -S "${PAPERLAB_COST_SRC:-$root}" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_CXX_COMPILER_LAUNCHER=$launch" "-DCMAKE_C_COMPILER_LAUNCHER=$launch" \
    "-DCMAKE_CUDA_COMPILER_LAUNCHER=$launch" "-DCMAKE_CXX_LINKER_LAUNCHER=$launch" "$@" >/dev/null
  # Whole-build CPU (compiles, links, moc/rcc, CMake's own steps) from GNU time around the build.
  /usr/bin/time -o "$build/build-total.txt" -f "%e %U %S" \
    cmake --build "$build" -j"${PAPERLAB_JOBS:-$(nproc)}" >"$build/build-output.log" 2>&1 ||
    { tail -30 "$build/build-output.log"; exit 1; }
  read -r wall user sys < <(tail -1 "$build/build-total.txt")
  echo "cold build: ${wall} s wall on $(nproc) cores, $(echo "$user + $sys" | bc) CPU-s in all (user+sys, every step)"
  set -- "$build" "$top"
fi
build="${1:-build}"
top="${2:-20}"
fmt="${3:-text}"
log="$build/.ninja_log"
[ -f "$build/cpu-times.log" ] && log="$build/cpu-times.log"
[ -f "$log" ] || { echo "build-cost: no $log (not a Ninja build tree?)" >&2; exit 1; }
exec /usr/bin/python3 - "$log" "$top" "$fmt" "$build" <<'PY'
import json, os, re, sys
log, top, fmt, build = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def read_cpu_times(path, build):
    """Seconds per step from cpu-times.log ("user sys output" per line, GNU time)."""
    babs = os.path.abspath(build) + "/"
    steps = {}
    with open(path) as f:
        for line in f:
            parts = line.split(None, 2)
            if len(parts) < 3 or not re.match(r"^[0-9.]+$", parts[0]):
                continue
            out = parts[2].strip()
            if out.startswith(babs):
                out = out[len(babs):]
            steps[out] = float(parts[0]) + float(parts[1])
    return steps

def read_ninja_log(path):
    """Seconds per step from .ninja_log: the last entry of every output; a step with several
    outputs (moc/rcc, a link with its import files) has one line per output and counts once."""
    last = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 4:
                continue
            start, end, out = int(parts[0]), int(parts[1]), parts[3]
            last[out] = (start, end, parts[4] if len(parts) > 4 else out)
    seen, steps = set(), {}
    for out, key in last.items():
        if key not in seen:
            seen.add(key)
            steps[out] = (key[1] - key[0]) / 1000.0
    return steps

last = read_cpu_times(log, build) if log.endswith("cpu-times.log") else read_ninja_log(log)

def source_of(path):
    # "engines/games/CMakeFiles/paperlab_games.dir/DrsOperator.cpp.o" -> ("engines/games", "DrsOperator.cpp")
    m = re.match(r"(.*?)/?CMakeFiles/[^/]+\.dir/(.*)\.o$", path)
    if not m:
        return None, path
    folder, rel = m.group(1), m.group(2)
    if rel.startswith("__/") or "/__/" in rel:
        rel = rel.replace("__/", "../")
    return folder or ".", rel

def area(folder):
    # Group by the project's areas: engines/<x>, plugins/<x>, widgets, app/<x>, tests/<x>, tests/bench/<x>.
    p = folder.split("/")
    if p[0] == "tests" and len(p) > 2 and p[1] in ("bench", "plugins", "fuzz"):
        return "/".join(p[:3])
    return "/".join(p[:2]) if len(p) > 1 else p[0]

total = 0.0
compile_s, link_s, other_s = 0.0, 0.0, 0.0
per_area, steps = {}, []
for path, secs in last.items():
    total += secs
    folder, rel = source_of(path)
    if folder is None:
        kind = "link" if not path.endswith((".h", ".cpp", ".stamp")) else "other"
        if kind == "link":
            link_s += secs
        else:
            other_s += secs
        a = "link/other"
    else:
        compile_s += secs
        a = area(folder)
    per_area[a] = per_area.get(a, 0.0) + secs
    steps.append((secs, path if folder is None else f"{folder}/{rel}"))
steps.sort(reverse=True)
areas = sorted(per_area.items(), key=lambda kv: -kv[1])
if fmt == "--json":
    print(json.dumps({"total_cpu_s": round(total, 1), "compile_cpu_s": round(compile_s, 1),
                      "link_cpu_s": round(link_s, 1), "steps": len(last),
                      "areas": {k: round(v, 1) for k, v in areas},
                      "slowest": [{"cpu_s": round(s, 1), "step": p} for s, p in steps[:top]]}, indent=1))
    sys.exit(0)
print(f"build cost of {log}: {len(last)} steps, {total:.0f} CPU-s "
      f"(compile {compile_s:.0f}, link {link_s:.0f}, other {other_s:.0f})")
print("\nCPU-seconds per area:")
for k, v in areas:
    print(f"  {v:8.1f}  {k}")
print(f"\n{top} slowest steps:")
for s, p in steps[:top]:
    print(f"  {s:8.1f}  {p}")
PY
